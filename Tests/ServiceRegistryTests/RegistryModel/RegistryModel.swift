import ServiceRegistry

/// A registration as the model sees it.
struct ModelRegistration {
    let id: Int
    let scope: Scope
    /// What its factory resolves (through its resolver, or a registry directly), in order,
    /// before it builds.
    let dependencies: [ModelRequest]

    var description: String {
        "scope: .\(scope)"
            + (dependencies.isEmpty ? "" : ", resolving [\(dependencies.map { "(\($0))" }.joined(separator: ", "))]")
    }
}

/// An active `withOverrides` scope: the registry it overrides and its registrations.
struct ModelOverrideScope {
    let id: Int
    let registry: Int
    let table: [ModelKey: ModelRegistration]
}

/// Where a `.singleton` or `.weak` instance is cached: the registration's own cell in its
/// registry (`scope` 0), or an override scope's cell for it.
struct ModelCellKey: Hashable {
    let scope: Int
    let registration: Int
}

/// A `.graph` instance's key in its resolution: the registration, and the registry
/// resolving it.
struct ModelGraphKey: Hashable {
    let registry: Int
    let registration: Int
}

/// A cached shared instance.
struct ModelCell {
    let serial: Int
    /// A `.singleton`'s cell keeps its instance; a `.weak` one's does not.
    let keepsInstance: Bool
}

/// What the model expects a resolve to return: an instance it builds (after resolving its
/// dependencies) or one built earlier.
indirect enum ModelNode: CustomStringConvertible {
    case built(serial: Int, registration: Int, argument: Int?, dependencies: [ModelNode])
    case reused(serial: Int)

    var serial: Int {
        switch self {
        case .built(let serial, _, _, _), .reused(let serial): serial
        }
    }

    var description: String {
        switch self {
        case .built(let serial, let registration, let argument, let dependencies):
            "a new serial \(serial) from #\(registration)" + (argument.map { " built with \($0)" } ?? "")
                + (dependencies.isEmpty ? "" : " [\(dependencies.map(\.description).joined(separator: ", "))]")
        case .reused(let serial): "serial \(serial) again"
        }
    }

    /// Whether `product` is what this node expects, its dependencies included.
    func matches(_ product: ModelProduct) -> Bool {
        switch self {
        case .reused(let serial):
            return product.serial == serial
        case .built(let serial, let registration, let argument, let dependencies):
            return product.serial == serial && product.registration == registration && product.argument == argument
                && product.dependencies.count == dependencies.count
                && zip(dependencies, product.dependencies).allSatisfy { $0.matches($1) }
        }
    }

    /// The instances of `product` (which ``matches(_:)`` this node) that this node expects
    /// to be new.
    func newInstances(in product: ModelProduct) -> [ModelProduct] {
        guard case .built(_, _, _, let dependencies) = self else { return [] }
        return zip(dependencies, product.dependencies).flatMap { $0.newInstances(in: $1) } + [product]
    }
}

/// What the model expects a resolve to do.
enum ModelOutcome: CustomStringConvertible {
    case success(ModelNode)
    case failure(ResolutionError.Reason)
    /// It would meet a registration again through a resolve made through the registry:
    /// when that is caught depends on how many resolves of it are under way (Docs/Design.md,
    /// "Cycles through the registry"), which the model does not follow.
    case unpredictable

    var description: String {
        switch self {
        case .success(let node): "\(node)"
        case .failure(let reason): "failure .\(reason)"
        case .unpredictable: "a cycle through the registry"
        }
    }
}

/// What one top-level resolve keeps while it runs.
struct ModelResolution {
    /// `.graph` instances, by registration and by the registry resolving it.
    var graph: [ModelGraphKey: Int] = [:]
    /// Every instance obtained so far: held by the factories still running, up to the
    /// top-level resolve, until it returns.
    var obtained: Set<Int> = []
}

/// The reference model of one registry tree, its override scopes, and the test's side:
/// the instances it holds.
struct RegistryModel {
    /// Each registry's parent's index (`nil` for the root) and its own registrations.
    var parents: [Int?] = [nil]
    var tables: [[ModelKey: ModelRegistration]] = [[:]]
    /// The active override scopes, outermost first.
    var scopes: [ModelOverrideScope] = []
    /// The scopes the test captured with `OverrideScope.current`, each outermost first:
    /// they keep what those scopes cached after the scopes end.
    var capturedScopes: [[ModelOverrideScope]] = []
    var nextRegistrationID = 1
    var nextScopeID = 1
    /// How many factories have run; the serial number of the last instance built.
    var builds = 0
    /// The cached `.singleton` and `.weak` instances.
    var cells: [ModelCellKey: ModelCell] = [:]
    /// The registrations of the registries that another has replaced.
    var replacedRegistrations: Set<Int> = []
    /// What each instance built resolved as its dependencies: it keeps them.
    var dependencies: [Int: [Int]] = [:]

    /// The registries a resolve from `registry` looks in, that one first.
    func lineage(of registry: Int) -> [Int] {
        Array(sequence(first: registry) { parents[$0] })
    }

    /// The registration answering `key` from `registry`, and the registry that holds it
    /// (or whose override scope does): in each registry from this one up to the root, the
    /// active scopes overriding it (innermost first), then its own table.
    func lookup(_ key: ModelKey, from registry: Int) -> (registration: ModelRegistration, owner: Int)? {
        for candidate in lineage(of: registry) {
            for scope in scopes.reversed() where scope.registry == candidate {
                if let registration = scope.table[key] { return (registration, candidate) }
            }
            if let registration = tables[candidate][key] { return (registration, candidate) }
        }
        return nil
    }

    /// The keys registered anywhere: in a registry or an active scope.
    var registeredKeys: Set<ModelKey> {
        Set(tables.flatMap(\.keys) + scopes.flatMap(\.table.keys))
    }

    mutating func makeRegistration(scope: Scope, dependencies: [ModelRequest]) -> ModelRegistration {
        defer { nextRegistrationID += 1 }
        return ModelRegistration(id: nextRegistrationID, scope: scope, dependencies: dependencies)
    }

    mutating func register(_ key: ModelKey, _ registration: ModelRegistration, in registry: Int) {
        if let replaced = tables[registry][key] {
            // No resolve can reach what a scope cached for it: the active scopes drop it now,
            // the others when they next make or find a cell (``dropReplacedCells(of:)``).
            replacedRegistrations.insert(replaced.id)
            for scope in scopes {
                cells[ModelCellKey(scope: scope.id, registration: replaced.id)] = nil
            }
        }
        tables[registry][key] = registration
    }

    /// Drops what `scope` cached for registrations that were replaced: a scope does so each
    /// time a resolve makes or finds a cell in it.
    private mutating func dropReplacedCells(of scope: Int) {
        cells = cells.filter { $0.key.scope != scope || !replacedRegistrations.contains($0.key.registration) }
    }

    mutating func makeChild(of registry: Int) -> Int {
        parents.append(registry)
        tables.append([:])
        return parents.count - 1
    }

    mutating func beginScope(on registry: Int, table: [ModelKey: ModelRegistration]) -> Int {
        defer { nextScopeID += 1 }
        scopes.append(ModelOverrideScope(id: nextScopeID, registry: registry, table: table))
        return nextScopeID
    }

    /// Ends the innermost scope: what it cached goes with it, unless a captured scope
    /// keeps it.
    mutating func endScope() {
        scopes.removeLast()
        dropUnreachableScopes()
    }

    /// Forgets the captured scope at `index`.
    mutating func dropCapturedScope(at index: Int) {
        capturedScopes.remove(at: index)
        dropUnreachableScopes()
    }

    /// Drops the cells of the scopes neither active nor captured.
    private mutating func dropUnreachableScopes() {
        let kept = Set((scopes + capturedScopes.joined()).map(\.id))
        cells = cells.filter { $0.key.scope == 0 || kept.contains($0.key.scope) }
    }

    /// What a top-level resolve of `request` from `registry` returns, while the test holds
    /// `held`; records the builds it makes and what it caches, also when it fails.
    mutating func resolve(_ request: ModelRequest, from registry: Int, held: [Int]) -> ModelOutcome {
        var resolution = ModelResolution()
        return resolve(request, from: registry, path: [], fullPath: [], held: held, resolution: &resolution)
    }

    /// Resolves `request` from `registry` below `path`, the registrations this resolution
    /// is building; `fullPath` adds those whose factories made the resolves through the
    /// registry it runs in.
    private mutating func resolve(
        _ request: ModelRequest, from registry: Int, path: [Int], fullPath: [Int], held: [Int],
        resolution: inout ModelResolution
    ) -> ModelOutcome {
        guard let argumentType = request.argument.type,
            let (registration, owner) = lookup(
                ModelKey(service: request.service, name: request.name, argument: argumentType), from: registry)
        else {
            // Registered for the type and name with another argument type (or none), in this
            // registry, a parent or an active scope: a mismatch. Otherwise nothing is registered.
            let other = ModelArgumentType.allCases.contains {
                $0 != request.argument.type
                    && lookup(
                        ModelKey(service: request.service, name: request.name, argument: $0), from: registry) != nil
            }
            return .failure(other ? .argumentMismatch : .notRegistered)
        }
        if path.contains(registration.id) { return .failure(.circularDependency) }
        if fullPath.contains(registration.id) { return .unpredictable }
        let argument = request.argument.intValue
        let node: ModelOutcome
        switch registration.scope {
        case .singleton, .weak:
            // Inside a scope, in the innermost scope's cell, whichever registry's
            // registration it is; built in the registry that holds the registration.
            let key = ModelCellKey(scope: scopes.last?.id ?? 0, registration: registration.id)
            if let scope = scopes.last { dropReplacedCells(of: scope.id) }
            if let cell = cells[key],
                cell.keepsInstance || liveSerials(held: held, obtained: resolution.obtained).contains(cell.serial)
            {
                node = .success(.reused(serial: cell.serial))
            } else {
                node = build(
                    registration, argument: argument, in: owner, path: path, fullPath: fullPath, held: held,
                    resolution: &resolution)
                if case .success(let built) = node {
                    cells[key] = ModelCell(serial: built.serial, keepsInstance: registration.scope == .singleton)
                }
            }
        case .graph:
            let key = ModelGraphKey(registry: registry, registration: registration.id)
            if let serial = resolution.graph[key] {
                node = .success(.reused(serial: serial))
            } else {
                node = build(
                    registration, argument: argument, in: registry, path: path, fullPath: fullPath, held: held,
                    resolution: &resolution)
                if case .success(let built) = node { resolution.graph[key] = built.serial }
            }
        default:
            node = build(
                    registration, argument: argument, in: registry, path: path, fullPath: fullPath, held: held,
                    resolution: &resolution)
        }
        if case .success(let obtained) = node { resolution.obtained.insert(obtained.serial) }
        return node
    }

    /// Runs the factory of `registration` in `registry`: its dependencies first, resolved
    /// there (or through the registry a dependency names, in a resolution of its own); the
    /// first that fails fails the build.
    ///
    /// What a resolve through the registry throws is passed on by a `.singleton` or `.weak`
    /// factory (the resolve continues its build's path) and, unless it is a cycle, wrapped
    /// as `.factoryFailed` by a `.transient` or `.graph` one (Docs/Design.md, "Errors").
    private mutating func build(
        _ registration: ModelRegistration, argument: Int?, in registry: Int, path: [Int], fullPath: [Int],
        held: [Int], resolution: inout ModelResolution
    ) -> ModelOutcome {
        var built: [ModelNode] = []
        for dependency in registration.dependencies {
            let outcome: ModelOutcome
            if let direct = dependency.throughRegistry {
                var own = ModelResolution(obtained: resolution.obtained)
                outcome = resolve(
                    dependency, from: direct, path: [], fullPath: fullPath + [registration.id], held: held,
                    resolution: &own)
                resolution.obtained = own.obtained
            } else {
                outcome = resolve(
                    dependency, from: registry, path: path + [registration.id], fullPath: fullPath + [registration.id],
                    held: held, resolution: &resolution)
            }
            switch outcome {
            case .success(let node):
                built.append(node)
            case .failure(let reason):
                let isShared = registration.scope == .singleton || registration.scope == .weak
                let wraps = dependency.throughRegistry != nil && !isShared && reason != .circularDependency
                return .failure(wraps ? .factoryFailed : reason)
            case .unpredictable:
                return .unpredictable
            }
        }
        builds += 1
        dependencies[builds] = built.map(\.serial)
        return .success(.built(serial: builds, registration: registration.id, argument: argument, dependencies: built))
    }

    /// What `validate()` on `registry` does: each key visible from it (in its lineage's
    /// tables and active scopes) that takes no argument resolved in a scope of its own,
    /// with no overrides, stacked on the active ones and dropped after; the outcomes, or
    /// `nil` when one of them is ``ModelOutcome/unpredictable``. Keys that take an argument
    /// are not checked: `notChecked` counts them.
    mutating func validate(
        from registry: Int, held: [Int]
    ) -> (outcomes: [ModelOutcome], notChecked: Int)? {
        var keys: Set<ModelKey> = []
        for candidate in lineage(of: registry) {
            for scope in scopes where scope.registry == candidate { keys.formUnion(scope.table.keys) }
            keys.formUnion(tables[candidate].keys)
        }
        var outcomes: [ModelOutcome] = []
        for key in keys.sorted(by: { $0.description < $1.description }) where key.argument == .noArgument {
            _ = beginScope(on: registry, table: [:])
            let outcome = resolve(
                ModelRequest(service: key.service, name: key.name, argument: .none), from: registry, held: held)
            endScope()
            if case .unpredictable = outcome { return nil }
            outcomes.append(outcome)
        }
        return (outcomes, keys.count - outcomes.count)
    }

    /// The serial numbers of the instances that must still be alive: those the test holds,
    /// those `obtained` by a resolve still running, the singletons cached in the registry
    /// by registrations no other has replaced, those cached in the active scopes, and
    /// whatever those keep as dependencies.
    ///
    /// A scope keeps what it cached for a registration of the registry replaced meanwhile,
    /// which no resolve can reach again, only until the replacement (in the scopes active
    /// where it is made) or until a resolve next makes or finds a cell in the scope.
    func liveSerials(held: [Int], obtained: Set<Int> = []) -> Set<Int> {
        let current = Set(tables.flatMap { $0.values.map(\.id) })
        var roots = held + obtained
        for (key, cell) in cells where cell.keepsInstance && (key.scope != 0 || current.contains(key.registration)) {
            roots.append(cell.serial)
        }
        var live: Set<Int> = []
        while let serial = roots.popLast() {
            if live.insert(serial).inserted { roots += dependencies[serial] ?? [] }
        }
        return live
    }
}
