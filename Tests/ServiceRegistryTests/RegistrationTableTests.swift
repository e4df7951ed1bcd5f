@testable import ServiceRegistry
import Testing

@Suite struct RegistrationTableTests {
    /// Whether a service type has a registration under a name, taking any argument or none,
    /// is one probe from one home slot, which needs every such registration there: the
    /// table hash leaves the argument type out. A resolve of an optional type asks it every
    /// time (`if let p: P = try? registry.resolve()`); it used to scan the whole table.
    @Test func hasRegistrationFindsATypeAndNameWithAnyArgumentAndNothingElse() throws {
        let registry = ServiceRegistry()
        // Enough other keys that the table grows several times and probe runs get long.
        for index in 0..<1_000 {
            registry.register(Int.self, name: "filler \(index)") { _ in index }
        }
        registry.register(String.self, name: "a") { (_, number: Int) in "\(number)" }
        registry.register(String.self, name: "b") { _ in "none" }
        registry.register(String.self, name: "b") { (_, number: Double) in "\(number)" }
        registry.register(String.self) { (_, pair: (Int, Int)) in "\(pair.0 + pair.1)" }

        let table = registry.table
        let string = ObjectIdentifier(String.self)
        #expect(table.hasRegistration(of: string, name: "a"))
        #expect(table.hasRegistration(of: string, name: "b"))
        #expect(table.hasRegistration(of: string, name: nil))
        #expect(!table.hasRegistration(of: string, name: "c"))
        #expect(!table.hasRegistration(of: ObjectIdentifier(Substring.self), name: "a"))
        for index in stride(from: 0, to: 1_000, by: 37) {
            #expect(table.hasRegistration(of: ObjectIdentifier(Int.self), name: "filler \(index)"))
        }
        #expect(!table.hasRegistration(of: ObjectIdentifier(Int.self), name: "filler 1000"))

        // Keys that differ only in their argument share a hash; each still finds its own.
        #expect(try registry.resolve(String.self, name: "a", argument: 7) == "7")
        #expect(try registry.resolve(String.self, name: "b") == "none")
        #expect(try registry.resolve(String.self, name: "b", argument: 1.5) == "1.5")
        #expect(try registry.resolve(String.self, argument: (2, 3)) == "5")
        #expect(try registry.resolve(Int.self, name: "filler 999") == 999)
    }
}
