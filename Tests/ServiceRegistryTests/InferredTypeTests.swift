import ServiceRegistry
import Testing

// `resolve(name:)`, `resolve(name:argument:)` (on the registry and the resolver) and
// `withOverrides(_:)` without an operation are unavailable stand-ins that return `Never`:
// the compiler picks them only where no real overload fits, so that
// `let reviews = try registry.resolve()` is "Swift cannot infer the service type here"
// rather than "failed to produce diagnostic for expression". `Never` converts to `Any` and
// conforms to `Error` and `Hashable`, so with those as the contextual type both kinds of
// overload fit. These tests compile, and resolve what they ask for, only while the real
// overloads win there.
@Suite("Inferred service types")
struct InferredTypeTests {
    static func registryOfExistentials() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(Any.self) { _ in "any" }
        registry.register(Any.self, name: "named") { _ in "named any" }
        registry.register(Any.self) { (_, id: Int) in "any \(id)" }
        registry.register((any Error).self) { _ in FactoryError(message: "an error service") }
        registry.register((any Hashable).self) { _ in "hashable" }
        registry.register(Int.self) { _ in 42 }
        return registry
    }

    static func resolved<Service>(from registry: ServiceRegistry) throws -> Service {
        try registry.resolve()
    }

    @Test func aResolveWhoseContextTakesNeverStillResolvesThatContext() throws {
        let registry = Self.registryOfExistentials()
        let anything: Any = try registry.resolve()
        let named: Any = try registry.resolve(name: "named")
        let withArgument: Any = try registry.resolve(argument: 7)
        let optional: Any? = try registry.resolve()
        let error: any Error = try registry.resolve()
        let hashable: any Hashable = try registry.resolve()
        let generic: Int = try Self.resolved(from: registry)
        #expect(anything as? String == "any")
        #expect(named as? String == "named any")
        #expect(withArgument as? String == "any 7")
        #expect(optional as? String == "any")
        #expect((error as? FactoryError)?.message == "an error service")
        #expect(hashable as? String == "hashable")
        #expect(generic == 42)
    }

    @Test func aResolveThroughTheResolverWhoseContextTakesNeverStillResolvesThatContext() throws {
        let registry = Self.registryOfExistentials()
        registry.register(String.self) { r in
            let anything: Any = try r.resolve()
            let named: Any = try r.resolve(name: "named")
            let withArgument: Any = try r.resolve(argument: 7)
            let error: any Error = try r.resolve()
            let hashable: any Hashable = try r.resolve()
            let parts: [Any] = [anything, named, withArgument, error is FactoryError, hashable]
            return parts.map { "\($0)" }.joined(separator: ", ")
        }
        #expect(try registry.resolve(String.self) == "any, named any, any 7, true, hashable")
    }
}
