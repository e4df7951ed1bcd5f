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

    /// A key whose home is the last slot, taken, goes on at the first: a lookup must wrap
    /// around the end as the insert did, before the table grows and after. The names are
    /// picked by the top byte of their hash, which makes their home the last slot at every
    /// capacity up to 256, so the first of them takes it and the others wrap, past keys
    /// whose home is the first slot; a missing key whose home is the last slot is still
    /// missing, its probe ending at an empty slot after the wrap.
    @Test func keysWhoseProbeWrapsAroundTheEndAreFoundBeforeAndAfterGrowth() throws {
        let atTheEnd = Self.names(count: 4) { $0 >> 24 == 0xFF }
        let atTheStart = Self.names(count: 3) { $0 >> 24 == 0x00 }
        let registered = atTheEnd.dropLast() + atTheStart
        let missing = atTheEnd.last!
        let registry = ServiceRegistry()
        for (index, name) in registered.enumerated() {
            registry.register(Int.self, name: name) { _ in index }
        }
        func expectEachFound() throws {
            for (index, name) in registered.enumerated() {
                #expect(try registry.resolve(Int.self, name: name) == index, "\(name)")
                #expect(registry.table.hasRegistration(of: ObjectIdentifier(Int.self), name: name), "\(name)")
            }
            #expect(!registry.isRegistered(Int.self, name: missing))
        }
        try expectEachFound()
        // 150 more keys grow the table to 256 slots, where the picked names' home is the
        // last slot again.
        for index in 0..<150 {
            registry.register(Int.self, name: "filler \(index)") { _ in -1 }
        }
        try expectEachFound()
    }

    /// The first `count` names (`wrap 0`, `wrap 1`, …) whose key for `Int` has a table hash
    /// `isPicked` accepts.
    private static func names(count: Int, where isPicked: (UInt32) -> Bool) -> [String] {
        var names: [String] = []
        var index = 0
        while names.count < count {
            let name = "wrap \(index)"
            if isPicked(ServiceKey(Int.self, name: name).tableHash) { names.append(name) }
            index += 1
        }
        return names
    }
}
