// A consumer's test target using the `.overriding` trait from the ServiceRegistryTesting
// product, as Docs/Testing.md shows it: proof that the product embeds too.
import ServiceRegistry
import ServiceRegistryTesting
import Testing

protocol Clock: Sendable {
    var hour: Int { get }
}

struct FixedClock: Clock {
    let hour: Int
}

final class Greeter {
    @Injected var clock: any Clock

    var greeting: String { clock.hour < 12 ? "Good morning" : "Good afternoon" }
}

@Test(.overriding { $0.register(Clock.self) { _ in FixedClock(hour: 9) } })
func greetsByTheOverriddenClock() {
    #expect(Greeter().greeting == "Good morning")
}

@Test(.overriding { $0.register(Clock.self) { _ in FixedClock(hour: 15) } })
func eachTestSeesOnlyItsOwnOverride() {
    #expect(Greeter().greeting == "Good afternoon")
}
