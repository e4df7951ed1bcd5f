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

/// Whether `registry` has a registration of the generated type `keyType`.
private func isRegistered(_ keyType: any GeneratedKey.Type, in registry: ServiceRegistry) -> Bool {
    func open<Key: GeneratedKey>(_ type: Key.Type) -> Bool { registry.isRegistered(Key.self) }
    return open(keyType)
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

/// Chain links of the tests' own: a chain that ends in one was built by asking the subject
/// for that link, not by constructing it.
private final class ProbeTail: ChainTail {}
private final class ProbeMiddle: ChainMiddle {
    let tail: any ChainTail = ProbeTail()
}

/// A component that only registers closures, for routers that replace some URLs.
private final class ProbeComponent: Sendable {}

/// A `url-block` router launched as the resolve cases launch it, then one more component
/// registering `overrides` (the scheme keeps the last closure registered under a URL).
private func urlBlockRouter(overriding overrides: [String: URLBlockRouter.Handler]) -> URLBlockRouter {
    URLBlockRouter(
        launching: URLBlockComponents.serviceComponents + [
            { registrar in
                for (url, handler) in overrides { registrar.register(url, handler: handler) }
                return ProbeComponent()
            }
        ])
}

@Suite("Subjects whose registrations can be replaced find each service through their scheme")
struct SchemeLookupTests {
    /// `chain3` is three resolves a call, each link found through the subject, as the
    /// subject's components find each other: a factory that built its link itself would
    /// still return a whole chain, one or two lookups short. So the subjects whose
    /// registrations can be replaced get a link of the tests' own, which the chain must end in.
    @Test(arguments: [SubjectName.registry, SubjectName.urlBlock, SubjectName.naiveDictionary])
    func eachLinkOfTheChainIsFoundThroughTheSubject(subject: String) throws {
        func source(replacingTail: Bool) -> any ServiceSource {
            switch subject {
            case SubjectName.registry:
                let registry = RegistrySubject.makeRegistry()
                if replacingTail {
                    registry.register(ChainTail.self) { _ in ProbeTail() }
                } else {
                    registry.register(ChainMiddle.self) { _ in ProbeMiddle() }
                }
                return RegistrySource(registry: registry)
            case SubjectName.urlBlock:
                let url = replacingTail ? URLBlockComponents.URL.chainTail : URLBlockComponents.URL.chainMiddle
                return URLBlockSource(router: urlBlockRouter(overriding: [
                    url: { _, _ in replacingTail ? ProbeTail() as AnyObject : ProbeMiddle() }
                ]))
            default:
                let container = NaiveSubject.makeContainer()
                if replacingTail {
                    container.register(ChainTail.self) { ProbeTail() }
                } else {
                    container.register(ChainMiddle.self) { ProbeMiddle() }
                }
                return NaiveSource(container: container)
            }
        }
        let viaTail = try source(replacingTail: true).chainHead()
        #expect(viaTail.middle is ChainMiddleImpl)
        #expect(viaTail.middle.tail is ProbeTail, "the middle did not ask the subject for the tail")
        #expect(try source(replacingTail: false).chainHead().middle is ProbeMiddle, "the head did not ask the subject for the middle")
    }

    /// `url-block` finds every service by calling the closure registered under its URL: a
    /// source that reached a component's instance another way would return the same
    /// instance, with the same serial, without the lookup the subject is measured for. Here
    /// every URL the source calls is registered again, last, and the closure registered
    /// last is the one that must answer.
    @Test func urlBlockCallsTheClosureRegisteredUnderEachURL() throws {
        typealias URL = URLBlockComponents.URL
        let shared = SharedServiceImpl(serial: 99)
        let threadServices = ThreadSharedServiceImpl.names.indices.map { ThreadSharedServiceImpl(serial: 99, thread: $0) }
        var overrides: [String: URLBlockRouter.Handler] = [
            URL.shared: { _, _ in shared },
            URL.trivial: { _, _ in TrivialServiceImpl(value: 99) },
            URL.trivialSecondary: { _, _ in TrivialServiceImpl(value: 98) },
            URL.chainHead: { _, _ in ChainHeadImpl(middle: ProbeMiddle()) },
            URL.bookScreen: { parameters, _ in
                BookScreenImpl(bookID: "probe " + (parameters[URLBlockComponents.Parameter.bookID] as? String ?? "none"))
            },
        ]
        for (url, service) in zip(URL.threadShared, threadServices) { overrides[url] = { _, _ in service } }
        let source = URLBlockSource(router: urlBlockRouter(overriding: overrides))
        #expect(try source.sharedService() === shared)
        #expect(try source.threadService(0) === threadServices[0])
        #expect(try source.threadService(1) === threadServices[1])
        #expect(try source.trivialService().value == 99)
        #expect(try source.secondaryTrivialService().value == 98)
        #expect(try source.chainHead().middle is ProbeMiddle)
        #expect(try source.bookScreen(bookID: "7").bookID == "probe 7")
    }
}

@Suite("Sized and threaded cases are built as their names say")
struct CaseShapeTests {
    /// The lookup cases' subjects, as the catalog builds them, hold exactly the number of
    /// registrations their case's name gives (the singleton and the generated fillers). The
    /// size is read from the name, not from `LookupCases.sizes`, so a wrong size there fails
    /// too: `lookupBaselinesHoldThatManyRegistrationsBesideTheSingleton` takes its sizes
    /// from that table and builds its own subjects.
    @Test func eachLookupSubjectHoldsAsManyRegistrationsAsItsCaseNameSays() throws {
        let lookups = BenchmarkCatalog.benchmarks(for: .smoke).filter { $0.caseName.hasPrefix("lookup-") }
        #expect(Set(lookups.map(\.caseName)) == [CaseName.lookup10, CaseName.lookup10000])
        for benchmark in lookups {
            let row = "\(benchmark.caseName)/\(benchmark.subject)"
            let registrations = try #require(benchmark.caseName.split(separator: "-").last.flatMap { Int($0) })
            // Fillers take the first generated types: the last is `registrations - 2`.
            let lastFiller = GeneratedKeys.types[registrations - 2]
            let firstUnused = GeneratedKeys.types[registrations - 1]
            switch try #require(try benchmark.source?(), "\(row) has no source") {
            case let source as RegistrySource:
                #expect(isRegistered(lastFiller, in: source.registry), "\(row)")
                #expect(!isRegistered(firstUnused, in: source.registry), "\(row)")
            case let source as URLBlockSource:
                #expect(source.router.urlCount == registrations, "\(row)")
            case let source as NaiveSource:
                #expect(naiveHolds(lastFiller, in: source.container), "\(row)")
                #expect(!naiveHolds(firstUnused, in: source.container), "\(row)")
            case let source as FrozenTableSource:
                #expect(frozenTableHolds(lastFiller, in: source.table), "\(row)")
                #expect(!frozenTableHolds(firstUnused, in: source.table), "\(row)")
            case is DirectSource:
                break  // the floor holds nothing
            case let source:
                Issue.record("\(row) resolves from \(type(of: source)), which this test cannot size")
            }
        }
    }

    /// The router's sizes, like the lookups', are the numbers in the case names.
    @Test func routingCasesAreSizedByTheNumberInTheirName() {
        for (caseName, routes) in RouterCases.sizes {
            #expect(caseName == "route-\(routes)")
        }
        #expect(RouterCases.sizes.map(\.0) == [RouterCases.route10, RouterCases.route10000])
    }

    /// `threads-N` starts N threads, and the `-own` cases give each thread a singleton of its
    /// own: a case that ran fewer threads, or the shared singleton, would still run and report
    /// a figure under its name.
    @Test func eachThreadCaseStartsTheThreadsItsNameSays() throws {
        let threadCases = BenchmarkCatalog.benchmarks(for: .smoke).filter { $0.caseName.hasPrefix("threads-") }
        #expect(!threadCases.isEmpty)
        for benchmark in threadCases {
            guard case .parallel(let threads, _) = benchmark.workload.execution else {
                Issue.record("\(benchmark.caseName)/\(benchmark.subject) does not run on threads")
                continue
            }
            let expected = benchmark.caseName.hasPrefix(CaseName.threads2) ? 2 : 1
            #expect(threads == expected, "\(benchmark.caseName)/\(benchmark.subject)")
        }
        #expect(ThreadCases.cases.map(\.0) == [CaseName.threads1, CaseName.threads2, CaseName.threads1Own, CaseName.threads2Own])
        for (caseName, threads, ownService) in ThreadCases.cases {
            #expect(ownService == caseName.hasSuffix("-own"), "\(caseName)")
            #expect(caseName.hasPrefix("threads-\(threads)"), "\(caseName)")
        }
    }
}

/// A `direct` source that records every service it is asked for, in order: `"shared"`,
/// `"thread 0"`, `"trivial"`, `"secondary"`, `"chain"`, `"book <id>"`, `"graph"`.
private final class RecordingSource: ServiceSource {
    private let direct = DirectSource()
    // The package's `Lock`, not a bare `Mutex`, as in `ParallelRunner`: the thread
    // sanitizer cannot see a `Mutex` hand a contended lock over, and reported the two
    // threads of an `-own` run recording at once as a race.
    private let asked = Lock<[String]>([])

    var calls: [String] { asked.withLock { $0 } }

    private func record(_ call: String) {
        asked.withLock { $0.append(call) }
    }

    func sharedService() -> any SharedService {
        record("shared")
        return direct.sharedService()
    }
    func threadService(_ thread: Int) -> any SharedService {
        record("thread \(thread)")
        return direct.threadService(thread)
    }
    func trivialService() -> any TrivialService {
        record("trivial")
        return direct.trivialService()
    }
    func secondaryTrivialService() -> any TrivialService {
        record("secondary")
        return direct.secondaryTrivialService()
    }
    func chainHead() -> any ChainHead {
        record("chain")
        return direct.chainHead()
    }
    func bookScreen(bookID: String) -> any BookScreen {
        record("book \(bookID)")
        return direct.bookScreen(bookID: bookID)
    }
    func graphRoot() -> any GraphRoot {
        record("graph")
        return direct.graphRoot()
    }
}

@Suite("What each case's body asks its source for")
struct CaseBodyTests {
    /// Each resolve case asks its subject's source for that case's service once an
    /// operation: `named` the secondary registration and `argument` the screen for `"42"`.
    /// Run through the table that gives each case its body, for a source that records what
    /// it is asked: a case wired to another's body (`named` timing the transient) builds the
    /// same object, so no allocation count could tell, nor an argument the factory ignores.
    @Test func eachResolveCaseAsksForItsServiceOnceAnOperation() throws {
        let source = RecordingSource()
        let benchmarks = ResolveCases.cases("recording") { source }
        let expected = [
            CaseName.singleton: "shared", CaseName.transient: "trivial", CaseName.chain3: "chain",
            CaseName.named: "secondary", CaseName.argument: "book 42", CaseName.graph: "graph",
        ]
        #expect(Set(benchmarks.map(\.caseName)) == Set(expected.keys))
        for benchmark in benchmarks {
            let before = source.calls.count
            _ = try runOnce(benchmark, operations: 3)
            let call = try #require(expected[benchmark.caseName], "\(benchmark.caseName)")
            #expect(source.calls.dropFirst(before) == [call, call, call], "\(benchmark.caseName)")
        }
    }

    /// In `threads-2-own` the two threads of a run resolve one service each, thread 0's and
    /// thread 1's, every time: two threads sharing one would measure the shared singleton's
    /// reference count under the `-own` name. The shared cases resolve only the singleton.
    @Test func twoThreadsOfAnOwnRunResolveOneServiceEachAndSharedRunsTheSingleton() throws {
        let own = RecordingSource()
        let ownRunner = ParallelRunner(threads: 2, body: ThreadCases.ownServiceBody(own))
        for _ in 0..<3 { _ = try ownRunner.run(operationsPerThread: 5) }
        let asked = own.calls
        #expect(asked.count { $0 == "thread 0" } == 15 && asked.count { $0 == "thread 1" } == 15, "\(asked)")
        #expect(asked.count == 30)

        let shared = RecordingSource()
        _ = try ParallelRunner(threads: 2, body: ThreadCases.sharedServiceBody(shared)).run(operationsPerThread: 5)
        #expect(shared.calls == Array(repeating: "shared", count: 10))
    }
}
