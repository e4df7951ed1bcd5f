import ServiceRegistry
import ServiceRegistryTestComponent
import Synchronization
import Testing
import ThreadTestSupport

// Fixtures are private to this file so they never clash with other test files' types.

private protocol Catalog: Sendable {}
private protocol Ratings: Sendable {}
private protocol Storefront: Sendable {}
private protocol Checkout: Sendable {}
private protocol Payments: Sendable {}
private protocol Receipts: Sendable {}
private protocol Wallet: Sendable {}
private protocol Coupons: Sendable {}
private protocol Inventory: Sendable {}

private final class Thing: Catalog, Ratings, Storefront, Checkout, Payments, Receipts, Wallet, Coupons, Inventory {
    let serial: Int
    init(serial: Int = 0) { self.serial = serial }
}

private struct PaymentGatewayDown: Error, CustomStringConvertible {
    var description: String { "the payment gateway is down" }
}

/// Counts the instances of ``TrackedWallet`` made and still alive.
private final class LiveInstances: Sendable {
    private let made = Atomic<Int>(0)
    private let living = Atomic<Int>(0)
    var created: Int { made.load(ordering: .relaxed) }
    var alive: Int { living.load(ordering: .relaxed) }
    func born() {
        made.wrappingAdd(1, ordering: .relaxed)
        living.wrappingAdd(1, ordering: .relaxed)
    }
    func died() { living.wrappingSubtract(1, ordering: .relaxed) }
}

private final class TrackedWallet: Wallet {
    let live: LiveInstances
    init(live: LiveInstances) {
        self.live = live
        live.born()
    }
    deinit { live.died() }
}

/// A ``TrackedWallet`` that runs a task until it is freed, as a poller or a listener does.
private final class PollingWallet: Wallet {
    let tracked: TrackedWallet
    private let task = Task {
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
    }
    init(live: LiveInstances) { tracked = TrackedWallet(live: live) }
    deinit { task.cancel() }
}

/// Resolves ``Ratings`` from its registry when it is freed, as a service that reports its
/// closing to a log it resolves then.
private final class ClosingCatalog: Catalog {
    let registry: ServiceRegistry
    init(registry: ServiceRegistry) { self.registry = registry }
    deinit { _ = try? registry.resolve(Ratings.self) }
}

/// Resolves ``Coupons``, which nothing registers, when it is freed.
private final class ClosingWallet: Wallet {
    let registry: ServiceRegistry
    init(registry: ServiceRegistry) { self.registry = registry }
    deinit { _ = try? registry.resolve(Coupons.self) }
}

private final class Tally: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    @discardableResult
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// Storefront → Catalog → Ratings, all resolvable.
private func registerGoodWiring(into registry: ServiceRegistry) {
    registry.register(Ratings.self, scope: .singleton) { _ in Thing() }
    registry.register(Catalog.self) { r in
        _ = try r.resolve(Ratings.self)
        return Thing()
    }
    registry.register(Storefront.self, scope: .graph) { r in
        _ = try r.resolve(Catalog.self)
        return Thing()
    }
}

/// Good wiring plus three mistakes: a missing dependency, a cycle, a throwing factory.
private func makeBrokenRegistry() -> ServiceRegistry {
    let registry = ServiceRegistry()
    registerGoodWiring(into: registry)
    // Missing: Inventory is never registered.
    registry.register(Checkout.self) { r in
        _ = try r.resolve(Inventory.self)
        return Thing()
    }
    // Cycle: Wallet → Coupons → Wallet.
    registry.register(Wallet.self, scope: .singleton) { r in
        _ = try r.resolve(Coupons.self)
        return Thing()
    }
    registry.register(Coupons.self) { r in
        _ = try r.resolve(Wallet.self)
        return Thing()
    }
    // Throwing factory.
    registry.register(Payments.self) { _ in throw PaymentGatewayDown() }
    // Takes an argument, so it cannot be built without one.
    registry.register(Receipts.self) { (_, orderID: String) in Thing() }
    return registry
}

@Suite("validate()")
struct ValidationTests {
    @Test func passesForGoodWiring() throws {
        let registry = ServiceRegistry()
        registerGoodWiring(into: registry)
        try registry.validate()
    }

    @Test func passesForAnEmptyRegistry() throws {
        try ServiceRegistry().validate()
    }

    @Test func factoryResolvingItselfThroughTheRegistryFailsValidation() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { [registry] _ in try registry.resolve(ReviewService.self) }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(error.failures.map(\.registration) == ["ReviewService"])
        #expect(error.failures.map(\.error.reason) == [.circularDependency])
    }

    @Test func collectsEveryFailureIntoOneError() throws {
        let registry = makeBrokenRegistry()
        let error = try #require(throws: ValidationError.self) { try registry.validate() }

        let reasons = Dictionary(uniqueKeysWithValues: error.failures.map { ($0.registration, $0.error.reason) })
        #expect(
            reasons == [
                "Checkout": .notRegistered,
                "Coupons": .circularDependency,
                "Payments": .factoryFailed,
                "Wallet": .circularDependency,
            ])
        #expect(error.failures.map(\.registration) == ["Checkout", "Coupons", "Payments", "Wallet"])
        #expect(error.passedCount == 3)
        #expect(error.notChecked == ["Receipts (argument: String)"])

        let paths = Dictionary(uniqueKeysWithValues: error.failures.map { ($0.registration, $0.error.path) })
        #expect(paths["Checkout"] == ["Checkout", "Inventory"])
        #expect(paths["Wallet"] == ["Wallet", "Coupons", "Wallet"])
        #expect(paths["Coupons"] == ["Coupons", "Wallet", "Coupons"])
        #expect(paths["Payments"] == ["Payments"])
        #expect(error.failures.first { $0.registration == "Payments" }?.error.underlyingError is PaymentGatewayDown)
        #expect(error.failures.allSatisfy { $0.origin == "registered directly" })
    }

    @Test func descriptionListsEachFailureWithItsReasonAndPath() throws {
        let error = try #require(throws: ValidationError.self) { try makeBrokenRegistry().validate() }
        let text = error.description
        #expect(text.hasPrefix("ServiceRegistry validation failed: 4 of 7 registrations could not be built."))
        for expected in [
            "✗ Checkout [registered directly] — notRegistered",
            "Resolution path: Checkout → Inventory",
            "✗ Wallet [registered directly] — circularDependency",
            "Resolution path: Wallet → Coupons → Wallet",
            "✗ Coupons [registered directly] — circularDependency",
            "Resolution path: Coupons → Wallet → Coupons",
            "✗ Payments [registered directly] — factoryFailed",
            "its factory threw the payment gateway is down",
            "Not checked (its factory takes an argument, and no sample of that type was given): "
                + "Receipts (argument: String). To check it, pass a sample `String` to validate(sampleArguments:).",
        ] {
            #expect(text.contains(expected), "missing: \(expected)")
        }
        // The registrations that passed are not listed as failures.
        #expect(!text.contains("✗ Storefront"))
        #expect(!text.contains("✗ Catalog"))
    }

    /// Validating a child names the assembly of the registry that holds a failing service:
    /// the parent's, though the child has an assembly of its own.
    @Test func namesTheAssemblyThatRegisteredAFailingService() throws {
        struct CheckoutAssembly: ServiceAssembly {
            func assemble(into registry: ServiceRegistry) {
                registry.register(Checkout.self) { r in
                    _ = try r.resolve(Inventory.self)
                    return Thing()
                }
            }
        }
        struct ChildAssembly: ServiceAssembly {
            func assemble(into registry: ServiceRegistry) {
                registry.register(Wallet.self) { _ in Thing() }
            }
        }
        let registry = ServiceRegistry()
        registry.install(CheckoutAssembly())
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        // Named as the type around it: a type local to a function has no name outside it.
        #expect(error.failures.map(\.origin) == ["ValidationTests.CheckoutAssembly"])
        #expect(error.description.contains("✗ Checkout [ValidationTests.CheckoutAssembly] — notRegistered"))

        let child = registry.makeChild()
        child.install(ChildAssembly())
        let childError = try #require(throws: ValidationError.self) { try child.validate() }
        #expect(childError.failures.map(\.origin) == ["ValidationTests.CheckoutAssembly"])
    }

    @Test func aFailingDependencyFailsEveryServiceThatNeedsIt() throws {
        let registry = ServiceRegistry()
        registry.register(Payments.self) { _ in throw PaymentGatewayDown() }
        registry.register(Checkout.self) { r in
            _ = try r.resolve(Payments.self)
            return Thing()
        }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(error.failures.map(\.registration) == ["Checkout", "Payments"])
        #expect(error.failures.first?.error.path == ["Checkout", "Payments"])
    }

    @Test func listsArgumentTakingRegistrationsAsNotChecked() throws {
        let registry = ServiceRegistry()
        registry.register(Payments.self) { _ in throw PaymentGatewayDown() }
        registry.register(Receipts.self) { (_, orderID: String) in Thing() }
        registry.register(Receipts.self, name: "batch") { (_, page: (String, Int)) in Thing() }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(
            error.notChecked == ["Receipts (argument: String)", "Receipts (name: \"batch\") (argument: (String, Int))"])
        #expect(error.passedCount == 0)
    }

    @Test func neverRunsFactoriesThatTakeAnArgumentWithoutASample() throws {
        let runs = Tally()
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, orderID: String) in
            runs.next()
            return Thing()
        }
        try registry.validate()
        #expect(runs.count == 0)
    }

    /// As Testing.md says: not built on its own, but a factory validation runs may resolve
    /// it with an argument, and then it runs (with whatever side effects it has).
    @Test func runsAFactoryThatTakesAnArgumentWhenAFactoryItRunsResolvesItWithOne() throws {
        let runs = Tally()
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, orderID: String) in
            runs.next()
            return Thing()
        }
        registry.register(Checkout.self) { r in
            _ = try r.resolve(Receipts.self, argument: "order 1")
            return Thing()
        }
        let report = try registry.validate()
        #expect(runs.count == 1)
        #expect(report.built == ["Checkout"])
        #expect(report.notChecked == ["Receipts (argument: String)"])
    }

    @Test func freesTheGraphInstancesItBuilds() throws {
        let live = LiveInstances()
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .graph) { _ in TrackedWallet(live: live) }
        registry.register(Coupons.self) { r in
            _ = try r.resolve(Wallet.self)
            _ = try r.resolve(Wallet.self)
            return Thing()
        }
        try registry.validate()
        #expect(live.created == 2)  // one for Wallet itself, one shared inside Coupons
        #expect(live.alive == 0)
    }

    /// A task the singleton's factory starts (here in the instance's init) inherits
    /// validation's private scope, which caches the instance: unless validation drops it,
    /// the scope, the instance and its task hold each other, and the scope keeps the whole
    /// registry alive with them.
    @Test(arguments: [false, true])
    func freesASingletonItBuiltThatStartedATask(drawingTheGraph: Bool) throws {
        let live = LiveInstances()
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { _ in PollingWallet(live: live) }
        if drawingTheGraph {
            _ = registry.dependencyGraph()
        } else {
            try registry.validate()
        }
        #expect(live.created == 1)
        #expect(live.alive == 0, "validation's singleton outlived validation")
    }

    /// A task that a factory started during validation may resolve after validation has
    /// returned, still inside validation's scope: a singleton it builds there is not
    /// cached in that finished scope, or one holding a task of its own would be kept by it
    /// for good again.
    @Test func freesASingletonThatATaskItStartedResolvesAfterValidation() async throws {
        let live = LiveInstances()
        let validated = Tally()
        let resolvedLater = Tally()
        let started = Guarded<[Task<Void, Never>]>([])
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { _ in PollingWallet(live: live) }
        registry.register(Coupons.self, scope: .singleton) { [weak registry] _ in
            let task = Task {
                while validated.count == 0 { try? await Task.sleep(for: .milliseconds(1)) }
                _ = try? registry?.resolve(Wallet.self)
                resolvedLater.next()
            }
            started.withLock { $0.append(task) }
            return Thing()
        }
        try registry.validate()
        #expect(live.created == 1)  // Wallet's own build
        validated.next()
        // Awaited to its end, by when the instance its resolve built has gone unless
        // something keeps it: no deadline, since the task waits for a pool thread as long
        // as other tests hold them all (the 10 s this once waited could run out first).
        for task in started.withLock({ $0 }) { await task.value }
        #expect(resolvedLater.count == 1)
        #expect(live.created == 2)
        #expect(live.alive == 0, "the singleton built after validation stayed in its scope")
    }

    @Test func leavesTheRegistrysSingletonCachesUntouched() throws {
        let builds = Tally()
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { _ in Thing(serial: builds.next()) }

        try registry.validate()
        #expect(builds.count == 1)  // validation built one, in isolation

        let afterValidation = try #require(try registry.resolve(Wallet.self) as? Thing)
        #expect(builds.count == 2)  // …which was not cached: the first real resolve builds again
        #expect(afterValidation.serial == 2)  // so validation's instance (serial 1) is never handed out
        #expect(try registry.resolve(Wallet.self) as? Thing === afterValidation)
        #expect(builds.count == 2)
    }

    @Test func leavesAnAlreadyBuiltSingletonInPlace() throws {
        let builds = Tally()
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { _ in Thing(serial: builds.next()) }
        let before = try #require(try registry.resolve(Wallet.self) as? Thing)

        try registry.validate()
        // Validation builds its own instance in isolation instead of trusting the cached one.
        #expect(builds.count == 2)
        #expect(try registry.resolve(Wallet.self) as? Thing === before)
        #expect(builds.count == 2)
    }

    /// A singleton validation built is freed inside validation's private scope, so what its
    /// deinit resolves is built there too: not cached in the registry (where a later
    /// resolve would get it), nor reported to the registry's observers.
    @Test(arguments: [false, true])
    func whatTheDeinitOfASingletonItFreesResolvesStaysInIsolation(drawingTheGraph: Bool) throws {
        let builds = Tally()
        let heard = Tally()
        let registry = ServiceRegistry()
        registry.register(Ratings.self, scope: .singleton) { _ in Thing(serial: builds.next()) }
        registry.register(Catalog.self, scope: .singleton) { [unowned registry] _ in
            ClosingCatalog(registry: registry)
        }
        let token = registry.addResolutionObserver { _ in heard.next() }
        defer { registry.removeResolutionObserver(token) }

        if drawingTheGraph {
            _ = registry.dependencyGraph()
        } else {
            try registry.validate()
        }
        #expect(heard.count == 0, "validation reported what a deinit resolved")

        let builtByValidation = builds.count
        let afterValidation = try #require(try registry.resolve(Ratings.self) as? Thing)
        #expect(afterValidation.serial == builtByValidation + 1, "a later resolve got a singleton validation built")
    }

    /// What the deinit of a singleton validation frees resolves is no dependency of what
    /// validation built: a service it misses is not listed as missing in the graph.
    @Test func whatTheDeinitOfASingletonItFreesMissesIsNotInTheGraph() throws {
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { [unowned registry] _ in ClosingWallet(registry: registry) }
        let graph = registry.dependencyGraph()
        #expect(graph.nodes.map(\.serviceType) == ["Wallet"])
        #expect(!graph.textTree.contains("MISSING"), "\(graph.textTree)")
        let report = try registry.validate()
        #expect(report.built == ["Wallet"])
    }

    @Test func buildsEachRegistrationInIsolation() throws {
        let sharedBuilds = Tally()
        let registry = ServiceRegistry()
        registry.register(Ratings.self, scope: .singleton) { _ in
            sharedBuilds.next()
            return Thing()
        }
        registry.register(Catalog.self) { r in
            _ = try r.resolve(Ratings.self)
            return Thing()
        }
        registry.register(Storefront.self) { r in
            _ = try r.resolve(Ratings.self)
            _ = try r.resolve(Catalog.self)
            return Thing()
        }
        try registry.validate()
        // One fresh singleton per registration checked (Catalog, Ratings, Storefront), shared
        // within each check: Storefront's own resolve and its Catalog's get the same one.
        #expect(sharedBuilds.count == 3)
    }

    @Test func passingValidationReportsWhatItBuiltAndWhatItDidNotCheck() throws {
        let registry = ServiceRegistry()
        registry.register(Inventory.self) { _ in Thing() }
        registry.register(Checkout.self) { r in
            _ = try r.resolve(Inventory.self)
            return Thing()
        }
        registry.register(Receipts.self) { (_, id: String) in Thing() }
        let report = try registry.validate()
        #expect(report.built == ["Checkout", "Inventory"])
        #expect(report.notChecked == ["Receipts (argument: String)"])
        #expect(
            report.description.hasSuffix(
                " Not checked (its factory takes an argument, and no sample of that type was given): "
                    + "Receipts (argument: String). To check it, pass a sample `String` to validate(sampleArguments:)."))
        #expect(report.description.hasPrefix("ServiceRegistry validation passed: 2 registrations built."))

        let one = ServiceRegistry()
        one.register(Inventory.self) { _ in Thing() }
        #expect(try one.validate().description == "ServiceRegistry validation passed: 1 registration built.")

        // With nothing built, the report does not say that validation passed.
        let unchecked = ServiceRegistry()
        unchecked.register(Receipts.self) { (_, id: String) in Thing() }
        #expect(
            try unchecked.validate().description
                == "ServiceRegistry validation checked nothing: no registration was built. Not checked (its factory "
                + "takes an argument, and no sample of that type was given): Receipts (argument: String). To check "
                + "it, pass a sample `String` to validate(sampleArguments:).")
        #expect(try ServiceRegistry().validate().description == "ServiceRegistry validation passed: 0 registrations built.")
    }

    @Test func honoursActiveOverrides() throws {
        let registry = ServiceRegistry()
        registry.register(Checkout.self) { r in
            _ = try r.resolve(Inventory.self)
            return Thing()
        }
        #expect(throws: ValidationError.self) { try registry.validate() }
        let report = try registry.withOverrides {
            $0.register(Inventory.self) { _ in Thing() }
        } operation: {
            try registry.validate()
        }
        #expect(report.built.contains("Checkout"))
    }

    @Test func checksTheOverridesThemselves() throws {
        let registry = ServiceRegistry()
        registerGoodWiring(into: registry)
        let error = try #require(
            registry.withOverrides {
                $0.register(Ratings.self) { _ in throw PaymentGatewayDown() }
            } operation: { () -> ValidationError? in
                do throws(ValidationError) {
                    try registry.validate()
                    return nil
                } catch {
                    return error
                }
            })
        #expect(error.failures.map(\.registration) == ["Catalog", "Ratings", "Storefront"])
        #expect(error.failures.first { $0.registration == "Ratings" }?.origin == "override")
        // The broken override was the scope's only: outside it the wiring is fine.
        try registry.validate()
    }

    @Test func factoryResolvingThroughTheRegistryDirectlyStillFails() throws {
        let registry = ServiceRegistry()
        // Resolves through the registry, not through `r`: validation still sees the miss,
        // as the failure of Checkout's factory; the registry's own error, underneath it,
        // has a path that starts at the missing service.
        registry.register(Checkout.self) { [unowned registry] _ in
            _ = try registry.resolve(Inventory.self)
            return Thing()
        }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(error.failures.map(\.registration) == ["Checkout"])
        let failure = try #require(error.failures.first?.error)
        #expect(failure.reason == .factoryFailed)
        #expect(failure.path == ["Checkout"])
        let underlying = try #require(failure.underlyingError as? ResolutionError)
        #expect(underlying.reason == .notRegistered)
        #expect(underlying.path == ["Inventory"])
    }

    @Test func validatesAChildWithItsParentsRegistrations() throws {
        let parent = ServiceRegistry()
        parent.register(Checkout.self) { r in
            _ = try r.resolve(Inventory.self)
            return Thing()
        }
        let child = parent.makeChild()
        child.register(Inventory.self) { _ in Thing() }
        // Through the child the parent's Checkout finds Inventory; the parent alone does not.
        try child.validate()
        let error = try #require(throws: ValidationError.self) { try parent.validate() }
        #expect(error.failures.map(\.registration) == ["Checkout"])
    }

    /// Each failing resolve looks for look-alike registrations of its own service type
    /// only, so a large registry in which one common dependency is missing validates in
    /// time in proportion to its size, not to its size squared (listing and hashing every
    /// registration for each failure took about 6 s here in a debug build). No clock is
    /// read: on shared or sanitized CI machines a time limit fails at random. What is
    /// checked is that each failure still lists the look-alikes of its own type, and
    /// only those.
    @Test func aLargeRegistryWithACommonDependencyMissingListsEveryFailure() throws {
        let registry = ServiceRegistry()
        registry.register(Inventory.self, name: "warehouse") { _ in Thing() }
        for index in 0..<3_000 {
            registry.register(Checkout.self, name: "till \(index)") { r in
                _ = try r.resolve(Inventory.self)  // registered only under a name
                return Thing()
            }
        }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(error.failures.count == 3_000)
        #expect(error.failures.allSatisfy { $0.error.reason == .notRegistered })
        #expect(error.failures.allSatisfy { $0.error.similarRegistrations == [#"Inventory (name: "warehouse")"#] })
        #expect(error.failures.first?.error.path == [#"Checkout (name: "till 0")"#, "Inventory"])
    }

    /// Two components may each register a `Config`: the error and the report list each
    /// under its full name, as the dependency graph shows it, so the two never read the same.
    @Test func typesOfOneShortNameAreListedUnderTheirFullNames() throws {
        let parent = ServiceRegistry()
        parent.register(ServiceRegistryTestComponent.Config.self) { _ in ServiceRegistryTestComponent.Config() }
        let child = parent.makeChild()
        child.register(Config.self) { r in
            _ = try r.resolve(Inventory.self)  // never registered
            return Config()
        }
        child.register(Checkout.self) { _ in Thing() }
        let error = try #require(throws: ValidationError.self) { try child.validate() }
        #expect(error.failures.map(\.registration) == ["ServiceRegistryTests.Config"])
        #expect(error.description.contains("✗ ServiceRegistryTests.Config [registered directly]"))

        child.register(Config.self) { _ in Config() }
        child.register(Config.self, name: "reading") { _ in Config() }
        let report = try child.validate()
        #expect(
            report.built == [
                "Checkout", "ServiceRegistryTestComponent.Config", "ServiceRegistryTests.Config",
                #"ServiceRegistryTests.Config (name: "reading")"#,
            ])

        // An override's type shares its short name as a registered one does.
        let overridden = ServiceRegistry()
        overridden.register(Config.self) { _ in Config() }
        let built = try overridden.withOverrides {
            $0.register(ServiceRegistryTestComponent.Config.self) { _ in ServiceRegistryTestComponent.Config() }
        } operation: {
            try overridden.validate().built
        }
        #expect(built == ["ServiceRegistryTestComponent.Config", "ServiceRegistryTests.Config"])
    }

    /// A type listed under its full name sorts by that name, not by the short one it shares,
    /// so the lists read in the order of what they show.
    @Test func typesListedUnderTheirFullNamesSortByThoseNames() throws {
        let registry = ServiceRegistry()
        registry.register(ServiceRegistryTestComponent.Config.self) { _ in ServiceRegistryTestComponent.Config() }
        registry.register(Config.self) { _ in Config() }
        registry.register(Payments.self) { _ in Thing() }
        let report = try registry.validate()
        #expect(report.built == ["Payments", "ServiceRegistryTestComponent.Config", "ServiceRegistryTests.Config"])
    }

    /// Argument types listed under their full names (two components' `Config`) sort by
    /// those names too, whichever was registered first: by the short name they share, the
    /// two tied, and the lists followed the order of the registration table.
    @Test func argumentTypesListedUnderTheirFullNamesSortByThoseNames() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, _: Config) in BookScreenImpl(bookId: "tests") }
        registry.register(BookScreen.self) { (_, _: ServiceRegistryTestComponent.Config) in
            BookScreenImpl(bookId: "component")
        }
        let listed = [
            "BookScreen (argument: ServiceRegistryTestComponent.Config)",
            "BookScreen (argument: ServiceRegistryTests.Config)",
        ]
        #expect(try registry.validate().notChecked == listed)
        #expect(try registry.validate(sampleArguments: [Config(), ServiceRegistryTestComponent.Config()]).built == listed)
    }

    /// A registered type whose short name only a missing type shares is listed under its
    /// full name too, as the graph shows it: otherwise the error reads `Config` for a
    /// registration whose factory misses `Config`.
    @Test func aTypeSharingItsShortNameWithAMissingOneIsListedUnderItsFullName() throws {
        let registry = ServiceRegistry()
        registry.register(Config.self) { r in
            _ = try r.resolve(ServiceRegistryTestComponent.Config.self)  // never registered
            return Config()
        }
        registry.register(Checkout.self) { _ in Thing() }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        let graph = registry.dependencyGraph()
        let failed = try #require(graph.nodes.first { $0.status == .failed(.notRegistered) })
        #expect(failed.serviceType == "ServiceRegistryTests.Config")
        #expect(error.failures.map(\.registration) == [failed.serviceType])
        // The failure's own path names both as the listing does, not as `Config → Config`.
        #expect(
            error.failures.first?.error.path == ["ServiceRegistryTests.Config", "ServiceRegistryTestComponent.Config"])
    }

    /// Types of one name nested in two namespaces of one module are told apart by the names
    /// code writes for them: no full names needed.
    @Test func nestedTypesOfOneNameAreListedUnderTheNamesCodeWrites() throws {
        let registry = ServiceRegistry()
        registry.register(ValidationCatalogComponent.Config.self) { _ in ValidationCatalogComponent.Config() }
        registry.register(ValidationReviewComponent.Config.self) { r in
            _ = try r.resolve(Inventory.self)  // never registered
            return ValidationReviewComponent.Config()
        }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(error.failures.map(\.registration) == ["ValidationReviewComponent.Config"])
        #expect(error.description.contains("✗ ValidationReviewComponent.Config [registered directly]"))
        let graph = registry.dependencyGraph()
        #expect(
            graph.nodes.map(\.id) == [
                "Inventory (missing)", "ValidationCatalogComponent.Config", "ValidationReviewComponent.Config",
            ])
    }

    @Test func findsMistakesOnlyWhenTheyAreThere() throws {
        // The same wiring before and after the one missing registration is added.
        let registry = makeBrokenRegistry()
        registry.register(Inventory.self) { _ in Thing() }
        registry.register(Payments.self) { _ in Thing() }
        registry.register(Coupons.self) { _ in Thing() }
        try registry.validate()
    }
}

/// A class and a subclass of it, to tell a sample of exactly an argument's type from one
/// that only converts to it.
private class Coin: @unchecked Sendable {
    // @unchecked: immutable.
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class GoldCoin: Coin, @unchecked Sendable {}

/// The serials of the arguments a factory was given, in order.
private final class Arguments: Sendable {
    private let serials = Mutex<[Int]>([])
    var received: [Int] { serials.withLock { $0 } }
    func receive(_ serial: Int) { serials.withLock { $0.append(serial) } }
}

@Suite("validate(sampleArguments:)")
struct SampleArgumentValidationTests {
    /// Receipts takes an order id and needs Inventory, which nothing registers.
    private func makeRegistryMissingADependencyOfAnArgumentTakingService() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (r, orderID: String) in
            _ = try r.resolve(Inventory.self)
            return Thing()
        }
        return registry
    }

    @Test func anArgumentTakingRegistrationIsNotCheckedWithoutASample() throws {
        let report = try makeRegistryMissingADependencyOfAnArgumentTakingService().validate()
        #expect(report.built.isEmpty)
        #expect(report.notChecked == ["Receipts (argument: String)"])
        let withAnotherType = try makeRegistryMissingADependencyOfAnArgumentTakingService().validate(
            sampleArguments: [42])
        #expect(withAnotherType.notChecked == ["Receipts (argument: String)"])
    }

    @Test func anArgumentTakingRegistrationWithAMissingDependencyFailsGivenASample() throws {
        let registry = makeRegistryMissingADependencyOfAnArgumentTakingService()
        let error = try #require(throws: ValidationError.self) {
            try registry.validate(sampleArguments: ["order 1"])
        }
        #expect(error.failures.map(\.registration) == ["Receipts (argument: String)"])
        #expect(error.failures.map(\.error.reason) == [.notRegistered])
        #expect(error.failures.first?.error.path == ["Receipts", "Inventory"])
        #expect(error.notChecked.isEmpty)
        #expect(error.description.contains("✗ Receipts (argument: String) [registered directly] — notRegistered"))
        #expect(!error.description.contains("Not checked"))
    }

    @Test func cyclesAndFailingFactoriesOfArgumentTakingRegistrationsFailToo() throws {
        let registry = ServiceRegistry()
        // Cycle: Receipts(String) → Wallet → Receipts(String).
        registry.register(Receipts.self) { (r, orderID: String) in
            _ = try r.resolve(Wallet.self)
            return Thing()
        }
        registry.register(Wallet.self) { r in
            _ = try r.resolve(Receipts.self, argument: "order 2")
            return Thing()
        }
        registry.register(Payments.self) { (_, amount: Int) in throw PaymentGatewayDown() }
        let error = try #require(throws: ValidationError.self) {
            try registry.validate(sampleArguments: ["order 1", 10])
        }
        let reasons = Dictionary(uniqueKeysWithValues: error.failures.map { ($0.registration, $0.error.reason) })
        #expect(
            reasons == [
                "Payments (argument: Int)": .factoryFailed,
                "Receipts (argument: String)": .circularDependency,
                "Wallet": .circularDependency,
            ])
        #expect(error.failures.first { $0.registration == "Receipts (argument: String)" }?.error.path
            == ["Receipts", "Wallet", "Receipts"])
    }

    @Test func aPassingReportListsWhatItBuiltWithASample() throws {
        let registry = ServiceRegistry()
        registry.register(Inventory.self) { _ in Thing() }
        registry.register(Receipts.self) { (r, orderID: String) in
            _ = try r.resolve(Inventory.self)
            return Thing()
        }
        let report = try registry.validate(sampleArguments: ["order 1"])
        #expect(report.built == ["Inventory", "Receipts (argument: String)"])
        #expect(report.notChecked.isEmpty)
        #expect(report.description == "ServiceRegistry validation passed: 2 registrations built.")
    }

    @Test func aSampleOfExactlyTheArgumentTypeIsPreferredOverOneThatConverts() throws {
        let arguments = Arguments()
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, coin: Coin) in
            arguments.receive(coin.serial)
            return Thing()
        }
        // The subclass comes first and would convert; the exact `Coin` is chosen.
        try registry.validate(sampleArguments: [GoldCoin(serial: 1), Coin(serial: 2), Coin(serial: 3)])
        #expect(arguments.received == [2])
    }

    @Test func theFirstSampleThatConvertsIsUsedWhenNoneHasExactlyTheArgumentType() throws {
        let arguments = Arguments()
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, clock: any Clock) in
            arguments.receive(clock.now)
            return Thing()
        }
        registry.register(Wallet.self) { (_, coin: Coin) in
            arguments.receive(coin.serial)
            return Thing()
        }
        let report = try registry.validate(
            sampleArguments: ["unrelated", FixedClock(now: 1), FixedClock(now: 2), GoldCoin(serial: 3)])
        #expect(report.built == ["Receipts (argument: Clock)", "Wallet (argument: Coin)"])
        #expect(arguments.received == [1, 3])
    }

    /// `as?` makes any value an `AnyObject` by boxing it: a string or a number is no
    /// sample of an `AnyObject` argument, so the object after them is chosen, and with no
    /// object among the samples the registration is not checked.
    @Test func onlyAnObjectIsASampleOfAnAnyObjectArgument() throws {
        let arguments = Arguments()
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, owner: AnyObject) in
            arguments.receive((owner as? Coin)?.serial ?? -1)
            return Thing()
        }
        let report = try registry.validate(sampleArguments: ["order 1", 42, ("order 2", 3), Coin(serial: 5)])
        #expect(report.built == ["Receipts (argument: AnyObject)"])
        #expect(arguments.received == [5])

        let withoutAnObject = try registry.validate(sampleArguments: ["order 1", 42])
        #expect(withoutAnObject.notChecked == ["Receipts (argument: AnyObject)"])
        #expect(arguments.received == [5])
    }

    /// An object a sample wraps in an optional, or in several, is still an object (a `Coin?`
    /// or a `Coin??` for a `Coin` or an `AnyObject` argument), and a value `as?` would box is
    /// no sample of an `AnyObject?` argument either.
    @Test func anObjectInAnOptionalIsASampleOfAnObjectArgument() throws {
        let arguments = Arguments()
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, coin: Coin) in
            arguments.receive(coin.serial)
            return Thing()
        }
        registry.register(Wallet.self) { (_, owner: AnyObject) in
            arguments.receive((owner as? Coin)?.serial ?? -1)
            return Thing()
        }
        registry.register(Payments.self) { (_, owner: AnyObject?) in
            arguments.receive((owner as? Coin)?.serial ?? -1)
            return Thing()
        }
        let wrapped: Coin? = Coin(serial: 4)
        let report = try registry.validate(sampleArguments: ["order 1", wrapped as Any])
        #expect(report.built.count == 3)
        #expect(arguments.received == [4, 4, 4])  // Payments, Receipts, Wallet

        let twiceWrapped: Coin?? = Coin(serial: 6)
        let again = try registry.validate(sampleArguments: ["order 1", twiceWrapped as Any])
        #expect(again.built.count == 3)
        #expect(arguments.received == [4, 4, 4, 6, 6, 6])
    }

    @Test func oneSampleServesEveryRegistrationThatTakesItsType() throws {
        let arguments = Arguments()
        let registry = ServiceRegistry()
        for name in ["first", "second"] {
            registry.register(Receipts.self, name: name) { (_, coin: Coin) in
                arguments.receive(coin.serial)
                return Thing()
            }
        }
        let report = try registry.validate(sampleArguments: [Coin(serial: 7)])
        #expect(report.built.count == 2)
        #expect(arguments.received == [7, 7])
    }

    @Test func severalArgumentsAreOneTupleSample() throws {
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, page: (String, Int)) in Thing() }
        let report = try registry.validate(sampleArguments: [("order 1", 2)])
        #expect(report.built == ["Receipts (argument: (String, Int))"])
    }

    @Test func leavesTheRegistrysSingletonsThatTakeAnArgumentUntouched() throws {
        let builds = Tally()
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { (_, owner: String) in
            Thing(serial: builds.next() * (owner == "real" ? 1 : -1))
        }
        try registry.validate(sampleArguments: ["sample"])
        #expect(builds.count == 1)  // validation built one, in isolation, from the sample

        // The first real resolve builds again, from its own argument: the sample's
        // instance (serial -1) was never cached.
        let wallet = try #require(try registry.resolve(Wallet.self, argument: "real") as? Thing)
        #expect(wallet.serial == 2)
        #expect(try registry.resolve(Wallet.self, argument: "real") as? Thing === wallet)
        #expect(builds.count == 2)
    }

    @Test func theNotCheckedMessageNamesTheArgumentTypesToSupply() throws {
        let registry = ServiceRegistry()
        registry.register(Inventory.self) { _ in Thing() }
        registry.register(Receipts.self) { (_, orderID: String) in Thing() }
        registry.register(Receipts.self, name: "batch") { (_, page: (String, Int)) in Thing() }
        registry.register(Wallet.self) { (_, ownerID: String) in Thing() }
        // A sample no registration takes is ignored.
        let report = try registry.validate(sampleArguments: [42])
        #expect(
            report.notChecked == [
                "Receipts (argument: String)", "Receipts (name: \"batch\") (argument: (String, Int))",
                "Wallet (argument: String)",
            ])
        #expect(
            report.description == """
                ServiceRegistry validation passed: 1 registration built. Not checked (their factories take an \
                argument, and no sample of those types was given): Receipts (argument: String), \
                Receipts (name: "batch") (argument: (String, Int)), Wallet (argument: String). To check them, pass \
                a sample `(String, Int)` and a sample `String` to validate(sampleArguments:).
                """)

        registry.register(Payments.self) { _ in throw PaymentGatewayDown() }
        let error = try #require(throws: ValidationError.self) {
            try registry.validate(sampleArguments: [("order 1", 2)])
        }
        #expect(
            error.description.hasSuffix(
                "\n\nNot checked (their factories take an argument, and no sample of that type was given): "
                    + "Receipts (argument: String), Wallet (argument: String). "
                    + "To check them, pass a sample `String` to validate(sampleArguments:)."))
    }

    /// Two components' `Config` as argument types: the listing and the sample it asks for
    /// name each with its module, since "a sample `Config`" would not say which. An
    /// argument type no other one shares a name with keeps its short name.
    @Test func argumentTypesOfOneShortNameAreListedUnderTheirFullNames() throws {
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, config: Config) in Thing() }
        registry.register(Wallet.self) { (_, config: ServiceRegistryTestComponent.Config) in Thing() }
        registry.register(Inventory.self) { (_, orderID: String) in Thing() }
        let report = try registry.validate()
        #expect(
            report.notChecked == [
                "Inventory (argument: String)", "Receipts (argument: ServiceRegistryTests.Config)",
                "Wallet (argument: ServiceRegistryTestComponent.Config)",
            ])
        #expect(
            report.description.hasSuffix(
                "To check them, pass a sample `ServiceRegistryTestComponent.Config`, a sample "
                    + "`ServiceRegistryTests.Config` and a sample `String` to validate(sampleArguments:)."))
        let graph = registry.dependencyGraph()
        #expect(
            graph.nodes.map(\.argumentType) == [
                "String", "ServiceRegistryTests.Config", "ServiceRegistryTestComponent.Config",
            ])
    }

    /// A factory may validate the wiring or draw the graph (a diagnostics screen does).
    /// The pass it runs meets the service being built as a cycle: built again, its factory
    /// would validate again, and so on until the stack ran out. A `.transient` one is
    /// caught once its resolves are traced, a few levels down.
    @Test(arguments: [Scope.singleton, .weak, .transient])
    func aFactoryThatValidatesMeetsItsOwnServiceAsACycle(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(Catalog.self) { _ in Thing() }
        let trees = Guarded<[String]>([])
        let failures = Guarded<[[String]]>([])
        registry.register(Storefront.self, scope: scope) { [registry] _ in
            let tree = registry.dependencyGraph().textTree
            trees.withLock { $0.append(tree) }
            do throws(ValidationError) {
                try registry.validate()
            } catch {
                failures.withLock { $0.append(error.failures.map { "\($0.registration): \($0.error.reason)" }) }
            }
            return Thing()
        }
        // A small stack, so a pass that recursed without end would crash at once.
        let outcome = Guarded<Bool?>(nil)
        let finished = onThreads(1, stackSize: 512 << 10) { _ in
            outcome.withLock { $0 = (try? registry.resolve(Storefront.self)) != nil }
        }
        #expect(finished)
        #expect(outcome.withLock { $0 } == true)
        // The outermost factory's pass, the last to finish, found its own service in a cycle.
        let outermost = try #require(trees.withLock { $0.last })
        #expect(outermost.contains("Catalog [transient, registered directly]"))
        if scope != .transient {
            #expect(outermost.contains("Storefront [\(scope), registered directly] — FAILED: circularDependency"))
            #expect(failures.withLock { $0.last } == ["Storefront: circularDependency"])
        }
    }

    /// A pass a factory runs continues the path of the build that runs it only to find
    /// cycles: each failure it lists has a path of its own, without that build.
    @Test func failuresOfAPassAFactoryRunsKeepPathsOfTheirOwn() throws {
        let registry = ServiceRegistry()
        registry.register(Catalog.self) { r in
            _ = try r.resolve(Inventory.self)  // never registered
            return Thing()
        }
        let paths = Guarded<[[String]]>([])
        registry.register(Storefront.self, scope: .singleton) { [registry] _ in
            do throws(ValidationError) {
                try registry.validate()
            } catch {
                paths.withLock { $0 = error.failures.filter { $0.registration == "Catalog" }.map(\.error.path) }
            }
            return Thing()
        }
        _ = try registry.resolve(Storefront.self)
        #expect(paths.withLock { $0 } == [["Catalog", "Inventory"]])
    }

    /// One screen registered for each component's own `Config`: a sample of one checks
    /// that registration only, and the report asks for the other by its full name.
    @Test func aSampleOfOneOfTwoSameNamedArgumentTypesChecksOnlyItsRegistration() throws {
        let registry = ServiceRegistry()
        registry.register(Receipts.self) { (_, _: Config) in Thing() }
        registry.register(Receipts.self) { (_, _: ServiceRegistryTestComponent.Config) in Thing() }
        let report = try registry.validate(sampleArguments: [Config()])
        #expect(report.built == ["Receipts (argument: ServiceRegistryTests.Config)"])
        #expect(report.notChecked == ["Receipts (argument: ServiceRegistryTestComponent.Config)"])
        #expect(
            report.description.hasSuffix(
                "pass a sample `ServiceRegistryTestComponent.Config` to validate(sampleArguments:)."))
        #expect(!registry.dependencyGraph().textTree.contains("(argument: Config)"))
    }
}

/// Two components' types of one name, nested in namespaces of this module.
private enum ValidationCatalogComponent { struct Config: Sendable {} }
private enum ValidationReviewComponent { struct Config: Sendable {} }
