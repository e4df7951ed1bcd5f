import ServiceRegistry
import ServiceRouter
import Testing

@testable import registry_benchmark

/// Each subject, as the resolve cases build it.
private func makeSource(_ subject: String) -> any ServiceSource {
    switch subject {
    case SubjectName.directOwned: return DirectOwnedSource()
    case SubjectName.registry: return RegistrySource(registry: RegistrySubject.makeRegistry())
    case SubjectName.urlBlock:
        return URLBlockSource(router: URLBlockRouter(launching: URLBlockComponents.serviceComponents))
    case SubjectName.mediator: return MediatorSource(mediator: .shared)
    case SubjectName.naiveDictionary: return NaiveSource(container: NaiveSubject.makeContainer())
    case SubjectName.frozenTable: return FrozenTableSource(table: FrozenTableSubject.makeTable())
    default: return DirectSource()
    }
}

/// The serial each subject's shared instance carries, proving which subject built it.
private let sharedSerials = [
    SubjectName.direct: 0, SubjectName.directOwned: 0, SubjectName.registry: RegistrySubject.sharedSerial, SubjectName.urlBlock: 3,
    SubjectName.mediator: 4, SubjectName.naiveDictionary: NaiveSubject.sharedSerial,
    SubjectName.frozenTable: FrozenTableSubject.sharedSerial,
]

@Suite("Every subject builds what it claims")
struct SubjectTests {
    @Test(arguments: SubjectName.all)
    func sharedServiceIsOneInstanceOfThatSubject(subject: String) throws {
        let source = makeSource(subject)
        let first = try source.sharedService()
        let second = try source.sharedService()
        #expect(first === second)
        #expect(first.serial == sharedSerials[subject])
    }

    @Test(arguments: SubjectName.all)
    func eachThreadServiceIsOneInstanceOfThatSubjectAndNotTheOther(subject: String) throws {
        let source = makeSource(subject)
        let first = try #require(try source.threadService(0) as? ThreadSharedServiceImpl)
        let second = try #require(try source.threadService(1) as? ThreadSharedServiceImpl)
        #expect(try source.threadService(0) === first)
        #expect(try source.threadService(1) === second)
        #expect(first !== second)
        #expect([first.thread, second.thread] == [0, 1])
        #expect([first.serial, second.serial] == [sharedSerials[subject], sharedSerials[subject]])
        #expect(try source.sharedService() !== first)
    }

    /// Performance.md promises each thread's service 160 bytes, so that two never share a
    /// cache line.
    @Test func aThreadServiceTakesMoreThanTwoCacheLines() throws {
        try #require(AllocationCounter.isAvailable)
        let (service, tally) = AllocationCounter.count { ThreadSharedServiceImpl(serial: 9, thread: 0) }
        #expect(service.serial == 9)
        #expect(try #require(tally).bytes == 160)
    }

    @Test(arguments: SubjectName.all)
    func transientAndNamedServicesAreFreshInstancesOfTheRightRegistration(subject: String) throws {
        let source = makeSource(subject)
        let first = try source.trivialService()
        let second = try source.trivialService()
        #expect(first !== second)
        #expect(first.value == TrivialServiceImpl.primaryValue)
        #expect(try source.secondaryTrivialService().value == TrivialServiceImpl.secondaryValue)
    }

    @Test(arguments: SubjectName.all)
    func chainOfThreeIsBuiltWholeEachTime(subject: String) throws {
        let source = makeSource(subject)
        let first = try source.chainHead()
        let second = try source.chainHead()
        #expect(first.middle is ChainMiddleImpl)
        #expect(first.middle.tail is ChainTailImpl)
        #expect(first !== second)
        #expect(first.middle !== second.middle)
        #expect(first.middle.tail !== second.middle.tail)
    }

    @Test(arguments: SubjectName.all)
    func argumentReachesTheService(subject: String) throws {
        let source = makeSource(subject)
        #expect(try source.bookScreen(bookID: "42").bookID == "42")
        #expect(try source.bookScreen(bookID: "7").bookID == "7")
    }

    @Test(arguments: SubjectName.all)
    func graphSharesOneContextPerBuildAndNoneAcrossBuilds(subject: String) throws {
        let source = makeSource(subject)
        let first = try source.graphRoot()
        let second = try source.graphRoot()
        #expect(first.left.context === first.right.context)
        #expect(first.left.context !== second.left.context)
    }
}

@Suite("Every case resolves from the subject it names")
struct CatalogWiringTests {
    /// The tests above check each subject's source; this checks that the catalog hands each
    /// case the source of the subject its row names (a case wired to another subject's
    /// source would measure that subject under this one's name): the source's type, and
    /// the shared instance it resolves, which carries its subject's serial.
    @Test func everyCaseResolvesFromTheSourceOfItsSubject() throws {
        let resolving = [
            CaseName.singleton, CaseName.transient, CaseName.chain3, CaseName.named, CaseName.argument, CaseName.graph,
            CaseName.lookup10, CaseName.lookup10000, CaseName.threads1, CaseName.threads2, CaseName.threads1Own,
            CaseName.threads2Own,
        ]
        // The type of the source each subject's tests above use.
        let sourceTypes = Dictionary(uniqueKeysWithValues: SubjectName.all.map { ($0, type(of: makeSource($0))) })
        let benchmarks = BenchmarkCatalog.benchmarks(for: .smoke)
        for caseName in resolving {
            #expect(benchmarks.contains { $0.caseName == caseName }, "no \(caseName) case")
        }
        for benchmark in benchmarks {
            let row = "\(benchmark.caseName)/\(benchmark.subject)"
            guard resolving.contains(benchmark.caseName) else {
                #expect(benchmark.source == nil, "\(row) names a source no test checks")
                continue
            }
            let source = try #require(try benchmark.source?(), "\(row) does not say where it resolves from")
            let expected = try #require(sourceTypes[benchmark.subject], "\(row): an unknown subject")
            #expect(ObjectIdentifier(type(of: source)) == ObjectIdentifier(expected), "\(row) resolves from \(type(of: source))")
            #expect(try source.sharedService().serial == sharedSerials[benchmark.subject], "\(row)")
        }
    }
}

@Suite("direct-owned floor")
struct DirectOwnedTests {
    @Test func sharedInstancesAreMadeAtRunTimeAndFreedLikeARegistrysSingleton() {
        weak var shared: (any SharedService)?
        weak var threadService: (any SharedService)?
        do {
            let source = DirectOwnedSource()
            shared = source.sharedService()
            threadService = source.threadService(1)
            #expect(shared != nil && shared !== SharedServiceImpl.shared)
            #expect(threadService != nil && threadService !== ThreadSharedServiceImpl.directSecond)
        }
        #expect(shared == nil, "a real reference count, not the compiler's immortal static instance")
        #expect(threadService == nil)
    }
}

@Suite("url-block baseline")
struct URLBlockTests {
    @Test func launchInitialisesEveryComponentAndRegistersAClosurePerURL() {
        let router = URLBlockRouter(launching: URLBlockComponents.serviceComponents)
        #expect(router.components.count == 6)
        #expect(router.urlCount == 12)
        let shared = router.components.compactMap { $0 as? URLBlockComponents.SharedComponent }
        #expect(shared.count == 1, "the shared service's component exists before any call")
    }

    @Test func callingAURLRunsItsClosureWithTheParametersAndTheURL() {
        let router = URLBlockRouter(launching: [
            { registrar in
                registrar.register("app://echo") { parameters, _ in parameters }
                return URLBlockComponents.TrivialComponent(registrar: &registrar)
            }
        ])
        let echoed = router.object(forURL: "app://echo", userInfo: ["bookId": "42"]) as? [String: Any]
        #expect(echoed?["bookId"] as? String == "42")
        #expect(echoed?[URLBlockRouter.urlParameterKey] as? String == "app://echo")
        #expect(router.object(forURL: "app://missing") == nil)
        #expect(router.object(forURL: URLBlockComponents.URL.trivial) is TrivialServiceImpl)
    }

    @Test func fillerLaunchBuildsEveryComponent() {
        let before = URLBlockComponents.fillerComponentsInitialised
        let router = URLBlockRouter(launching: URLBlockComponents.fillerComponents(count: 100))
        #expect(URLBlockComponents.fillerComponentsInitialised - before >= 100)
        #expect(router.urlCount == 100)
        #expect(router.object(forURL: URLBlockComponents.URL.filler(99)) as? Int == 99)
    }
}

/// A mediator target the benchmark module cannot name: only a lookup of its type name at
/// run time can reach it.
final class TargetProbe: MediatorTarget {
    init() {}

    func perform(action: String, params: [String: Any]) -> Any? {
        action == "echo" ? params["value"] : nil
    }
}

@Suite("mediator baseline")
struct MediatorTests {
    @Test func findsTargetsByTypeNameAtRunTime() {
        let mediator = Mediator.shared
        let type = _typeByName(mediator.targetTypePrefix + MediatorNames.shared)
        #expect(type == TargetShared.self)
        #expect(_typeByName(mediator.targetTypePrefix + MediatorNames.graph) == TargetGraph.self)
    }

    /// The checks above hold of the runtime whatever the mediator does; this one fails for
    /// a mediator that reaches its targets any other way (a table, a `switch` on the name).
    @Test func performReachesATargetItCannotNameThroughItsTypeName() {
        let probePrefix = String(String(reflecting: TargetProbe.self).dropLast("Probe".count))
        let mediator = Mediator(targetTypePrefix: probePrefix)
        #expect(mediator.perform(target: "Probe", action: "echo", params: ["value": 7]) as? Int == 7)
        #expect(
            mediator.perform(target: MediatorNames.shared, action: MediatorNames.service) == nil,
            "the benchmark's own targets are under another prefix")
    }

    @Test func unknownTargetsAndActionsFailOnlyWhenCalled() {
        let mediator = Mediator.shared
        #expect(mediator.perform(target: "Missing", action: MediatorNames.service) == nil)
        #expect(mediator.perform(target: MediatorNames.trivial, action: "missing") == nil)
        #expect(mediator.perform(target: MediatorNames.book, action: MediatorNames.screen) == nil)
    }
}

@Suite("naive-dictionary baseline")
struct NaiveContainerTests {
    @Test func unregisteredTypesAndWrongArgumentsThrow() {
        let container = NaiveContainer()
        #expect(throws: NaiveContainer.Failure.self) { try container.resolve((any TrivialService).self) }
        container.register(BookScreen.self) { (bookID: String) in BookScreenImpl(bookID: bookID) }
        #expect(throws: NaiveContainer.Failure.self) { try container.resolve((any BookScreen).self, argument: 42) }
    }

    @Test func singletonIsBuiltOnceOnFirstResolve() throws {
        let container = NaiveContainer()
        container.registerSingleton(SharedService.self) { SharedServiceImpl(serial: 9) }
        let first = try container.resolve((any SharedService).self)
        #expect(first === (try container.resolve((any SharedService).self)))
        #expect(first.serial == 9)
    }
}

@Suite("registry subject and the sizes it is measured at")
struct RegistrySubjectTests {
    @Test func lookupRegistryHoldsTheSingletonAmongTenThousandOwnTypes() throws {
        let registry = RegistrySubject.makeLookupRegistry(fillers: 9_999)
        let service = try registry.resolve(SharedService.self)
        #expect(service.serial == RegistrySubject.sharedSerial)
        #expect(isRegistered(GeneratedKeys.types[9_998], in: registry))
        #expect(!isRegistered(GeneratedKeys.types[9_999], in: registry))
    }

    @Test func generatedKeyTypesAreAllDistinct() {
        let identities = Set(GeneratedKeys.types.map { ObjectIdentifier($0) })
        #expect(identities.count == GeneratedKeys.capacity)
        #expect(GeneratedKeys.capacity >= 10_000)
    }

    /// Counted in a tally of this test's own: other tests build key instances meanwhile, on
    /// other threads, which the process-wide count would see (it failed so under the thread
    /// sanitizer, beside the frozen table's tests).
    @Test func launchingTheRegistryBuildsNothingButEveryComponentResolves() throws {
        let assemblies = GeneratedKeys.types.prefix(100).map(ComponentAssembly.init(keyType:))
        let tally = GeneratedKeys.Tally()
        try GeneratedKeys.$taskTally.withValue(tally) {
            let registry = StartupCases.launchRegistry(assemblies)
            #expect(tally.instancesBuilt == 0, "installing must build no instance")
            #expect(assemblies.allSatisfy { isRegistered($0.keyType, in: registry) })
            try resolve(GeneratedKeys.types[42], from: registry)
            #expect(tally.instancesBuilt == 1, "resolving builds one")
        }
    }

    @Test func overrideScopeResolvesTheOverrideInsideAndTheRealServiceOutside() throws {
        let registry = RegistrySubject.makeRegistry()
        var values: [Int] = []
        try OverrideScopeCases.resolveInOverrideScope(registry, operations: 3) { values.append($0.value) }
        #expect(values == Array(repeating: OverrideScopeCases.overrideValue, count: 3))
        #expect(try registry.resolve(TrivialService.self).value == TrivialServiceImpl.primaryValue)
    }

    @Test func injectedReadsTheRegistrysSingletonThroughTheProperty() {
        let registry = RegistrySubject.makeRegistry()
        let holder = InjectedHolder(registry: registry)
        #expect(holder.service.serial == RegistrySubject.sharedSerial)
        #expect(holder.service === (try? registry.resolve(SharedService.self)))
        #expect(DirectHolder().service.serial == 0)
    }

    private func isRegistered(_ keyType: any GeneratedKey.Type, in registry: ServiceRegistry) -> Bool {
        func open<Key: GeneratedKey>(_ type: Key.Type) -> Bool { registry.isRegistered(Key.self) }
        return open(keyType)
    }

    private func resolve(_ keyType: any GeneratedKey.Type, from registry: ServiceRegistry) throws {
        func open<Key: GeneratedKey>(_ type: Key.Type) throws { _ = try registry.resolve(Key.self) }
        try open(keyType)
    }
}

/// Runs a sequential benchmark's body once, as one sample does, and returns what it kept.
private func runOnce(_ benchmark: Benchmark, operations: Int) throws -> Any? {
    guard case .sequential(let prepare) = benchmark.workload.execution else {
        Issue.record("\(benchmark.caseName)/\(benchmark.subject) is not a sequential benchmark")
        return nil
    }
    return try prepare()(operations)
}

/// Whether `table` has a factory for the generated type `keyType`.
private func frozenTableHolds(_ keyType: any GeneratedKey.Type, in table: FrozenTable) -> Bool {
    func open<Key: GeneratedKey>(_ type: Key.Type) -> Bool { (try? table.resolve(Key.self)) != nil }
    return open(keyType)
}

/// Whether `container` has a factory for the generated type `keyType`.
private func naiveHolds(_ keyType: any GeneratedKey.Type, in container: NaiveContainer) -> Bool {
    func open<Key: GeneratedKey>(_ type: Key.Type) -> Bool { (try? container.resolve(Key.self)) != nil }
    return open(keyType)
}

/// The cases whose names carry a size hold that many registrations, routes or URLs, and
/// the cases that register make one registration per operation: a figure "among 10,000"
/// taken among fewer, or per registration while registering fewer, would still run.
@Suite("Sized cases hold what their names say")
struct SizedCaseTests {
    @Test(arguments: LookupCases.sizes)
    func lookupBaselinesHoldThatManyRegistrationsBesideTheSingleton(caseName: String, registrations: Int) throws {
        let fillers = registrations - 1
        let router = LookupCases.makeLookupRouter(fillers: fillers)
        #expect(router.urlCount == registrations)
        #expect(router.components.count == registrations)
        #expect(try URLBlockSource(router: router).sharedService().serial == 3)

        let container = NaiveSubject.makeLookupContainer(fillers: fillers)
        #expect(try NaiveSource(container: container).sharedService().serial == NaiveSubject.sharedSerial)
        #expect(naiveHolds(GeneratedKeys.types[fillers - 1], in: container))
        #expect(!naiveHolds(GeneratedKeys.types[fillers], in: container))

        let table = FrozenTableSubject.makeLookupTable(fillers: fillers)
        #expect(try FrozenTableSource(table: table).sharedService().serial == FrozenTableSubject.sharedSerial)
        #expect(frozenTableHolds(GeneratedKeys.types[fillers - 1], in: table))
        #expect(!frozenTableHolds(GeneratedKeys.types[fillers], in: table))
    }

    @Test(arguments: [SubjectName.registry, SubjectName.urlBlock, SubjectName.naiveDictionary])
    func registerMakesOneRegistrationPerOperationIntoFreshContainers(subject: String) throws {
        let benchmark = try #require(RegisterCases.benchmarks(.smoke).first { $0.subject == subject })
        let perContainer = RegisterCases.registrationsPerContainer
        let kept = try runOnce(benchmark, operations: 2 * perContainer + perContainer / 2)
        let names = RegisterCases.names
        let counts: [Int]
        switch subject {
        case SubjectName.registry:
            let registries = try #require(kept as? [ServiceRegistry])
            counts = registries.map { registry in names.count { registry.isRegistered(TrivialService.self, name: $0) } }
            #expect(try registries.last?.resolve(TrivialService.self, name: names[0]).value == TrivialServiceImpl.primaryValue)
        case SubjectName.urlBlock:
            counts = try #require(kept as? [URLBlockRouter.Registrar]).map(\.handlers.count)
        default:
            let containers = try #require(kept as? [NaiveContainer])
            counts = containers.map { container in
                names.count { (try? container.resolve((any TrivialService).self, name: $0)) != nil }
            }
        }
        #expect(counts == [perContainer, perContainer, perContainer / 2])
    }

    @Test(arguments: RouterCases.sizes)
    func routingSubjectsHoldThatManyRoutesAndOpenTheBookScreenForTheURLsID(caseName: String, routes: Int) throws {
        let router = try RouterCases.makeRouter(fillers: routes - 1)
        #expect(router.routes.count == routes)
        #expect(try router.match(RouterCases.bookURL).parameters.int("bookId") == 42)
        let screen = try router.open(RouterCases.bookURL, as: (any BookScreen).self)
        #expect(screen.bookID == "42")
        #expect(try router.open(RouterCases.bookURL, as: (any BookScreen).self) !== screen, "a new screen per open")
        #expect(try router.open(URLBlockComponents.URL.filler(routes - 2), as: Int.self) == RegistrySubject.sharedSerial)

        let blocks = RouterCases.makeURLBlockRouter(fillers: routes - 1)
        #expect(blocks.urlCount == routes)
        let userInfo: [String: Any] = [URLBlockComponents.Parameter.bookID: BookScreenImpl.sampleBookID]
        let blockScreen = blocks.object(forURL: URLBlockComponents.URL.bookScreen, userInfo: userInfo) as? any BookScreen
        #expect(blockScreen?.bookID == "42")
    }

    @Test(arguments: [RouterCases.router, SubjectName.urlBlock])
    func routeRegisterRegistersTheWholeSampleAndBuildsWhatItsSchemeBuilds(subject: String) throws {
        let benchmark = try #require(RouterCases.benchmarks(.smoke).first {
            $0.caseName == RouterCases.routeRegister && $0.subject == subject
        })
        let count = RouterCases.registrationsPerSample
        #expect(benchmark.workload.operationsPerSample == count)
        let initialisedBefore = URLBlockComponents.fillerComponentsInitialised
        let kept = try runOnce(benchmark, operations: count)
        let initialised = URLBlockComponents.fillerComponentsInitialised - initialisedBefore
        if subject == RouterCases.router {
            let router = try #require(kept as? ServiceRouter)
            #expect(router.routes.count == count)
            #expect(Set(router.routes.map(\.pattern)).count == count)
        } else {
            let blocks = try #require(kept as? URLBlockRouter)
            #expect(blocks.urlCount == count)
            #expect(blocks.components.count == count)
            #expect(initialised >= count, "the scheme initialises every component at launch")
        }
    }
}
