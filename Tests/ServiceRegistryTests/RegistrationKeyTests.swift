@testable import ServiceRegistry
import Testing

/// The table finds a registration by a 32-bit hash of its key, and two keys may share one:
/// a registration must then still tell its own key from the other. Two keys with one hash
/// cannot be made through the API without searching billions of names, so these hand the
/// registration another key together with its own hash.
@Suite("Registration keys")
struct RegistrationKeyTests {
    @Test func aKeyWithTheSameHashButAnotherArgumentTypeIsNotFound() {
        let registration = ArgumentFactoryRegistration(name: "x", scope: .transient, origin: -1) { (_, id: Int) in id }
        let sameHash = registration.keyHash
        #expect(registration.matches(ServiceKey(Int.self, name: "x", argument: Int.self), hash: sameHash))
        #expect(!registration.matches(ServiceKey(Int.self, name: "x", argument: String.self), hash: sameHash))
        #expect(!registration.matches(ServiceKey(Int.self, name: "x"), hash: sameHash))
    }

    @Test func aKeyWithTheSameHashButAnotherNameIsNotFound() {
        let registration = FactoryRegistration(name: "x", scope: .transient, origin: -1) { _ in 1 }
        let sameHash = registration.keyHash
        #expect(registration.matches(ServiceKey(Int.self, name: "x"), hash: sameHash))
        #expect(!registration.matches(ServiceKey(Int.self, name: "y"), hash: sameHash))
        #expect(!registration.matches(ServiceKey(Int.self, name: nil), hash: sameHash))
        #expect(!registration.matches(ServiceKey(String.self, name: "x"), hash: sameHash))
    }
}
