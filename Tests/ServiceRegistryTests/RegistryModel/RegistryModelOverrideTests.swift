import SeededRandom
import ServiceRegistry
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
/// `validate()` builds what is visible, overrides included, in isolation, caching nothing;
/// the async `withOverrides` keeps the same rules, a `Task { }` started in it sees the
/// scope and a `Task.detached` does not.
/// A failure prints the seed and the operations; `RegistryModelOverrideTests.run(seed:)`
/// replays one sequence.
///
/// Not covered: tasks running beside each other (every task is awaited at once), tasks
/// that outlive their scope, and resolves through the registry that meet their own
/// registration again (the sequence skips them).
@Suite("Registry with override scopes against a reference model")
struct RegistryModelOverrideTests {
    static let sequences: UInt64 = 200
    static let options = ModelOptions(overrides: true, dependencies: true, replay: "RegistryModelOverrideTests.run")

    @Test func registryAgreesWithTheModelInsideAndAfterOverrideScopes() async {
        if let failure = await RegistryModelTests.firstFailure(seeds: 1...Self.sequences, options: Self.options) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// Replays the sequence `seed` generates; the failure report, if any.
    static func run(seed: UInt64) async -> String? {
        await RegistryModelTests.run(seed: seed, options: options)
    }
}

extension ModelSequence {
    /// How deep scopes nest.
    static let maxScopeDepth = 3

    /// Plans a scope on a random registry: up to three overrides (a key may come twice: the
    /// later one wins), how many operations run in it, and whether the configure closure
    /// resolves first (it runs before the scope starts, as a wrapper of the real service
    /// does); logs the overrides.
    mutating func planScope() -> ModelScopePlan {
        let registry = randomRegistry()
        var overrides: [(ModelKey, ModelRegistration)] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            // Mostly a key already registered somewhere, to shadow it.
            let (fresh, registration) = randomRegistration()
            let registered = model.registeredKeys.sorted { $0.description < $1.description }
            let key = !registered.isEmpty && random.chance(70) ? random.pick(registered) : fresh
            overrides.append((key, registration))
        }
        let plan = ModelScopePlan(
            registry: registry, overrides: overrides, operations: min(remaining, Int.random(in: 1...8, using: &random)),
            resolvesWhileConfiguring: random.chance(25), builds: builds, registries: registries)
        record("r\(registry).withOverrides {")
        for (key, registration) in overrides {
            record("  register(\(key), \(registration.description)) -> #\(registration.id)")
        }
        return plan
    }

    /// Starts the model's scope for `plan`, once its configure closure has run.
    mutating func beginScope(_ plan: ModelScopePlan, async: Bool) -> Int {
        let id = model.beginScope(on: plan.registry, table: Dictionary(plan.overrides, uniquingKeysWith: { $1 }))
        record("} operation: \(async ? "async " : "")(scope \(id)) {")
        return id
    }

    /// Ends the model's scope `id`, if it began.
    mutating func endScope(_ id: Int?, after mismatch: String?) {
        guard let id else { return }
        model.endScope()
        if mismatch == nil { record("} (scope \(id) ends)") }
    }

    /// Opens a scope planned by ``planScope()`` and runs its operations in it, then checks
    /// (in ``step()``) what the scope leaves behind.
    mutating func withOverrides() -> String? {
        let plan = planScope()
        var mismatch: String?
        var scope: Int?
        depth += 1
        plan.registries[plan.registry].withOverrides { registrar in
            if plan.resolvesWhileConfiguring { mismatch = resolve() }
            plan.register(into: registrar)
        } operation: {
            guard mismatch == nil else { return }
            scope = beginScope(plan, async: false)
            mismatch = checkInvariants()
            var done = 0
            while mismatch == nil, done < plan.operations, remaining > 0 {
                mismatch = step()
                done += 1
            }
        }
        depth -= 1
        endScope(scope, after: mismatch)
        return mismatch
    }

    /// ``withOverrides()`` with the async `withOverrides`, where some of the operations are
    /// resolves in a child task (which sees the scope) or a detached one (which does not).
    mutating func withOverridesAsync() async -> String? {
        let plan = planScope()
        var mismatch: String?
        var scope: Int?
        depth += 1
        await plan.registries[plan.registry].withOverrides { registrar in
            if plan.resolvesWhileConfiguring { mismatch = resolve() }
            plan.register(into: registrar)
        } operation: {
            guard mismatch == nil else { return }
            scope = beginScope(plan, async: true)
            mismatch = checkInvariants()
            var done = 0
            while mismatch == nil, done < plan.operations, remaining > 0 {
                if random.chance(30) {
                    remaining -= 1
                    mismatch = await resolveInTask()
                    if mismatch == nil { mismatch = checkInvariants() }
                } else {
                    mismatch = step()
                }
                done += 1
            }
        }
        depth -= 1
        endScope(scope, after: mismatch)
        return mismatch
    }

    /// Resolves in a `Task { }`, which inherits the active scopes, or in a `Task.detached`,
    /// which runs with none. The instance stays in the task (a task's result may outlive
    /// its `value` for a moment, and the liveness checks would see it), which compares it.
    mutating func resolveInTask() async -> String? {
        let registry = randomRegistry()
        var request = randomRequest(registered: 85, rightArgument: 85)
        askForAnOptionalSometimes(&request)
        let detached = random.chance(30)
        let entry = "\(detached ? "Task.detached" : "Task") { r\(registry).resolve(\(request)) }"
        var trial = model
        let active = trial.scopes
        if detached { trial.scopes = [] }
        let expected = trial.resolve(request, from: registry, held: held.map(\.serial))
        trial.scopes = active
        if case .unpredictable = expected {
            record("\(entry): not run, it would meet a registration again through the registry")
            return nil
        }
        model = trial

        let target = registries[registry]
        let asked = request
        let node: ModelNode? = if case .success(let node) = expected { node } else { nil }
        let resolveAndCompare: @Sendable () -> ModelTaskOutcome = {
            do throws(ResolutionError) {
                guard let product = try target.resolve(asked) else { return .notAProduct }
                return .returned(product.description, matches: node?.matches(product) ?? false)
            } catch {
                return .threw(error.reason, error.description)
            }
        }
        let outcome =
            detached ? await Task.detached(operation: resolveAndCompare).value : await Task(operation: resolveAndCompare).value
        switch outcome {
        case .notAProduct:
            record("\(entry) -> not a ModelProduct")
            return "\(entry) returned something other than a ModelProduct"
        case .threw(let reason, let description):
            record("\(entry) -> .\(reason)")
            if case .failure(let expectedReason) = expected, expectedReason == reason { return nil }
            return "\(entry) threw .\(reason) (\(description)); the model expects \(expected)"
        case .returned(let description, let matches):
            record("\(entry) -> \(description)")
            return matches ? nil : "\(entry) returned \(description); the model expects \(expected)"
        }
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

/// A scope a sequence opens: on which registry, with which overrides, for how many
/// operations.
struct ModelScopePlan {
    let registry: Int
    let overrides: [(ModelKey, ModelRegistration)]
    let operations: Int
    let resolvesWhileConfiguring: Bool
    let builds: Counter
    let registries: [ServiceRegistry]

    func register(into registrar: OverrideRegistrar) {
        for (key, registration) in overrides {
            registrar.register(key, registration, builds: builds, registries: registries)
        }
    }
}

/// What a resolve in a task found, told without the instance.
enum ModelTaskOutcome: Sendable {
    case returned(String, matches: Bool)
    case threw(ResolutionError.Reason, String)
    case notAProduct
}
