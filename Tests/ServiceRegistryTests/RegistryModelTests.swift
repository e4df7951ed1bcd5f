import ServiceRegistry
import SeededRandom
import Testing

/// Runs seeded random sequences of registrations, resolves, holds and drops against a real
/// registry and a small model of API.md and Docs/Scopes.md, and checks after every
/// operation that the two agree: which registration answers (a registry's own before its
/// parent's; a new one replaces the old), why a resolve fails, which instance it returns,
/// that only a resolve runs a factory, and which instances are still alive.
///
/// A failure prints the seed and the operations so far; `RegistryModelTests.run(seed:)`
/// replays one sequence. `RegistryModelOverrideTests` runs the same model with override
/// scopes and dependencies between services.
@Suite("Registry against a reference model")
struct RegistryModelTests {
    static let sequences: UInt64 = 300
    static let operationsPerSequence = 40

    @Test func registryAgreesWithTheModelOnRandomSequences() async {
        if let failure = await Self.firstFailure(seeds: 1...Self.sequences, options: .plain) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// Runs the sequence `seed` generates; the failure report, or `nil` when the registry
    /// and the model agreed throughout.
    static func run(seed: UInt64, options: ModelOptions = .plain) async -> String? {
        var sequence = ModelSequence(seed: seed, options: options, operations: operationsPerSequence)
        guard let mismatch = await sequence.run() else { return nil }
        return "seed \(seed): \(mismatch)\nOperations (replay with \(options.replay)(seed: \(seed))):\n"
            + sequence.log.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }

    /// The report of the first sequence of `seeds` on which the registry and the model
    /// disagree.
    static func firstFailure(seeds: ClosedRange<UInt64>, options: ModelOptions) async -> String? {
        for seed in seeds {
            if let failure = await run(seed: seed, options: options) { return failure }
        }
        return nil
    }
}

/// What a sequence may do beyond registering, resolving, holding and dropping.
struct ModelOptions {
    /// Open `withOverrides` scopes, possibly nested, around some of the operations,
    /// capture scopes with `OverrideScope.current` to resolve in them later, ask for
    /// optional services, and validate.
    var overrides: Bool
    /// Give registrations factories that resolve other services, through their resolver
    /// or through a registry directly.
    var dependencies: Bool
    /// The call that replays one sequence, for the failure report.
    var replay: String

    static let plain = ModelOptions(overrides: false, dependencies: false, replay: "RegistryModelTests.run")
}

// MARK: - What the factories build

/// Built by every factory: says which registration built it, from which argument, which
/// build it was (a serial number, unique across a sequence), and what it resolved.
final class ModelProduct: ModelClassBoundService, ModelValueService, CustomStringConvertible {
    let registration: Int
    let argument: Int?
    let serial: Int
    /// The services its factory resolved through its resolver, in order.
    let dependencies: [ModelProduct]

    init(registration: Int, argument: Int?, serial: Int, dependencies: [ModelProduct] = []) {
        self.registration = registration
        self.argument = argument
        self.serial = serial
        self.dependencies = dependencies
    }

    var description: String {
        "serial \(serial) from #\(registration)" + (argument.map { " built with \($0)" } ?? "")
            + (dependencies.isEmpty ? "" : " [\(dependencies.map(\.description).joined(separator: ", "))]")
    }

    /// Resolves `dependencies` through `resolver` (or, where `direct` has one, through
    /// that registry), then makes the product of registration `id`, counting the build.
    static func build(
        registration id: Int, argument: Int?, dependencies: [ModelRequest], direct: [ModelRegistryReference?],
        resolver: borrowing Resolver, builds: Counter
    ) throws -> ModelProduct {
        var resolved: [ModelProduct] = []
        for (dependency, direct) in zip(dependencies, direct) {
            let dependencyProduct: ModelProduct?
            if let direct {
                guard let registry = direct.registry else { throw FactoryError(message: "registry gone") }
                dependencyProduct = try registry.resolve(dependency)
            } else {
                dependencyProduct = try resolver.resolve(dependency)
            }
            guard let product = dependencyProduct else {
                throw FactoryError(message: "\(dependency) resolved something other than a ModelProduct")
            }
            resolved.append(product)
        }
        return ModelProduct(registration: id, argument: argument, serial: builds.increment(), dependencies: resolved)
    }
}

/// A service protocol whose existential holds an object.
protocol ModelClassBoundService: AnyObject, Sendable {}

/// A service protocol that a value could conform to (here always an object does).
protocol ModelValueService: Sendable {}

/// The three service types: a class, a class-bound protocol, and a protocol that is not.
enum ModelServiceType: CaseIterable, CustomStringConvertible {
    case product, classBound, value

    var description: String {
        switch self {
        case .product: "ModelProduct"
        case .classBound: "ModelClassBoundService"
        case .value: "ModelValueService"
        }
    }
}

/// The argument a registration's factory takes: none or an `Int`.
enum ModelArgumentType: CaseIterable, CustomStringConvertible {
    case noArgument, int

    var description: String {
        switch self {
        case .noArgument: "none"
        case .int: "Int"
        }
    }
}

/// The argument a resolve passes: none, an `Int`, or a `String` (registered for nothing).
enum ModelArgument: CustomStringConvertible {
    case none
    case int(Int)
    case string(String)

    var type: ModelArgumentType? {
        switch self {
        case .none: .noArgument
        case .int: .int
        case .string: nil
        }
    }

    var intValue: Int? {
        if case .int(let value) = self { value } else { nil }
    }

    var description: String {
        switch self {
        case .none: "no argument"
        case .int(let value): "argument: \(value)"
        case .string(let value): "argument: \"\(value)\""
        }
    }
}

/// One registration key: service type, name and argument type.
struct ModelKey: Hashable, CustomStringConvertible {
    var service: ModelServiceType
    var name: String?
    var argument: ModelArgumentType

    var description: String {
        "\(service)" + (name.map { ", name: \"\($0)\"" } ?? "") + (argument == .int ? ", argument: Int" : "")
    }
}

/// What a resolve asks for: service type, name and the argument it passes.
struct ModelRequest: CustomStringConvertible {
    var service: ModelServiceType
    var name: String?
    var argument: ModelArgument
    /// For a factory's dependency: the registry it resolves through directly, by index,
    /// rather than through its resolver.
    var throughRegistry: Int? = nil
    /// Asks for `Optional<ModelProduct>`, registered for nothing, in place of `ModelProduct`.
    var isOptional = false

    var description: String {
        (throughRegistry.map { "through r\($0): " } ?? "")
            + "\(service)\(isOptional ? "?" : "")\(name.map { ", name: \"\($0)\"" } ?? ""), \(argument)"
    }
}

/// A registry a factory resolves through directly, kept weakly: the factory is kept by
/// that registry (or one of its children), which the sequence keeps anyway.
final class ModelRegistryReference: Sendable {
    weak let registry: ServiceRegistry?

    init(_ registry: ServiceRegistry) {
        self.registry = registry
    }
}

// MARK: - The real registry, for each service type

/// What registers a model registration: the registry, or an override scope's registrar,
/// which offers the same `register` overloads.
protocol ModelRegistrar {
    func register<Service>(
        _ type: Service.Type, name: String?, scope: Scope,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service)
    func register<Service, Argument>(
        _ type: Service.Type, name: String?, scope: Scope,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service)
}

extension ServiceRegistry: ModelRegistrar {}
extension OverrideRegistrar: ModelRegistrar {}

extension ModelRegistrar {
    /// Registers `registration` for `key`; `registries` are the sequence's, for the
    /// dependencies resolved through one directly.
    func register(_ key: ModelKey, _ registration: ModelRegistration, builds: Counter, registries: [ServiceRegistry]) {
        let direct = registration.dependencies.map { $0.throughRegistry.map { ModelRegistryReference(registries[$0]) } }
        switch key.service {
        case .product: register(ModelProduct.self, key, registration, direct, builds: builds) { $0 }
        case .classBound: register((any ModelClassBoundService).self, key, registration, direct, builds: builds) { $0 }
        case .value: register((any ModelValueService).self, key, registration, direct, builds: builds) { $0 }
        }
    }

    private func register<Service>(
        _ type: Service.Type, _ key: ModelKey, _ registration: ModelRegistration, _ direct: [ModelRegistryReference?],
        builds: Counter, as service: @escaping @Sendable (ModelProduct) -> Service
    ) {
        let id = registration.id
        let dependencies = registration.dependencies
        switch key.argument {
        case .noArgument:
            register(Service.self, name: key.name, scope: registration.scope) { r in
                service(
                    try ModelProduct.build(
                        registration: id, argument: nil, dependencies: dependencies, direct: direct, resolver: r,
                        builds: builds))
            }
        case .int:
            register(Service.self, name: key.name, scope: registration.scope) { (r, argument: Int) in
                service(
                    try ModelProduct.build(
                        registration: id, argument: argument, dependencies: dependencies, direct: direct, resolver: r,
                        builds: builds))
            }
        }
    }
}

extension ServiceRegistry {
    /// The product a resolve returns; `nil` if the instance is not a ``ModelProduct``.
    func resolve(_ request: ModelRequest) throws(ResolutionError) -> ModelProduct? {
        switch request.service {
        case .product where request.isOptional: try resolve(ModelProduct?.self, request)
        case .product: try resolve(ModelProduct.self, request)
        case .classBound: try resolve((any ModelClassBoundService).self, request)
        case .value: try resolve((any ModelValueService).self, request)
        }
    }

    private func resolve<Service>(
        _ type: Service.Type, _ request: ModelRequest
    ) throws(ResolutionError) -> ModelProduct? {
        let instance: Service
        switch request.argument {
        case .none: instance = try resolve(Service.self, name: request.name)
        case .int(let value): instance = try resolve(Service.self, name: request.name, argument: value)
        case .string(let value): instance = try resolve(Service.self, name: request.name, argument: value)
        }
        return instance as? ModelProduct
    }

    func isRegistered(_ request: ModelRequest) -> Bool {
        switch request.service {
        case .product where request.isOptional: isRegistered(ModelProduct?.self, request)
        case .product: isRegistered(ModelProduct.self, request)
        case .classBound: isRegistered((any ModelClassBoundService).self, request)
        case .value: isRegistered((any ModelValueService).self, request)
        }
    }

    private func isRegistered<Service>(_ type: Service.Type, _ request: ModelRequest) -> Bool {
        switch request.argument {
        case .none: isRegistered(Service.self, name: request.name)
        case .int: isRegistered(Service.self, name: request.name, argumentType: Int.self)
        case .string: isRegistered(Service.self, name: request.name, argumentType: String.self)
        }
    }
}

extension Resolver {
    /// The product a resolve through the resolver returns, as a factory's dependency.
    func resolve(_ request: ModelRequest) throws(ResolutionError) -> ModelProduct? {
        switch request.service {
        case .product where request.isOptional: try resolve(ModelProduct?.self, request)
        case .product: try resolve(ModelProduct.self, request)
        case .classBound: try resolve((any ModelClassBoundService).self, request)
        case .value: try resolve((any ModelValueService).self, request)
        }
    }

    private func resolve<Service>(
        _ type: Service.Type, _ request: ModelRequest
    ) throws(ResolutionError) -> ModelProduct? {
        let instance: Service
        switch request.argument {
        case .none: instance = try resolve(Service.self, name: request.name)
        case .int(let value): instance = try resolve(Service.self, name: request.name, argument: value)
        case .string(let value): instance = try resolve(Service.self, name: request.name, argument: value)
        }
        return instance as? ModelProduct
    }
}

// MARK: - The model

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
        tables[registry][key] = registration
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
    /// A scope keeps what it cached until it ends, also for a registration of the registry
    /// replaced meanwhile, which no resolve can reach again: API.md says a replaced
    /// registration drops its instance, but not whether that covers a scope's.
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

// MARK: - One sequence

/// Holds an instance weakly, to see when it goes.
final class ModelWeakReference {
    weak var product: ModelProduct?
    let serial: Int

    init(_ product: ModelProduct) {
        self.product = product
        self.serial = product.serial
    }
}

/// One seeded sequence: the real registries, the model, the test's held instances, and
/// the log of what it did.
struct ModelSequence {
    var random: SeededGenerator
    let options: ModelOptions
    /// How many more operations to run, those inside scopes included.
    var remaining: Int
    /// How many scopes the current operation runs in.
    var depth = 0
    let builds = Counter()
    var registries = [ServiceRegistry()]
    var model = RegistryModel()
    /// Instances the test keeps, as a caller holding a `.weak` service would.
    var held: [ModelProduct] = []
    /// Every instance built, to check which are alive.
    var everyInstance: [ModelWeakReference] = []
    /// The override scopes the test captured, as ``RegistryModel/capturedScopes``.
    var capturedScopes: [OverrideScope] = []
    var log: [String] = []

    static let maxRegistries = 3
    static let names: [String?] = [nil, "a"]
    static let scopes: [Scope] = [.transient, .singleton, .weak, .graph]

    init(seed: UInt64, options: ModelOptions, operations: Int) {
        random = SeededGenerator(seed: seed)
        self.options = options
        remaining = operations
    }

    /// Runs operations until none remain; the first disagreement, if any. With
    /// ``ModelOptions/overrides``, some at the top level are scopes of the async
    /// `withOverrides`.
    mutating func run() async -> String? {
        while remaining > 0 {
            let mismatch: String?
            if options.overrides, random.chance(3) {
                remaining -= 1
                mismatch = await withOverridesAsync() ?? checkInvariants()
            } else {
                mismatch = step()
            }
            if let mismatch { return mismatch }
        }
        return nil
    }

    /// Runs one random operation and checks the registry against the model; a description
    /// of the disagreement, if any.
    mutating func step() -> String? {
        remaining -= 1
        let roll = Int.random(in: 0..<100, using: &random)
        let mismatch: String?
        switch roll {
        case 0..<30: mismatch = register()
        case 30..<65: mismatch = resolve()
        case 65..<70: mismatch = options.overrides ? capturedScopeOperation() : resolve()
        case 70..<80: mismatch = drop()
        case 88..<90 where options.overrides: mismatch = validate()
        case 80..<90: mismatch = isRegistered()
        case 90..<(depth == 0 ? 95 : 97) where options.overrides:
            mismatch = depth < Self.maxScopeDepth ? withOverrides() : resolve()
        default: mismatch = registries.count < Self.maxRegistries ? makeChild() : resolve()
        }
        return mismatch ?? checkInvariants()
    }

    mutating func record(_ entry: String) {
        log.append(String(repeating: "  ", count: depth) + entry)
    }

    // MARK: Operations

    mutating func register() -> String? {
        let registry = randomRegistry()
        let (key, registration) = randomRegistration()
        model.register(key, registration, in: registry)
        registries[registry].register(key, registration, builds: builds, registries: registries)
        record("r\(registry).register(\(key), \(registration.description)) -> #\(registration.id)")
        return nil
    }

    mutating func resolve() -> String? {
        let registry = randomRegistry()
        // With dependencies, many registrations fail to build: ask for registered keys more.
        var request = options.dependencies ? randomRequest(registered: 85, rightArgument: 85) : randomRequest()
        askForAnOptionalSometimes(&request)
        let hold = random.chance(50)
        let entry = "r\(registry).resolve(\(request))"
        var trial = model
        let expected = trial.resolve(request, from: registry, held: held.map(\.serial))
        if case .unpredictable = expected {
            record("\(entry): not run, it would meet a registration again through the registry")
            return nil
        }
        model = trial

        let product: ModelProduct?
        do {
            product = try registries[registry].resolve(request)
        } catch {
            record("\(entry) -> .\(error.reason)")
            if case .failure(let reason) = expected, reason == error.reason { return nil }
            return "\(entry) threw .\(error.reason) (\(error)); the model expects \(expected)"
        }
        guard let product else {
            record("\(entry) -> not a ModelProduct")
            return "\(entry) returned something other than a ModelProduct"
        }
        record("\(entry) -> \(product)" + (hold ? ", held" : ""))

        switch expected {
        case .failure, .unpredictable:
            return "\(entry) returned \(product); the model expects \(expected)"
        case .success(let node):
            guard node.matches(product) else {
                return "\(entry) returned \(product); the model expects \(node)"
            }
            everyInstance += node.newInstances(in: product).map(ModelWeakReference.init)
        }
        if hold { held.append(product) }
        return nil
    }

    mutating func drop() -> String? {
        guard !held.isEmpty else {
            record("drop: nothing held")
            return nil
        }
        if random.chance(30) {
            record("drop all held (serials \(held.map(\.serial)))")
            held.removeAll()
        } else {
            let dropped = held.remove(at: Int.random(in: 0..<held.count, using: &random))
            record("drop serial \(dropped.serial)")
        }
        return nil
    }

    mutating func isRegistered() -> String? {
        let registry = randomRegistry()
        var request = randomRequest()
        askForAnOptionalSometimes(&request)
        let expected = request.argument.type.map {
            model.lookup(ModelKey(service: request.service, name: request.name, argument: $0), from: registry) != nil
        } ?? false
        let actual = registries[registry].isRegistered(request)
        let entry = "r\(registry).isRegistered(\(request))"
        record("\(entry) -> \(actual)")
        return actual == expected ? nil : "\(entry) is \(actual); the model expects \(expected)"
    }

    /// Validates a registry and compares the failures' reasons, the counts of registrations
    /// built and not checked, and, through ``checkInvariants()``, what it leaves alive.
    mutating func validate() -> String? {
        let registry = randomRegistry()
        let entry = "r\(registry).validate()"
        var trial = model
        guard let (outcomes, notChecked) = trial.validate(from: registry, held: held.map(\.serial)) else {
            record("\(entry): not run, it would meet a registration again through the registry")
            return nil
        }
        model = trial
        let expected = ValidationSummary(
            failures: outcomes.compactMap { if case .failure(let reason) = $0 { ".\(reason)" } else { nil } }.sorted(),
            passed: outcomes.filter { if case .success = $0 { true } else { false } }.count, notChecked: notChecked)
        let actual: ValidationSummary
        do {
            let report = try registries[registry].validate()
            actual = ValidationSummary(failures: [], passed: report.built.count, notChecked: report.notChecked.count)
        } catch {
            actual = ValidationSummary(
                failures: error.failures.map { ".\($0.error.reason)" }.sorted(), passed: error.passedCount,
                notChecked: error.notChecked.count)
        }
        record("\(entry) -> \(actual)")
        return actual == expected ? nil : "\(entry) gave \(actual); the model expects \(expected)"
    }

    /// What a validation found: the failures' reasons, how many registrations it built and
    /// how many it did not check.
    struct ValidationSummary: Equatable, CustomStringConvertible {
        let failures: [String]
        let passed: Int
        let notChecked: Int

        var description: String {
            "\(passed) built, \(notChecked) not checked, failures \(failures)"
        }
    }

    mutating func makeChild() -> String? {
        let parent = randomRegistry()
        registries.append(registries[parent].makeChild())
        let child = model.makeChild(of: parent)
        record("r\(child) = r\(parent).makeChild()")
        return nil
    }

    // MARK: Checks after every operation

    /// Only resolves run factories, and exactly the instances the model expects are alive.
    mutating func checkInvariants() -> String? {
        if builds.value != model.builds {
            return "factories ran \(builds.value) times; the model expects \(model.builds)"
        }
        let live = model.liveSerials(held: held.map(\.serial))
        for reference in everyInstance {
            let isAlive = reference.product != nil
            if isAlive != live.contains(reference.serial) {
                return "the instance with serial \(reference.serial) is \(isAlive ? "alive" : "gone"); the model "
                    + "expects it \(isAlive ? "gone: nothing should hold it" : "alive")"
            }
        }
        everyInstance.removeAll { $0.product == nil }
        return nil
    }

    // MARK: Random choices

    mutating func randomRegistry() -> Int {
        Int.random(in: 0..<registries.count, using: &random)
    }

    mutating func randomKey() -> ModelKey {
        ModelKey(
            service: random.pick(ModelServiceType.allCases), name: random.pick(Self.names),
            argument: random.pick(ModelArgumentType.allCases))
    }

    /// A key, a scope and, with ``ModelOptions/dependencies``, up to two services its
    /// factory resolves.
    mutating func randomRegistration() -> (ModelKey, ModelRegistration) {
        let key = randomKey()
        let scope = random.pick(Self.scopes)
        var dependencies: [ModelRequest] = []
        if options.dependencies {
            let count = random.pick([0, 0, 0, 1, 1, 1, 2, 2])
            // Mostly right, so that chains of dependencies build; some through a registry.
            for _ in 0..<count {
                var dependency = randomRequest(registered: 85, rightArgument: 90, wrongArgument: 95)
                askForAnOptionalSometimes(&dependency)
                if random.chance(25) { dependency.throughRegistry = randomRegistry() }
                dependencies.append(dependency)
            }
        }
        return (key, model.makeRegistration(scope: scope, dependencies: dependencies))
    }

    /// With ``ModelOptions/overrides``, turns some requests for `ModelProduct` into requests
    /// for `ModelProduct?`, which nothing registers: they resolve `ModelProduct` (Swift
    /// infers the optional for `if let p: P = try? resolve()`), overrides included.
    mutating func askForAnOptionalSometimes(_ request: inout ModelRequest) {
        if options.overrides, request.service == .product, random.chance(15) { request.isOptional = true }
    }

    /// A service, name and argument to ask for: a key registered somewhere in `registered`
    /// out of 100 requests, so that most resolves find something; the argument its key
    /// takes up to `rightArgument`, the other up to `wrongArgument`, else a `String`.
    mutating func randomRequest(registered chance: Int = 70, rightArgument: Int = 75, wrongArgument: Int = 90)
        -> ModelRequest
    {
        // Sorted: a dictionary's order changes from run to run, and the sequence must not.
        let registered = model.registeredKeys.sorted { $0.description < $1.description }
        let key = !registered.isEmpty && random.chance(chance) ? random.pick(registered) : randomKey()
        let argument: ModelArgument
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<rightArgument:
            argument = key.argument == .noArgument ? .none : .int(Int.random(in: 0..<100, using: &random))
        case rightArgument..<wrongArgument:
            argument = key.argument == .noArgument ? .int(Int.random(in: 0..<100, using: &random)) : .none
        default:
            argument = .string("x")
        }
        return ModelRequest(service: key.service, name: key.name, argument: argument)
    }
}
