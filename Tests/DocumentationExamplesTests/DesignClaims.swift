// Docs/Design.md has no Swift snippets to mirror, but its "Known limits" make claims about
// what the registry does that a reader relies on; these tests run them.
import ServiceRegistry
import Synchronization
import Testing

@Suite struct DesignClaims {
    /// A tree whose node resolves its children through the registry, with another argument
    /// at each level, `levels` deep; nothing else resolves it.
    static func buildTree(levels: Int, scope: Scope) -> Result<Int, ResolutionError> {
        let registry = ServiceRegistry()
        registry.register(Int.self, scope: scope) { [registry] (_, level: Int) in
            level == levels ? level : try registry.resolve(Int.self, argument: level + 1)
        }
        do {
            return .success(try registry.resolve(Int.self, argument: 1))
        } catch {
            return .failure(error)
        }
    }

    /// "Through the registry, a `.transient` or `.graph` node is caught only once its
    /// resolves are traced: from the sixth level on when nothing else resolves it."
    @Test(arguments: [Scope.transient, .graph])
    func aRecursiveTreeThroughTheRegistryIsACycleFromTheSixthLevelOn(scope: Scope) throws {
        for levels in 1...8 {
            let result = Self.buildTree(levels: levels, scope: scope)
            switch result {
            case .success(let level):
                #expect(levels < 6 && level == levels, "\(levels) levels built")
            case .failure(let error):
                #expect(levels >= 6 && error.reason == .circularDependency, "\(levels) levels: \(error.reason)")
            }
        }
    }
}

extension DesignClaims {
    /// "A cycle made of `n` services resolved through the registry is caught about `5n`
    /// levels deep."
    @Test(arguments: [1, 2, 3, 5])
    func aCycleOfNServicesThroughTheRegistryIsCaughtAboutFiveNLevelsDeep(services: Int) throws {
        let registry = ServiceRegistry()
        let levels = Mutex(0)
        for index in 0..<services {
            registry.register(Int.self, name: "\(index)") { [registry] _ in
                levels.withLock { $0 += 1 }
                return try registry.resolve(Int.self, name: "\((index + 1) % services)")
            }
        }
        let error = #expect(throws: ResolutionError.self) { try registry.resolve(Int.self, name: "0") }
        #expect(error?.reason == .circularDependency)
        let caught = levels.withLock { $0 }
        #expect((5 * services - 1)...(5 * services + 1) ~= caught, "\(caught) levels")
    }
}
