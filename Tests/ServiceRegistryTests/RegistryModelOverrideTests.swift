import ServiceRegistry
import SeededRandom
import Testing

/// The reference model of `RegistryModelTests`, with `withOverrides` scopes (nested, on any
/// registry of the tree) around sub-sequences of operations, scopes captured with
/// `OverrideScope.current` and resolved in later, and factories that resolve other services
/// through their resolver or through a registry directly.
///
/// Checks, inside and after scopes, what API.md ("Swapping mocks in tests"), Docs/Testing.md
/// and Docs/Scopes.md promise: an override shadows its registry, before that registry's own
/// table and its parents; it may supply a service the registry lacks; the inner scope wins,
/// and the later of two overrides of one key; a dependency resolved while building sees the
/// overrides of the registry that builds it (a parent's shared service is built from the
/// parent's); a `.singleton` or `.weak` instance resolved in a scope, of any registry, is
/// built afresh there, cached in the innermost scope and gone with it (or with the last
/// captured copy of it); after the scope the registry's own instances (or fresh ones from
/// the real dependencies) come back; the configure closure runs before the scope starts;
/// `validate()` builds what is visible, overrides included, in isolation, caching nothing.
/// A failure prints the seed and the operations; `RegistryModelOverrideTests.run(seed:)`
/// replays one sequence.
///
/// Not covered: the async `withOverrides`, tasks started in a scope, and resolves
/// through the registry that meet their own registration again (the sequence skips them).
@Suite("Registry with override scopes against a reference model")
struct RegistryModelOverrideTests {
    static let sequences: UInt64 = 200
    static let options = ModelOptions(overrides: true, dependencies: true, replay: "RegistryModelOverrideTests.run")

    @Test func registryAgreesWithTheModelInsideAndAfterOverrideScopes() {
        if let failure = RegistryModelTests.firstFailure(seeds: 1...Self.sequences, options: Self.options) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// Replays the sequence `seed` generates; the failure report, if any.
    static func run(seed: UInt64) -> String? {
        RegistryModelTests.run(seed: seed, options: options)
    }
}

extension ModelSequence {
    /// How deep scopes nest.
    static let maxScopeDepth = 3

    /// Opens a scope on a random registry with up to three overrides (a key may come twice:
    /// the later one wins), sometimes resolving in the configure closure first (which runs
    /// before the scope starts, as a wrapper of the real service does), and runs a few
    /// operations in it, then checks what the scope leaves behind.
    mutating func withOverrides() -> String? {
        let registry = randomRegistry()
        var overrides: [(ModelKey, ModelRegistration)] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            // Mostly a key already registered somewhere, to shadow it.
            let (fresh, registration) = randomRegistration()
            let registered = model.registeredKeys.sorted { $0.description < $1.description }
            let key = !registered.isEmpty && random.chance(70) ? random.pick(registered) : fresh
            overrides.append((key, registration))
        }
        let operations = min(remaining, Int.random(in: 1...8, using: &random))
        let resolvesWhileConfiguring = random.chance(25)
        record("r\(registry).withOverrides {")
        for (key, registration) in overrides {
            record("  register(\(key), \(registration.description)) -> #\(registration.id)")
        }

        let builds = builds
        let registries = registries
        var mismatch: String?
        var scope: Int?
        depth += 1
        registries[registry].withOverrides { registrar in
            if resolvesWhileConfiguring { mismatch = resolve() }
            for (key, registration) in overrides {
                registrar.register(key, registration, builds: builds, registries: registries)
            }
        } operation: {
            guard mismatch == nil else { return }
            let id = model.beginScope(on: registry, table: Dictionary(overrides, uniquingKeysWith: { $1 }))
            scope = id
            record("} operation: (scope \(id)) {")
            mismatch = checkInvariants()
            var done = 0
            while mismatch == nil, done < operations, remaining > 0 {
                mismatch = step()
                done += 1
            }
        }
        depth -= 1
        if let scope {
            model.endScope()
            if mismatch == nil { record("} (scope \(scope) ends)") }
        }
        return mismatch
    }

    /// Captures the scopes active now (`OverrideScope.current`, possibly none), runs a
    /// resolve or an `isRegistered` in a scope captured earlier, in place of the active
    /// ones, or forgets a captured scope.
    mutating func capturedScopeOperation() -> String? {
        if capturedScopes.isEmpty || (capturedScopes.count < 3 && random.chance(30)) {
            capturedScopes.append(OverrideScope.current)
            model.capturedScopes.append(model.scopes)
            record("capture \(capturedScopes.count - 1) = OverrideScope.current (scopes \(model.scopes.map(\.id)))")
            return nil
        }
        let index = Int.random(in: 0..<capturedScopes.count, using: &random)
        if random.chance(25) {
            capturedScopes.remove(at: index)
            model.dropCapturedScope(at: index)
            record("drop capture \(index)")
            return nil
        }
        let active = model.scopes
        model.scopes = model.capturedScopes[index]
        record("capture \(index).run {")
        depth += 1
        let resolves = random.chance(80)
        let mismatch = capturedScopes[index].run { resolves ? resolve() : isRegistered() }
        depth -= 1
        model.scopes = active
        if mismatch == nil { record("}") }
        return mismatch
    }
}
