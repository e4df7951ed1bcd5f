@testable import ServiceRegistry
import Testing

/// Observers left on a registry that is freed: nothing observable through the API changes,
/// only whether resolves take the fast path, so this reads the package's own counters, in a
/// process of its own where no other test adds observers meanwhile.
@Suite("Resolution observers: lifetime")
struct ObserverLifetimeTests {
    @Test func aFreedRegistryStopsCountingTheObserversNobodyRemoved() async {
        await #expect(processExitsWith: .success) {
            var registry: ServiceRegistry? = ServiceRegistry()
            registry?.addResolutionObserver { _ in }
            registry?.addResolutionObserver { _ in }
            precondition(!ResolutionObservers.noneActive && !FastPath.isOpen)
            registry = nil
            precondition(ResolutionObservers.noneActive, "the freed registry's observers are still counted")
            precondition(FastPath.isOpen, "the fast path stayed closed")
        }
    }
}
