import Foundation
import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

// The public API contract (the design's API.md), as an outside tester writes it:
// first every snippet with its exact call shapes (a rename or reshape breaks the build),
// then each bullet and table row as a behaviour. The fixtures ``ReviewService``,
// ``BookDetailService``, ``ReadingService``, ``BookScreen``, ``BookDetailAssembly`` and
// ``ReviewAssembly`` are the module's shared ones; the rest are private to this file.

private final class OfflineReviews: ReviewService {
    let source = "offline"
}

private final class MockReviews: ReviewService {
    let source: String
    init(_ source: String = "mock") { self.source = source }
}

/// The property wrapper as API.md declares it.
private final class ReadingController {
    @Injected var detail: any BookDetailService   // resolved from ServiceRegistry.shared on
}                                                 // first access (honouring overrides), then kept

/// Reads its detail service through `@Injected` from the registry it is given.
private final class InjectedDetailHolder {
    @Injected var detail: any BookDetailService
    init(registry: ServiceRegistry) { _detail = Injected(registry: registry) }
}

/// A component's one public assembly, conforming as API.md declares the protocol.
private struct OfflineReviewAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(ReviewService.self, name: "offline") { _ in OfflineReviews() }
    }
}

/// Compiles only while `T` is a `Sendable` class.
private func requireSendableClass<T: AnyObject & Sendable>(_: T.Type) {}
/// Compiles only while `T` is an error that describes itself.
private func requireDescribedError<T: Error & CustomStringConvertible>(_: T.Type) {}

/// What `body` throws, as a ``ResolutionError``; records an issue when it throws nothing else.
private func contractError(_ body: () throws -> Void) -> ResolutionError? {
    do {
        try body()
        Issue.record("expected a ResolutionError, nothing was thrown")
    } catch let error as ResolutionError {
        return error
    } catch {
        Issue.record("expected a ResolutionError, got \(error)")
    }
    return nil
}

/// A registry every snippet of API.md's core section can run against.
private func makeSnippetRegistry() -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(BookDetailService.self) { r in
        BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
    }
    registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
    registry.register(ReviewService.self, name: "offline") { _ in OfflineReviews() }
    registry.register(BookScreen.self) { (r, bookId: String) in BookScreenImpl(bookId: bookId) }
    registry.register(BookScreen.self) { (r, args: (String, Int)) in BookScreenImpl(bookId: args.0, page: args.1) }
    return registry
}

@Suite("API.md contract")
struct APIContractTests {
    // MARK: - Call shapes

    @Test func coreSnippetCompilesAndResolvesAsWritten() throws {
        let registry = makeSnippetRegistry()
        let shared: ServiceRegistry = ServiceRegistry.shared
        requireSendableClass(ServiceRegistry.self)

        let detail = try registry.resolve(BookDetailService.self)
        let inferred: any BookDetailService = try registry.resolve()
        let offline = try registry.resolve(ReviewService.self, name: "offline")
        let screen = try registry.resolve(BookScreen.self, argument: "42")
        let screen2 = try registry.resolve(BookScreen.self, argument: ("42", 1))
        let registered: Bool = registry.isRegistered(ReviewService.self)

        #expect(shared === ServiceRegistry.shared)
        #expect(detail.reviews.source == "real")
        #expect(inferred.reviews as AnyObject === detail.reviews as AnyObject)
        #expect(offline.source == "offline")
        #expect((screen.bookId, screen.page) == ("42", 0))
        #expect((screen2.bookId, screen2.page) == ("42", 1))
        #expect(registered)
        #expect(registry.isRegistered(ReviewService.self, name: "offline"))
        #expect(!registry.isRegistered(ReviewService.self, name: "online"))
        #expect(!registry.isRegistered(ReadingService.self))
    }

    @Test func resolverOffersTheSameResolveOverloads() throws {
        let registry = makeSnippetRegistry()
        registry.register(BookScreen.self, name: "compact") { (_, id: String) in BookScreenImpl(bookId: "compact " + id) }
        registry.register(ReadingService.self) { r in
            let byType = try r.resolve(ReviewService.self)
            let named = try r.resolve(ReviewService.self, name: "offline")
            let withArgument = try r.resolve(BookScreen.self, argument: "7")
            let withTuple = try r.resolve(BookScreen.self, argument: ("7", 2))
            let namedWithArgument = try r.resolve(BookScreen.self, name: "compact", argument: "7")
            let inferred: any BookDetailService = try r.resolve()
            #expect(byType.source == "real" && named.source == "offline")
            #expect([withArgument.bookId, withTuple.bookId, namedWithArgument.bookId] == ["7", "7", "compact 7"])
            #expect(withTuple.page == 2)
            return ReadingServiceImpl(detail: inferred)
        }
        #expect(try registry.resolve(ReadingService.self).detail.reviews.source == "real")
    }

    @Test func nameScopeAndArgumentCombine() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self, name: "compact", scope: .singleton) { (r, id: String) in
            BookScreenImpl(bookId: id)
        }
        let first = try registry.resolve(BookScreen.self, name: "compact", argument: "42")
        let second = try registry.resolve(BookScreen.self, name: "compact", argument: "42")
        #expect(first.bookId == "42")
        #expect(first as AnyObject === second as AnyObject)
    }

    @Test func hierarchyAndAssemblySnippetsCompileAsWritten() throws {
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly(), ReviewAssembly())   // variadic
        registry.install(OfflineReviewAssembly())
        let child = registry.makeChild()
        let childRegistry: ServiceRegistry = child
        #expect(try childRegistry.resolve(BookDetailService.self).reviews.source == "real")
        #expect(try child.resolve(ReviewService.self, name: "offline").source == "offline")
    }

    @Test func overrideSnippetCompilesAsWritten() throws {
        let registry = makeSnippetRegistry()
        try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let source = try registry.resolve(BookDetailService.self).reviews.source
            #expect(source == "mock")
        }
        #expect(try registry.resolve(BookDetailService.self).reviews.source == "real")
    }

    @Test func asyncOverrideSnippetCompilesAsWritten() async throws {
        let registry = makeSnippetRegistry()
        try await registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            await Task.yield()
            let source = try registry.resolve(BookDetailService.self).reviews.source
            #expect(source == "mock")
        }
        #expect(try registry.resolve(BookDetailService.self).reviews.source == "real")
    }

    @Test func scopeAndErrorTypesHaveTheirDeclaredShapes() {
        let scopes: [Scope] = [.transient, .singleton, .weak, .graph]
        #expect(Set(scopes).count == 4)
        requireDescribedError(ResolutionError.self)
        let reasons: [ResolutionError.Reason] = [.notRegistered, .circularDependency, .argumentMismatch, .factoryFailed]
        #expect(Set(reasons).count == 4)
    }

    // MARK: - Registration

    @Test func registrationBuildsNothingOnlyResolveRunsFactories() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        for scope in [Scope.transient, .singleton, .weak, .graph] {
            registry.register(ReviewService.self, name: "\(scope)", scope: scope) { _ in
                built.increment()
                return ReviewServiceImpl()
            }
        }
        registry.register(BookScreen.self) { (_, id: String) in
            built.increment()
            return BookScreenImpl(bookId: id)
        }
        let detail = BookDetailAssembly(), reviews = ReviewAssembly()
        registry.install(detail, reviews)
        _ = registry.makeChild()
        #expect(registry.isRegistered(ReviewService.self, name: "singleton"))
        #expect([built.value, detail.built.value, reviews.built.value] == [0, 0, 0] as [Int])

        _ = try registry.resolve(ReviewService.self, name: "singleton")
        #expect(built.value == 1)
    }

    @Test func reRegisteringReplacesAndDropsTheCachedInstance() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl(source: "first") }
        weak let cached = try registry.resolve(ReviewService.self) as? ReviewServiceImpl
        #expect(cached != nil, "the singleton is cached before re-registering")

        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl(source: "second") }
        #expect(cached == nil, "re-registering must drop the instance the old registration cached")
        #expect(try registry.resolve(ReviewService.self).source == "second")
    }

    @Test func reRegisteringMayChangeTheScope() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        let singleton = try registry.resolve(ReviewService.self)
        registry.register(ReviewService.self, scope: .transient) { _ in ReviewServiceImpl() }
        let a = try registry.resolve(ReviewService.self)
        let b = try registry.resolve(ReviewService.self)
        #expect(a as AnyObject !== b as AnyObject)
        #expect(a as AnyObject !== singleton as AnyObject)
    }

    @Test func singletonWithAnArgumentIsBuiltOnceFromTheFirstArgument() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(BookScreen.self, scope: .singleton) { (_, id: String) in
            built.increment()
            return BookScreenImpl(bookId: id)
        }
        let first = try registry.resolve(BookScreen.self, argument: "first")
        let second = try registry.resolve(BookScreen.self, argument: "second")
        #expect(first.bookId == "first" && second.bookId == "first")
        #expect(first as AnyObject === second as AnyObject)
        #expect(built.value == 1)
    }

    @Test(arguments: [Scope.transient, .graph, .weak])
    func registryKeepsNoStrongReferenceAfterTheResolveReturns(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: scope) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        weak let direct = try registry.resolve(ReviewService.self) as? ReviewServiceImpl
        weak let dependency = try registry.resolve(BookDetailService.self).reviews as? ReviewServiceImpl
        #expect(direct == nil)
        #expect(dependency == nil)
    }

    @Test func factoriesResolvingThroughTheRegistryItselfNeverDeadlock() {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .singleton) { [registry] _ in
            BookDetailServiceImpl(reviews: try registry.resolve(ReviewService.self))
        }
        registry.register(ReadingService.self, scope: .singleton) { [registry] _ in
            ReadingServiceImpl(detail: InjectedDetailHolder(registry: registry).detail)
        }
        let identities = Guarded<Set<ObjectIdentifier>>([])
        let finished = onThreads(4) { index in
            for round in 0..<50 {
                switch (index + round) % 3 {
                case 0: _ = try! registry.resolve(ReviewService.self)
                case 1: _ = try! registry.resolve(BookDetailService.self)
                default:
                    let reading = try! registry.resolve(ReadingService.self)
                    identities.withLock { _ = $0.insert(ObjectIdentifier(reading.detail as AnyObject)) }
                }
            }
        }
        #expect(finished, "a factory resolving through the registry deadlocked")
        #expect(identities.withLock { $0.count } == 1)
    }

    // MARK: - Scopes

    @Test func transientIsTheDefaultAndBuildsANewInstanceOnEveryResolve() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        let a = try registry.resolve(ReviewService.self)
        let b = try registry.resolve(ReviewService.self)
        #expect(a as AnyObject !== b as AnyObject)
    }

    @Test func singletonIsBuiltOnFirstResolveThenShared() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            built.increment()
            return ReviewServiceImpl()
        }
        #expect(built.value == 0)
        let a = try registry.resolve(ReviewService.self)
        let b = try registry.resolve(ReviewService.self)
        #expect(a as AnyObject === b as AnyObject)
        #expect(built.value == 1)
    }

    @Test func singletonIsBuiltExactlyOnceWhenManyThreadsResolveItAtOnce() {
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let built = Counter()
            registry.register(ReviewService.self, scope: .singleton) { _ in
                built.increment()
                return ReviewServiceImpl()
            }
            registry.register(BookScreen.self, scope: .singleton) { (_, id: String) in
                built.increment()
                return BookScreenImpl(bookId: id)
            }
            let rendezvous = Rendezvous(parties: 8)
            let seen = Guarded<Set<ObjectIdentifier>>([])
            let finished = onThreads(8) { index in
                rendezvous.arriveAndWait()
                let instance = try! registry.resolve(ReviewService.self) as AnyObject
                let screen = try! registry.resolve(BookScreen.self, argument: "\(index)") as AnyObject
                seen.withLock { $0.formUnion([ObjectIdentifier(instance), ObjectIdentifier(screen)]) }
            }
            #expect(finished)
            #expect(!rendezvous.wasMissed, "the threads did not resolve at once")
            #expect(built.value == 2)
            #expect(seen.withLock { $0.count } == 2)
        }
    }

    @Test func singletonWhoseFactoryThrowsCachesNothing() throws {
        let registry = ServiceRegistry()
        let attempts = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            if attempts.increment() <= 2 { throw FactoryError(message: "offline") }
            return ReviewServiceImpl(source: "built")
        }
        #expect(throws: ResolutionError.self) { try registry.resolve(ReviewService.self) }
        #expect(throws: ResolutionError.self) { try registry.resolve(ReviewService.self) }
        let built = try registry.resolve(ReviewService.self)
        #expect(built.source == "built")
        #expect(try registry.resolve(ReviewService.self) as AnyObject === built as AnyObject)
        #expect(attempts.value == 3)
    }

    @Test func weakIsSharedWhileHeldAndRebuiltAfterTheLastHolderLetsGo() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .weak) { _ in
            ReviewServiceImpl(source: "build \(built.increment())")
        }
        do {
            let held = try registry.resolve(ReviewService.self)
            let again = try registry.resolve(ReviewService.self)
            #expect(held as AnyObject === again as AnyObject)
            #expect(again.source == "build 1")
        }
        #expect(try registry.resolve(ReviewService.self).source == "build 2")
    }

    @Test func graphIsSharedWithinOneTopLevelResolveAndFreshForTheNext() throws {
        struct Pair { let first: any ReviewService; let second: any ReviewService }
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .graph) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(Pair.self) { r in
            // Once directly, once inside something it builds.
            Pair(first: try r.resolve(ReviewService.self), second: try r.resolve(BookDetailService.self).reviews)
        }
        let one = try registry.resolve(Pair.self)
        let two = try registry.resolve(Pair.self)
        #expect(one.first as AnyObject === one.second as AnyObject)
        #expect(two.first as AnyObject === two.second as AnyObject)
        #expect(one.first as AnyObject !== two.first as AnyObject)
    }

    // MARK: - Errors

    @Test func notRegisteredDescriptionNamesTypeNameAndPath() throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self, name: "offline"))
        }
        let error = try #require(contractError { _ = try registry.resolve(ReadingService.self) })
        let reason: ResolutionError.Reason = error.reason
        #expect(reason == .notRegistered)
        #expect(error.description.contains("ReviewService"))
        #expect(error.description.contains("offline"))
        #expect(error.description.contains("ReadingService → BookDetailService → ReviewService"))
    }

    @Test func topLevelErrorNamesTheServiceItsNameAndItsOneStepPath() throws {
        let registry = ServiceRegistry()
        let error = try #require(contractError { _ = try registry.resolve(ReviewService.self, name: "offline") })
        #expect(error.reason == .notRegistered)
        #expect(error.description.contains("ReviewService"))
        #expect(error.description.contains("\"offline\""))
    }

    @Test(arguments: [Scope.transient, .singleton, .weak, .graph])
    func cyclesAreThrownNeverAStackOverflow(scope: Scope) {
        let registry = ServiceRegistry()
        // A → B → A
        registry.register(ReadingService.self, scope: scope) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self, scope: scope) { r in
            _ = try r.resolve(ReadingService.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        // A → A, through the resolver and through the registry itself.
        registry.register(ReviewService.self, scope: scope) { r in try r.resolve(ReviewService.self) }
        registry.register(ReviewService.self, name: "direct", scope: scope) { [registry] _ in
            try registry.resolve(ReviewService.self, name: "direct")
        }
        // A → A again, with a new argument each time: the key, not the value, makes the cycle.
        registry.register(BookScreen.self, scope: scope) { (r, page: Int) in
            try r.resolve(BookScreen.self, argument: page + 1)
        }
        let outcomes = Guarded<[(ResolutionError.Reason?, String)]>([])
        // A small stack, so a cycle that recursed without end would crash at once.
        let finished = onThreads(1, stackSize: 512 << 10) { _ in
            for resolve in [
                { _ = try registry.resolve(ReadingService.self) },
                { _ = try registry.resolve(ReviewService.self) },
                { _ = try registry.resolve(ReviewService.self, name: "direct") },
                { _ = try registry.resolve(BookScreen.self, argument: 0) },
            ] as [() throws -> Void] {
                do {
                    try resolve()
                    outcomes.withLock { $0.append((nil, "")) }
                } catch let error as ResolutionError {
                    outcomes.withLock { $0.append((error.reason, error.description)) }
                } catch {
                    outcomes.withLock { $0.append((nil, "\(error)")) }
                }
            }
        }
        #expect(finished)
        let results = outcomes.withLock { $0 }
        #expect(results.map(\.0) == Array(repeating: .circularDependency, count: 4) as [ResolutionError.Reason?])
        #expect(results.first?.1.contains("ReadingService → BookDetailService → ReadingService") == true)
        #expect(results.dropFirst().first?.1.contains("ReviewService → ReviewService") == true)
    }

    @Test func argumentMismatchNamesBothArgumentTypes() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, id: String) in BookScreenImpl(bookId: id) }
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }

        let wrongType = try #require(contractError { _ = try registry.resolve(BookScreen.self, argument: 42) })
        #expect(wrongType.reason == .argumentMismatch)
        #expect(wrongType.description.contains("Int") && wrongType.description.contains("String"))

        let missingArgument = try #require(contractError { _ = try registry.resolve(BookScreen.self) })
        #expect(missingArgument.reason == .argumentMismatch)
        #expect(missingArgument.description.contains("String") && missingArgument.description.contains("no argument"))

        let extraArgument = try #require(contractError { _ = try registry.resolve(ReviewService.self, argument: 1.5) })
        #expect(extraArgument.reason == .argumentMismatch)
        #expect(extraArgument.description.contains("Double") && extraArgument.description.contains("no argument"))
    }

    @Test func factoryFailedKeepsTheOriginalErrorAndThePath() throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReviewService.self) { _ in throw FactoryError(message: "disk full") }
        let error = try #require(contractError { _ = try registry.resolve(ReadingService.self) })
        #expect(error.reason == .factoryFailed)
        #expect((error.underlyingError as? FactoryError)?.message == "disk full")
        #expect(error.path == ["ReadingService", "BookDetailService", "ReviewService"])
        #expect(error.description.contains("ReadingService → BookDetailService → ReviewService"))
        #expect(error.description.contains("disk full"))
    }

    // MARK: - Hierarchy and assemblies

    @Test func childSeesParentShadowsItAndTheParentNeverSeesTheChild() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = registry.makeChild()
        #expect(try child.resolve(BookDetailService.self).reviews.source == "parent")
        registry.register(Clock.self) { _ in FixedClock(now: 1) }   // after the child was made
        #expect(try child.resolve(Clock.self).now == 1)

        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        child.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        #expect(try child.resolve(ReviewService.self).source == "child")
        #expect(try registry.resolve(ReviewService.self).source == "parent")
        #expect(!registry.isRegistered(ReadingService.self))
        #expect(contractError { _ = try registry.resolve(ReadingService.self) }?.reason == .notRegistered)
    }

    @Test(arguments: [false, true])
    func parentSingletonThroughAChildIsTheParentsOneInstance(childFirst: Bool) throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            built.increment()
            return ReviewServiceImpl()
        }
        let child = registry.makeChild()
        let (first, second) =
            childFirst
            ? (try child.resolve(ReviewService.self), try registry.resolve(ReviewService.self))
            : (try registry.resolve(ReviewService.self), try child.resolve(ReviewService.self))
        #expect(first as AnyObject === second as AnyObject)
        #expect(try registry.makeChild().resolve(ReviewService.self) as AnyObject === first as AnyObject)
        #expect(built.value == 1)
    }

    @Test func installIsVariadicAndRegistersEachAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly(), ReviewAssembly(), OfflineReviewAssembly())
        #expect(registry.isRegistered(BookDetailService.self))
        #expect(registry.isRegistered(ReviewService.self))
        #expect(registry.isRegistered(ReviewService.self, name: "offline"))
        registry.install()
    }

    // MARK: - Overrides

    @Test func everyResolveInTheScopeSeesTheMockAlsoAsADependency() throws {
        let registry = makeSnippetRegistry()
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let reviews = try registry.resolve(ReviewService.self).source
            #expect(reviews == "mock")
            let detailReviews = try registry.resolve(BookDetailService.self).reviews.source
            #expect(detailReviews == "mock")
            let readingReviews = try registry.resolve(ReadingService.self).detail.reviews.source
            #expect(readingReviews == "mock")
            let childReviews = try registry.makeChild().resolve(ReviewService.self).source
            #expect(childReviews == "mock")
        }
        #expect(try registry.resolve(ReadingService.self).detail.reviews.source == "real")
    }

    @Test func tasksStartedInTheScopeSeeTheMock() async throws {
        let registry = makeSnippetRegistry()
        let fromSyncScope = startTaskInSyncScope(of: registry)
        #expect(try await fromSyncScope.value == "sync")

        try await registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews("async") }
        } operation: {
            async let child = try registry.resolve(BookDetailService.self).reviews.source
            let unstructured = Task { try registry.resolve(BookDetailService.self).reviews.source }
            let grouped = try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try registry.resolve(ReviewService.self).source }
                return try await group.next()
            }
            let childSource = try await child
            #expect(childSource == "async")
            let unstructuredSource = try await unstructured.value
            #expect(unstructuredSource == "async")
            #expect(grouped == "async")
        }
    }

    /// The synchronous `withOverrides`, called from synchronous code.
    private func startTaskInSyncScope(of registry: ServiceRegistry) -> Task<String, any Error> {
        registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews("sync") }
        } operation: {
            Task { try registry.resolve(BookDetailService.self).reviews.source }
        }
    }

    @Test func overrideRegistrarOffersTheSameRegisterOverloadsAndMayAddServices() throws {
        let registry = makeSnippetRegistry()
        try registry.withOverrides {
            $0.register(ReviewService.self, name: "offline") { _ in MockReviews("named") }
            $0.register(ReviewService.self, scope: .singleton) { _ in MockReviews("singleton") }
            $0.register(BookScreen.self) { (r, bookId: String) in BookScreenImpl(bookId: "mock " + bookId) }
            $0.register(BookScreen.self, name: "compact", scope: .graph) { (r, args: (String, Int)) in
                BookScreenImpl(bookId: args.0, page: args.1)
            }
            $0.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }   // lacking
        } operation: {
            let named = try registry.resolve(ReviewService.self, name: "offline").source
            #expect(named == "named")
            let a = try registry.resolve(ReviewService.self)
            #expect(a.source == "singleton")
            let again = try registry.resolve(ReviewService.self)
            #expect(again as AnyObject === a as AnyObject)
            let screenId = try registry.resolve(BookScreen.self, argument: "42").bookId
            #expect(screenId == "mock 42")
            let page = try registry.resolve(BookScreen.self, name: "compact", argument: ("42", 3)).page
            #expect(page == 3)
            #expect(registry.isRegistered(ReadingService.self))
            let readingReviews = try registry.resolve(ReadingService.self).detail.reviews.source
            #expect(readingReviews == "singleton")
        }
        #expect(!registry.isRegistered(ReadingService.self))
    }

    /// A registry the parallel cases below all override at once.
    private static let parallelRegistry: ServiceRegistry = {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        return registry
    }()

    @Test(arguments: 0..<6)
    func parallelTestsEachSeeOnlyTheirOwnOverrides(index: Int) async throws {
        let registry = Self.parallelRegistry
        try await registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews("test \(index)") }
        } operation: {
            for _ in 0..<20 {
                let source = try registry.resolve(BookDetailService.self).reviews.source
                #expect(source == "test \(index)")
                await Task.yield()
            }
        }
        // The same on the shared registry, which @Injected reads.
        try await ServiceRegistry.shared.withOverrides {
            $0.register(ReviewService.self, scope: .singleton) { _ in MockReviews("shared \(index)") }
        } operation: {
            for _ in 0..<20 {
                let source = try ServiceRegistry.shared.resolve(ReviewService.self).source
                #expect(source == "shared \(index)")
                await Task.yield()
            }
        }
    }

    @Test func concurrentTasksWithTheirOwnOverridesNeverSeeEachOthers() async throws {
        let registry = Self.parallelRegistry
        let seen = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await registry.withOverrides {
                        $0.register(ReviewService.self, scope: .singleton) { _ in MockReviews("task \(index)") }
                    } operation: {
                        var allOwn = true
                        for _ in 0..<10 {
                            let source = try registry.resolve(BookDetailService.self).reviews.source
                            allOwn = allOwn && source == "task \(index)"
                            await Task.yield()
                        }
                        return allOwn
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(seen == Array(repeating: true, count: 16))
    }

    @Test func instancesBuiltInsideAScopeNeverLeakOutOfIt() throws {
        let registry = ServiceRegistry()
        let realBuilds = Counter()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .singleton) { r in
            realBuilds.increment()
            return BookDetailServiceImpl(reviews: try r.resolve())
        }
        let inScope = try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let first = try registry.resolve(BookDetailService.self)
            let again = try registry.resolve(BookDetailService.self)
            #expect(again as AnyObject === first as AnyObject)
            #expect(first.reviews.source == "mock")
            return first
        }
        let after = try registry.resolve(BookDetailService.self)
        #expect(after as AnyObject !== inScope as AnyObject)
        #expect(after.reviews.source == "real")
        #expect(try registry.resolve(BookDetailService.self) as AnyObject === after as AnyObject)
        #expect(realBuilds.value == 2)
    }

    @Test func weakInstanceBuiltInsideAScopeIsNotHandedOutAfterIt() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .weak) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let stillHeld = try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            try registry.resolve(BookDetailService.self)
        }
        let after = try registry.resolve(BookDetailService.self)
        #expect(stillHeld.reviews.source == "mock")
        #expect(after as AnyObject !== stillHeld as AnyObject)
        #expect(after.reviews.source == "real")
    }

    @Test(arguments: [false, true])
    func parentSingletonResolvedThroughAChildInsideAScopeNeverLeaks(scopeOnChild: Bool) throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .singleton) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = registry.makeChild()
        let inScope = try (scopeOnChild ? child : registry).withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            try child.resolve(BookDetailService.self)
        }
        // The parent's singleton is built from the parent's registrations: an override of
        // the child does not reach its dependencies, but it is still built in the scope.
        #expect(inScope.reviews.source == (scopeOnChild ? "real" : "mock"))
        let after = try registry.resolve(BookDetailService.self)
        #expect(after.reviews.source == "real")
        #expect(after as AnyObject !== inScope as AnyObject)
        #expect(try child.resolve(BookDetailService.self) as AnyObject === after as AnyObject)
    }

    // MARK: - @Injected

    @Test func injectedResolvesFromSharedOnFirstAccessHonouringOverridesThenKeeps() {
        let builds = Counter()
        ServiceRegistry.shared.withOverrides {
            $0.register(BookDetailService.self) { _ in
                builds.increment()
                return BookDetailServiceImpl(reviews: MockReviews())
            }
        } operation: {
            let controller = ReadingController()
            #expect(builds.value == 0)
            let first = controller.detail
            #expect(first.reviews.source == "mock")
            #expect(controller.detail as AnyObject === first as AnyObject)
            #expect(builds.value == 1)
        }
    }

    // MARK: - Validation

    @Test func validateBuildsEveryArgumentFreeRegistrationInIsolation() throws {
        let registry = ServiceRegistry()
        let singletonBuilds = Counter(), argumentBuilds = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            ReviewServiceImpl(source: "build \(singletonBuilds.increment())")
        }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReadingService.self, scope: .singleton) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookScreen.self) { (_, id: String) in
            argumentBuilds.increment()
            return BookScreenImpl(bookId: id)
        }
        try registry.validate()
        let builtByValidation = singletonBuilds.value
        #expect(builtByValidation >= 1, "validate() must build the singleton")
        #expect(argumentBuilds.value == 0)

        // Nothing validation built was cached in the registry.
        #expect(try registry.resolve(ReviewService.self).source == "build \(builtByValidation + 1)")
        #expect(try registry.resolve(ReadingService.self).detail.reviews.source == "build \(builtByValidation + 1)")
    }

    @Test func validateLeavesWhatTheRegistryCachedUntouched() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .weak) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let cached = try registry.resolve(ReviewService.self)
        try registry.validate()
        #expect(try registry.resolve(ReviewService.self) as AnyObject === cached as AnyObject)
        weak let weakInstance = try registry.resolve(BookDetailService.self) as? BookDetailServiceImpl
        #expect(weakInstance == nil)
    }

    @Test func validateThrowsOneErrorListingEveryFailure() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }   // fine
        registry.register(BookDetailService.self) { r in                      // missing dependency
            _ = try r.resolve(Clock.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        registry.register(ReadingService.self) { r in                         // cycle
            _ = try r.resolve(ReadingService.self)
            return ReadingServiceImpl(detail: try r.resolve())
        }
        registry.register(BookScreen.self) { _ in throw FactoryError(message: "no screen") }   // failing factory
        var thrown: (any Error)?
        do {
            try registry.validate()
        } catch {
            thrown = error
        }
        let description = String(describing: try #require(thrown))
        for failing in ["BookDetailService", "ReadingService", "BookScreen", "Clock", "no screen"] {
            #expect(description.contains(failing), "the validation error should name \(failing)")
        }
        #expect(description.contains(ResolutionError.Reason.notRegistered.description))
        #expect(description.contains(ResolutionError.Reason.circularDependency.description))
        #expect(description.contains(ResolutionError.Reason.factoryFailed.description))
    }

    // MARK: - Rules for the implementation that a test can read

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func coreSources() throws -> [(file: String, text: String)] {
        let core = packageRoot.appendingPathComponent("Sources/ServiceRegistry")
        let files = FileManager.default.enumerator(atPath: core.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map { file in
            (file, try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8))
        }
    }

    @Test func coreImportsOnlyTheStandardLibraryAndSynchronization() throws {
        let sources = try Self.coreSources()
        try #require(!sources.isEmpty, "no core sources under \(Self.packageRoot.path)")
        for (file, text) in sources {
            for line in text.split(whereSeparator: \.isNewline) {
                let words = line.split(whereSeparator: \.isWhitespace).drop { $0.hasPrefix("@") || $0 == "public" || $0 == "internal" || $0 == "private" || $0 == "fileprivate" || $0 == "package" }
                guard words.first == "import", words.count > 1 else { continue }
                let module = words.dropFirst().last!.split(separator: ".").first.map(String.init) ?? ""
                #expect(["Swift", "Synchronization"].contains(module), "\(file) imports \(module)")
            }
        }
    }

    @Test func packageHasNoDependenciesAndUsesSwift6() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(!manifest.contains(".package("))
        #expect(manifest.contains("swiftLanguageModes: [.v6]"))
    }

    @Test func coreHasNoUnguardedGlobalState() throws {
        for (file, text) in try Self.coreSources() {
            #expect(!text.contains("nonisolated(unsafe)"), "\(file) has state guarded by convention")
        }
    }

    @Test func everyPublicSymbolOfTheCoreHasADocComment() throws {
        var declarations = 0
        for (file, text) in try Self.coreSources() {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            for (index, line) in lines.enumerated() {
                let words = line.split(separator: " ").drop { $0.hasPrefix("@") }
                guard words.first == "public" || words.first == "open" else { continue }
                declarations += 1
                var above = index - 1
                while above >= 0, lines[above].hasPrefix("@") { above -= 1 }
                let documented = above >= 0 && (lines[above].hasPrefix("///") || lines[above].hasSuffix("*/"))
                #expect(documented, "\(file):\(index + 1) `\(line)` has no doc comment")
            }
        }
        #expect(declarations > 20, "the scan found only \(declarations) public declarations")
    }
}
