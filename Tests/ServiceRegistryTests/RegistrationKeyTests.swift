@testable import ServiceRegistry
import Testing

/// The table finds a registration by a 32-bit hash of its key, and two keys may share one:
/// a registration must then still tell its own key from the other. A key with the hash of
/// a given one cannot be made through the API without searching billions of names, so most
/// of these hand the registration another key together with its own hash; some pair of
/// names that hash alike is found at once, which the last test registers.
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

    /// An empty name is a name, not the absence of one: handed the same hash, a
    /// registration under `""` does not answer for no name, nor one without a name for `""`.
    @Test func anEmptyNameAndNoNameAreTwoKeysEvenWithOneHash() {
        let empty = FactoryRegistration(name: "", scope: .transient, origin: -1) { _ in 1 }
        let unnamed = FactoryRegistration(name: nil, scope: .transient, origin: -1) { _ in 1 }
        #expect(empty.matches(ServiceKey(Int.self, name: ""), hash: empty.keyHash))
        #expect(!empty.matches(ServiceKey(Int.self, name: nil), hash: empty.keyHash))
        #expect(unnamed.matches(ServiceKey(Int.self, name: nil), hash: unnamed.keyHash))
        #expect(!unnamed.matches(ServiceKey(Int.self, name: ""), hash: unnamed.keyHash))
    }

    /// Two keys share a table hash more often than it seems: among some 80,000 names of one
    /// type, two hash alike (the birthday bound of 32 bits), so a search finds such a pair
    /// at once, though a name hashing like one given name would take billions. Such keys
    /// share a home slot and a tag, and the table must tell them apart by the name itself:
    /// in a lookup, and in `hasRegistration`, which a resolve of an optional type asks
    /// before it falls back to the wrapped type.
    @Test func namesWhoseKeysShareATableHashAreToldApart() throws {
        let (first, second) = try #require(Self.namesSharingATableHash(for: Int?.self))
        let registry = ServiceRegistry()
        registry.register(Int?.self, name: first) { _ in nil }
        registry.register(Int.self, name: second) { _ in 2 }

        let optional = ObjectIdentifier(Int?.self)
        #expect(registry.table.hasRegistration(of: optional, name: first))
        #expect(!registry.table.hasRegistration(of: optional, name: second))
        // Nothing is registered for `Int?` under the second name: its resolve falls back to
        // `Int` under that name, rather than take the first name's registration for one.
        #expect(try registry.resolve(Int?.self, name: second) == 2)
        #expect(try registry.resolve(Int?.self, name: first) == nil)

        registry.register(Int?.self, name: second) { _ in 20 }
        #expect(try registry.resolve(Int?.self, name: first) == nil)
        #expect(try registry.resolve(Int?.self, name: second) == 20)
    }

    /// Two names whose keys for `service` have one table hash, found by a birthday search.
    private static func namesSharingATableHash(for service: Any.Type) -> (String, String)? {
        var names: [UInt32: String] = [:]
        for index in 0..<2_000_000 {
            let name = "name \(index)"
            if let earlier = names.updateValue(name, forKey: ServiceKey(service, name: name).tableHash) {
                return (earlier, name)
            }
        }
        return nil
    }
}
