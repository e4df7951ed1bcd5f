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
/// replays one sequence.
@Suite("Registry against a reference model")
struct RegistryModelTests {
    static let sequences: UInt64 = 300
    static let operationsPerSequence = 40

    @Test func registryAgreesWithTheModelOnRandomSequences() {
        for seed in 1...Self.sequences {
            if let failure = Self.run(seed: seed) {
                Issue.record(Comment(rawValue: failure))
                return
            }
        }
    }

    /// Runs the sequence `seed` generates; the failure report, or `nil` when the registry
    /// and the model agreed throughout.
    static func run(seed: UInt64) -> String? {
        var sequence = ModelSequence(seed: seed)
        for _ in 0..<operationsPerSequence {
            if let mismatch = sequence.step() {
                return "seed \(seed): \(mismatch)\nOperations (replay with RegistryModelTests.run(seed: \(seed))):\n"
                    + sequence.log.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
            }
        }
        return nil
    }
}

// MARK: - What the factories build

/// Built by every factory: says which registration built it, from which argument, and
/// which build it was (a serial number, unique across a sequence).
final class ModelProduct: ModelClassBoundService, ModelValueService {
    let registration: Int
    let argument: Int?
    let serial: Int

    init(registration: Int, argument: Int?, serial: Int) {
        self.registration = registration
        self.argument = argument
        self.serial = serial
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

// MARK: - The real registry, for each service type

extension ServiceRegistry {
    fileprivate func register(_ key: ModelKey, scope: Scope, id: Int, builds: Counter) {
        switch key.service {
        case .product: register(ModelProduct.self, key, scope: scope, id: id, builds: builds) { $0 }
        case .classBound: register((any ModelClassBoundService).self, key, scope: scope, id: id, builds: builds) { $0 }
        case .value: register((any ModelValueService).self, key, scope: scope, id: id, builds: builds) { $0 }
        }
    }

    private func register<Service>(
        _ type: Service.Type, _ key: ModelKey, scope: Scope, id: Int, builds: Counter,
        as service: @escaping @Sendable (ModelProduct) -> Service
    ) {
        switch key.argument {
        case .noArgument:
            register(Service.self, name: key.name, scope: scope) { _ in
                service(ModelProduct(registration: id, argument: nil, serial: builds.increment()))
            }
        case .int:
            register(Service.self, name: key.name, scope: scope) { (_, argument: Int) in
                service(ModelProduct(registration: id, argument: argument, serial: builds.increment()))
            }
        }
    }

    /// The product a resolve returns; `nil` if the instance is not a ``ModelProduct``.
    fileprivate func resolve(
        _ service: ModelServiceType, name: String?, argument: ModelArgument
    ) throws(ResolutionError) -> ModelProduct? {
        switch service {
        case .product: try resolve(ModelProduct.self, name: name, argument: argument)
        case .classBound: try resolve((any ModelClassBoundService).self, name: name, argument: argument)
        case .value: try resolve((any ModelValueService).self, name: name, argument: argument)
        }
    }

    private func resolve<Service>(
        _ type: Service.Type, name: String?, argument: ModelArgument
    ) throws(ResolutionError) -> ModelProduct? {
        let instance: Service
        switch argument {
        case .none: instance = try resolve(Service.self, name: name)
        case .int(let value): instance = try resolve(Service.self, name: name, argument: value)
        case .string(let value): instance = try resolve(Service.self, name: name, argument: value)
        }
        return instance as? ModelProduct
    }

    fileprivate func isRegistered(_ service: ModelServiceType, name: String?, argument: ModelArgument) -> Bool {
        switch service {
        case .product: isRegistered(ModelProduct.self, name: name, argument: argument)
        case .classBound: isRegistered((any ModelClassBoundService).self, name: name, argument: argument)
        case .value: isRegistered((any ModelValueService).self, name: name, argument: argument)
        }
    }

    private func isRegistered<Service>(_ type: Service.Type, name: String?, argument: ModelArgument) -> Bool {
        switch argument {
        case .none: isRegistered(Service.self, name: name)
        case .int: isRegistered(Service.self, name: name, argumentType: Int.self)
        case .string: isRegistered(Service.self, name: name, argumentType: String.self)
        }
    }
}

// MARK: - The model

/// A registration as the model sees it.
struct ModelRegistration {
    let id: Int
    let scope: Scope
}

/// What the model expects a resolve to do.
enum ModelExpectation: CustomStringConvertible {
    case failure(ResolutionError.Reason)
    /// A new build by this registration, from this argument; a singleton caches it.
    case built(registration: Int, argument: Int?, isSingleton: Bool)
    /// The instance with this serial number, built earlier.
    case reused(serial: Int)

    var description: String {
        switch self {
        case .failure(let reason): "failure .\(reason)"
        case .built(let registration, let argument, _):
            "a new instance from #\(registration)" + (argument.map { " built with \($0)" } ?? "")
        case .reused(let serial): "the instance with serial \(serial)"
        }
    }
}

/// The reference model of one registry tree, and the test's side: the instances it holds.
struct RegistryModel {
    /// Each registry's parent's index (`nil` for the root) and its own registrations.
    var parents: [Int?] = [nil]
    var tables: [[ModelKey: ModelRegistration]] = [[:]]
    var nextRegistrationID = 1
    /// How many factories have run; the serial number of the last instance built.
    var builds = 0
    /// Each singleton registration's cached instance: its serial number.
    var singletons: [Int: Int] = [:]

    /// The registries a resolve from `registry` looks in, that one first.
    func lineage(of registry: Int) -> [Int] {
        Array(sequence(first: registry) { parents[$0] })
    }

    func lookup(_ key: ModelKey, from registry: Int) -> ModelRegistration? {
        lineage(of: registry).lazy.compactMap { tables[$0][key] }.first
    }

    mutating func register(_ key: ModelKey, scope: Scope, in registry: Int) -> Int {
        let id = nextRegistrationID
        nextRegistrationID += 1
        tables[registry][key] = ModelRegistration(id: id, scope: scope)
        return id
    }

    mutating func makeChild(of registry: Int) -> Int {
        parents.append(registry)
        tables.append([:])
        return parents.count - 1
    }

    /// What a resolve of `service` and `name` with `argument` from `registry` does, while
    /// the test holds `held`.
    func expectation(
        _ service: ModelServiceType, name: String?, argument: ModelArgument, from registry: Int, held: [ModelProduct]
    ) -> ModelExpectation {
        guard let argumentType = argument.type,
            let registration = lookup(ModelKey(service: service, name: name, argument: argumentType), from: registry)
        else {
            // Registered for the type and name with another argument type (or none), in this
            // registry or a parent: a mismatch. Otherwise nothing is registered.
            let other = ModelArgumentType.allCases.contains {
                $0 != argument.type
                    && lookup(ModelKey(service: service, name: name, argument: $0), from: registry) != nil
            }
            return .failure(other ? .argumentMismatch : .notRegistered)
        }
        let fresh = ModelExpectation.built(
            registration: registration.id, argument: argument.intValue, isSingleton: registration.scope == .singleton)
        switch registration.scope {
        case .singleton:
            return singletons[registration.id].map(ModelExpectation.reused) ?? fresh
        case .weak:
            return held.first { $0.registration == registration.id }.map { .reused(serial: $0.serial) } ?? fresh
        default:
            // `.transient`, and `.graph`: every resolve here is a top-level one.
            return fresh
        }
    }

    /// The serial numbers of the instances that must still be alive: those the test holds,
    /// and the cached singletons of registrations no other has replaced.
    func liveSerials(held: [ModelProduct]) -> Set<Int> {
        var live = Set(held.map(\.serial))
        for table in tables {
            for registration in table.values {
                if let serial = singletons[registration.id] { live.insert(serial) }
            }
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
    let builds = Counter()
    var registries = [ServiceRegistry()]
    var model = RegistryModel()
    /// Instances the test keeps, as a caller holding a `.weak` service would.
    var held: [ModelProduct] = []
    /// Every instance built, to check which are alive.
    var everyInstance: [ModelWeakReference] = []
    var log: [String] = []

    static let maxRegistries = 3
    static let names: [String?] = [nil, "a"]
    static let scopes: [Scope] = [.transient, .singleton, .weak, .graph]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Runs one random operation and checks the registry against the model; a description
    /// of the disagreement, if any.
    mutating func step() -> String? {
        let roll = Int.random(in: 0..<100, using: &random)
        let mismatch: String?
        switch roll {
        case 0..<30: mismatch = register()
        case 30..<70: mismatch = resolve()
        case 70..<80: mismatch = drop()
        case 80..<90: mismatch = isRegistered()
        default: mismatch = registries.count < Self.maxRegistries ? makeChild() : resolve()
        }
        return mismatch ?? checkInvariants()
    }

    // MARK: Operations

    mutating func register() -> String? {
        let registry = randomRegistry()
        let key = ModelKey(
            service: random.pick(ModelServiceType.allCases), name: random.pick(Self.names),
            argument: random.pick(ModelArgumentType.allCases))
        let scope = random.pick(Self.scopes)
        let id = model.register(key, scope: scope, in: registry)
        registries[registry].register(key, scope: scope, id: id, builds: builds)
        log.append("r\(registry).register(\(key), scope: .\(scope)) -> #\(id)")
        return nil
    }

    mutating func resolve() -> String? {
        let registry = randomRegistry()
        let (service, name, argument) = randomRequest()
        let hold = random.chance(50)
        let expected = model.expectation(service, name: name, argument: argument, from: registry, held: held)
        let entry = "r\(registry).resolve(\(service)\(name.map { ", name: \"\($0)\"" } ?? ""), \(argument))"

        let product: ModelProduct?
        do {
            product = try registries[registry].resolve(service, name: name, argument: argument)
        } catch {
            log.append("\(entry) -> .\(error.reason)")
            if case .failure(let reason) = expected, reason == error.reason { return nil }
            return "\(entry) threw .\(error.reason) (\(error)); the model expects \(expected)"
        }
        guard let product else {
            log.append("\(entry) -> not a ModelProduct")
            return "\(entry) returned something other than a ModelProduct"
        }
        log.append(
            "\(entry) -> serial \(product.serial) from #\(product.registration)"
                + (product.argument.map { " built with \($0)" } ?? "") + (hold ? ", held" : ""))

        switch expected {
        case .failure:
            return "\(entry) returned serial \(product.serial) from #\(product.registration); "
                + "the model expects \(expected)"
        case .built(let registration, let argument, let isSingleton):
            let serial = model.builds + 1
            guard product.serial == serial, product.registration == registration, product.argument == argument else {
                return "\(entry) returned serial \(product.serial) from #\(product.registration) "
                    + "(argument \(product.argument.map(String.init) ?? "none")); the model expects \(expected), "
                    + "serial \(serial)"
            }
            model.builds = serial
            if isSingleton { model.singletons[registration] = serial }
            everyInstance.append(ModelWeakReference(product))
        case .reused(let serial):
            guard product.serial == serial else {
                return "\(entry) returned serial \(product.serial) from #\(product.registration); "
                    + "the model expects \(expected)"
            }
        }
        if hold { held.append(product) }
        return nil
    }

    mutating func drop() -> String? {
        guard !held.isEmpty else {
            log.append("drop: nothing held")
            return nil
        }
        if random.chance(30) {
            log.append("drop all held (serials \(held.map(\.serial)))")
            held.removeAll()
        } else {
            let dropped = held.remove(at: Int.random(in: 0..<held.count, using: &random))
            log.append("drop serial \(dropped.serial)")
        }
        return nil
    }

    mutating func isRegistered() -> String? {
        let registry = randomRegistry()
        let (service, name, argument) = randomRequest()
        let expected = argument.type.map {
            model.lookup(ModelKey(service: service, name: name, argument: $0), from: registry) != nil
        } ?? false
        let actual = registries[registry].isRegistered(service, name: name, argument: argument)
        let entry = "r\(registry).isRegistered(\(service)\(name.map { ", name: \"\($0)\"" } ?? ""), \(argument))"
        log.append("\(entry) -> \(actual)")
        return actual == expected ? nil : "\(entry) is \(actual); the model expects \(expected)"
    }

    mutating func makeChild() -> String? {
        let parent = randomRegistry()
        registries.append(registries[parent].makeChild())
        let child = model.makeChild(of: parent)
        log.append("r\(child) = r\(parent).makeChild()")
        return nil
    }

    // MARK: Checks after every operation

    /// Only resolves run factories, and exactly the instances the model expects are alive.
    mutating func checkInvariants() -> String? {
        if builds.value != model.builds {
            return "factories ran \(builds.value) times; the model expects \(model.builds)"
        }
        let live = model.liveSerials(held: held)
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

    /// A service, name and argument to ask for: mostly a key registered somewhere, so that
    /// most resolves find something.
    mutating func randomRequest() -> (ModelServiceType, String?, ModelArgument) {
        // Sorted: a dictionary's order changes from run to run, and the sequence must not.
        let registered = Set(model.tables.flatMap(\.keys)).sorted { $0.description < $1.description }
        let key =
            !registered.isEmpty && random.chance(70)
            ? random.pick(registered)
            : ModelKey(
                service: random.pick(ModelServiceType.allCases), name: random.pick(Self.names),
                argument: random.pick(ModelArgumentType.allCases))
        let argument: ModelArgument
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<75:
            argument = key.argument == .noArgument ? .none : .int(Int.random(in: 0..<100, using: &random))
        case 75..<90:
            argument = key.argument == .noArgument ? .int(Int.random(in: 0..<100, using: &random)) : .none
        default:
            argument = .string("x")
        }
        return (key.service, key.name, argument)
    }
}
