import Testing

@testable import registry_benchmark

/// The `frozen-table` floor finds exactly what was put in it, by type, name and argument
/// type, however crowded its slots, and says what it was asked for when it finds nothing.
@Suite("frozen-table floor")
struct FrozenTableTests {
    @Test func aKeyIsItsTypeNameAndArgumentTypeTogether() throws {
        let table = FrozenTable([
            .factory(Int.self) { _ in 1 },
            .factory(Int.self, name: "two") { _ in 2 },
            .factory(Int.self) { (_, offset: Int) in 3 + offset },
            .factory(Int.self) { (_, suffix: String) in Int("4\(suffix)") ?? -1 },
            .factory(String.self) { table in "\(try table.resolve(Int.self, name: "two"))" },
        ])
        #expect(try table.resolve(Int.self) == 1)
        #expect(try table.resolve(Int.self, name: "two") == 2)
        #expect(try table.resolve(Int.self, argument: 10) == 13)
        #expect(try table.resolve(Int.self, argument: "0") == 40)
        #expect(try table.resolve(String.self) == "2")
    }

    @Test func aMissNamesWhatWasAskedFor() {
        let table = FrozenTable([.factory(Int.self, name: "two") { _ in 2 }])
        #expect(throws: FrozenTable.Failure.self) { try table.resolve(Int.self) }
        #expect(throws: FrozenTable.Failure.self) { try table.resolve(Int.self, name: "three") }
        do {
            _ = try table.resolve(Int.self, argument: 1.5)
            Issue.record("resolved a key nobody registered")
        } catch {
            #expect("\(error)" == "frozen-table: nothing registered for Int with a Double argument")
        }
    }

    /// Every generated key type is found, each its own factory, in one table of 10,000 (a
    /// wrong probe or a slot overwritten would lose or swap one) and in a thousand tables of
    /// four, each at half its eight slots (in some, a key's probe runs past the last slot and
    /// must wrap to the first).
    @Test(arguments: [(keysPerTable: 10_000, tables: 1), (keysPerTable: 4, tables: 1_000)])
    func everyKeyIsFoundAsItsOwnType(keysPerTable: Int, tables: Int) throws {
        let types = Array(GeneratedKeys.types.prefix(keysPerTable * tables))
        for start in stride(from: 0, to: types.count, by: keysPerTable) {
            let keys = types[start..<start + keysPerTable]
            let table = FrozenTable(keys.map(FrozenTableSubject.registration(for:)))
            for keyType in keys {
                #expect(try builtType(keyType, from: table) == ObjectIdentifier(keyType))
            }
        }
    }

    /// A factory is found by the type it builds, also when registered through a metatype
    /// value whose dynamic type is a subclass.
    @Test func aFactoryIsKeyedByTheTypeItBuilds() throws {
        let subclass: Vehicle.Type = Bicycle.self
        let table = FrozenTable([.factory(subclass) { _ in Vehicle() }])
        #expect(try type(of: table.resolve(Vehicle.self)) == Vehicle.self)
        #expect(throws: FrozenTable.Failure.self) { try table.resolve(Bicycle.self) }
    }

    @Test func theTableReleasesItsFactoriesWhenItGoes() throws {
        weak var captured: SharedServiceImpl?
        do {
            let service = SharedServiceImpl(serial: 9)
            captured = service
            let table = FrozenTable([.factory(SharedServiceImpl.self) { _ in service }])
            #expect(try table.resolve(SharedServiceImpl.self) === service)
        }
        #expect(captured == nil)
    }

    private func builtType(_ keyType: any GeneratedKey.Type, from table: FrozenTable) throws -> ObjectIdentifier {
        func open<Key: GeneratedKey>(_ type: Key.Type) throws -> ObjectIdentifier {
            ObjectIdentifier(Swift.type(of: try table.resolve(Key.self)))
        }
        return try open(keyType)
    }
}

/// A class and a subclass, so a metatype value can differ from its static type.
private class Vehicle {}
private final class Bicycle: Vehicle {}
