import SeededRandom
import ServiceRegistry

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
