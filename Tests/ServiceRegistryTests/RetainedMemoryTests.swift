@testable import ServiceRegistry
import Synchronization
import Testing

// Memory that stays reachable though nothing should need it any more: not a leak to the
// leak sanitizer, but an app that makes and drops scopes, registrations or assemblies
// over a long run would grow. Each test holds what must go by a weak reference or counts
// internal entries; none measures the heap.

// Fixtures are private to this file so they never clash with other test files' types.

private protocol Wallet: Sendable {}

/// Something a factory captures or builds, whose lifetime a test watches.
private final class Coin: Wallet {}

@Suite("What the registry lets go of")
struct RetainedMemoryTests {
    /// The configure closure may keep its registrar (a test helper storing `$0`); the
    /// registrar must not keep the overrides' factories, and what they capture, after the
    /// scope has ended.
    @Test func aRegistrarKeptAfterItsScopeKeepsNoOverride() throws {
        let registry = ServiceRegistry()
        var kept: OverrideRegistrar?
        weak var captured: Coin?
        do {
            let coin = Coin()
            captured = coin
            try registry.withOverrides {
                kept = $0
                $0.register(Wallet.self) { _ in coin }
            } operation: {
                _ = try registry.resolve(Wallet.self)
            }
        }
        #expect(kept != nil)
        #expect(captured == nil)
    }
}
