// Mirrors the code in Docs/Testing.md, so the page cannot drift from the API. The page's
// app and test types live in one namespace (a test target is a single module); each test
// below is a test from the page, run as the page shows it.
import Foundation
import ServiceRegistry
import ServiceRegistryTesting
import Synchronization
import Testing
import XCTest

enum TestingPage {
    // MARK: The app under test

    public protocol ReviewService: Sendable {
        func reviews(ofBookWithID id: Int) -> [String]
    }

    public protocol BookDetailService: Sendable {
        func summary(ofBookWithID id: Int) -> String
    }

    /// Talks to the network in the real app.
    struct RemoteReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { ["Loved it", "Too long"] }
    }

    struct BookDetailScreen: BookDetailService {
        let reviews: any ReviewService
        func summary(ofBookWithID id: Int) -> String {
            "Book \(id): \(reviews.reviews(ofBookWithID: id).count) reviews"
        }
    }

    public struct ReviewAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(ReviewService.self, scope: .singleton) { _ in RemoteReviews() }
        }
    }

    public struct BookDetailAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(BookDetailService.self) { r in
                BookDetailScreen(reviews: try r.resolve(ReviewService.self))
            }
        }
    }

    /// App code that resolves from `ServiceRegistry.shared` through `@Injected`.
    final class ReviewsViewModel {
        @Injected var reviews: any ReviewService

        func headline(forBookWithID id: Int) -> String {
            "\(reviews.reviews(ofBookWithID: id).count) reviews"
        }
    }

    /// App code that hands work to a detached task and calls back from there.
    struct ReviewsPrefetcher {
        let registry: ServiceRegistry

        func prefetch(bookID: Int, done: @escaping @Sendable ([String]) -> Void) {
            // Carry the caller's override scope (in the app: none) into the detached work.
            let scope = OverrideScope.current
            Task.detached(priority: .background) {
                let reviews = scope.run {
                    (try? registry.resolve(ReviewService.self))?.reviews(ofBookWithID: bookID) ?? []
                }
                done(reviews)
            }
        }
    }

    // MARK: The test target's mocks and registries

    struct MockReviews: ReviewService {
        var canned = ["Great", "Meh", "Superb"]
        func reviews(ofBookWithID id: Int) -> [String] { canned }
    }

    struct NoReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { [] }
    }

    /// The app's real wiring, built once for the whole test run; tests override it, never
    /// change it.
    enum TestApp {
        static let registry: ServiceRegistry = {
            let registry = ServiceRegistry()
            registry.install(ReviewAssembly(), BookDetailAssembly())
            return registry
        }()
    }
}

// MARK: - Swapping a mock with withOverrides

@Suite struct TestingExamples {
    typealias ReviewService = TestingPage.ReviewService
    typealias BookDetailService = TestingPage.BookDetailService
    typealias ReviewAssembly = TestingPage.ReviewAssembly
    typealias BookDetailAssembly = TestingPage.BookDetailAssembly
    typealias BookDetailScreen = TestingPage.BookDetailScreen
    typealias ReviewsViewModel = TestingPage.ReviewsViewModel
    typealias ReviewsPrefetcher = TestingPage.ReviewsPrefetcher
    typealias MockReviews = TestingPage.MockReviews
    typealias NoReviews = TestingPage.NoReviews
    typealias TestApp = TestingPage.TestApp

    @Test func summaryCountsTheReviews() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())

        try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            // BookDetailScreen is the real one; the ReviewService it gets is the mock.
            let detail = try registry.resolve(BookDetailService.self)
            #expect(detail.summary(ofBookWithID: 42) == "Book 42: 3 reviews")
        }
    }

    @Test func summaryIsBuiltInAChildTask() async throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())

        try await registry.withOverrides {
            $0.register(ReviewService.self) { _ in NoReviews() }
        } operation: {
            let summary = try await Task {
                try registry.resolve(BookDetailService.self).summary(ofBookWithID: 7)
            }.value
            #expect(summary == "Book 7: 0 reviews")
        }
    }

    @Test func overridesTakeNamesScopesAndArguments() throws {
        let registry = TestApp.registry
        try registry.withOverrides {
            $0.register(ReviewService.self, scope: .singleton) { _ in MockReviews() }  // one per scope
            $0.register(ReviewService.self, name: "offline") { _ in NoReviews() }
            $0.register(BookDetailService.self) { (r, reviews: [String]) in   // takes an argument
                BookDetailScreen(reviews: MockReviews(canned: reviews))
            }
        } operation: { () throws in
            #expect(try registry.resolve(ReviewService.self).reviews(ofBookWithID: 1).count == 3)
            #expect(try registry.resolve(ReviewService.self, name: "offline").reviews(ofBookWithID: 1).isEmpty)
            let detail = try registry.resolve(BookDetailService.self, argument: ["Wow"])
            #expect(detail.summary(ofBookWithID: 1) == "Book 1: 1 reviews")
        }
        // After the scope, none of it is left: "offline" was never registered for real.
        #expect(!registry.isRegistered(ReviewService.self, name: "offline"))
    }

    @Test func nestedScopesStack() throws {
        let registry = TestApp.registry
        func count() throws -> Int {
            try registry.resolve(ReviewService.self).reviews(ofBookWithID: 1).count
        }
        try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let outer = try count()  // 3: the outer mock
            let inner = try registry.withOverrides {
                $0.register(ReviewService.self) { _ in NoReviews() }
            } operation: {
                try count()  // 0: the inner mock wins
            }
            let outerAgain = try count()  // 3: the outer one is back
            #expect(outer == 3 && inner == 0 && outerAgain == 3)
        }
        #expect(try count() == 2)  // the real RemoteReviews
    }

    @Test func singletonsBuiltInAScopeStayThere() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        registry.register(BookDetailService.self, scope: .singleton) { r in
            BookDetailScreen(reviews: try r.resolve(ReviewService.self))
        }
        let inTest = try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            try registry.resolve(BookDetailService.self).summary(ofBookWithID: 1)
        }
        let afterwards = try registry.resolve(BookDetailService.self).summary(ofBookWithID: 1)
        #expect(inTest == "Book 1: 3 reviews")
        #expect(afterwards == "Book 1: 2 reviews")  // built afresh, from the real reviews
    }

    // MARK: - The .overriding trait

    @Test(.overriding { $0.register(ReviewService.self) { _ in MockReviews() } })
    func headlineCountsTheReviews() {
        let model = ReviewsViewModel()  // its @Injected property resolves from ServiceRegistry.shared
        #expect(model.headline(forBookWithID: 42) == "3 reviews")
    }

    @Test(.overriding(TestApp.registry) { $0.register(ReviewService.self) { _ in NoReviews() } })
    func summaryOfABookWithoutReviews() throws {
        let detail = try TestApp.registry.resolve(BookDetailService.self)
        #expect(detail.summary(ofBookWithID: 7) == "Book 7: 0 reviews")
    }

    // MARK: - Parallel tests

    @Test(.overriding(TestApp.registry) { $0.register(ReviewService.self) { _ in MockReviews() } })
    func threeReviews() async throws {
        await Task.yield()
        #expect(try TestApp.registry.resolve(BookDetailService.self).summary(ofBookWithID: 1) == "Book 1: 3 reviews")
    }

    @Test(.overriding(TestApp.registry) { $0.register(ReviewService.self) { _ in NoReviews() } })
    func noReviews() async throws {
        await Task.yield()
        #expect(try TestApp.registry.resolve(BookDetailService.self).summary(ofBookWithID: 1) == "Book 1: 0 reviews")
    }

    // MARK: - Detached work

    @Test func detachedWorkNeedsTheScopeCarriedIn() async throws {
        try await TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let uncarried = try await Task.detached {
                try TestApp.registry.resolve(BookDetailService.self).summary(ofBookWithID: 42)
            }.value
            #expect(uncarried == "Book 42: 2 reviews")  // the real reviews: no override here

            let scope = OverrideScope.current
            let carried = try await Task.detached {
                try scope.run { try TestApp.registry.resolve(BookDetailService.self).summary(ofBookWithID: 42) }
            }.value
            #expect(carried == "Book 42: 3 reviews")
        }
    }

    @Test func prefetcherCallsBackWithTheMockedReviews() async {
        let reviews = await TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            await withCheckedContinuation { continuation in
                let prefetcher = ReviewsPrefetcher(registry: TestApp.registry)
                prefetcher.prefetch(bookID: 42) { continuation.resume(returning: $0) }
            }
        }
        #expect(reviews == ["Great", "Meh", "Superb"])
    }

    // MARK: - @Injected in tests

    @Test func injectedResolvesInTheScopeOfItsFirstAccess() {
        let model = ServiceRegistry.shared.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let model = ReviewsViewModel()
            _ = model.headline(forBookWithID: 1)  // first access: resolves the mock, keeps it
            return model
        }
        #expect(model.headline(forBookWithID: 1) == "3 reviews")  // still the mock it kept
    }

    // MARK: - Validating the wiring

    @Test func appWiringIsComplete() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        try registry.validate()
    }

    @Test func validationListsWhatIsMissing() throws {
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly())  // ReviewAssembly forgotten
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        // The page's text, read from the page, so the two cannot drift apart.
        let expected = try Self.pageOutput(after: "Had the composition root forgotten `ReviewAssembly`")
        #expect(expected.hasPrefix("ServiceRegistry validation failed: 1 of 1 registrations could not be built.\n"))
        #expect(error.description == expected)
    }

    @Test func bookScreenWiringIsComplete() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly())
        registry.register(BookDetailService.self) { (r, bookID: Int) in   // a screen for one book
            BookDetailScreen(reviews: try r.resolve(ReviewService.self))
        }
        let report = try registry.validate(sampleArguments: [42])   // a book id
        #expect(report.notChecked.isEmpty)
        #expect(report.built == ["TestingPage.BookDetailService (argument: Int)", "TestingPage.ReviewService"])
    }

    /// What the page says `validate()` reports without the sample, and that the sample
    /// checks the screen's wiring: without `ReviewAssembly` it fails.
    @Test func withoutASampleTheScreenIsNotCheckedAndWithOneItsMistakesAreFound() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly())
        registry.register(BookDetailService.self) { (r, bookID: Int) in
            BookDetailScreen(reviews: try r.resolve(ReviewService.self))
        }
        let notChecked = try Self.pageOutput(after: "Without the sample, `validate()` passes, and its report's description ends:")
        #expect(notChecked.hasPrefix("Not checked (its factory takes an argument"))
        #expect(try registry.validate().description.hasSuffix(" " + notChecked))
        #expect(registry.dependencyGraph().node("TestingPage.BookDetailService <Int>")?.status == .notChecked)
        #expect(registry.dependencyGraph(sampleArguments: [42]).edges.map(\.to) == ["TestingPage.ReviewService"])

        let incomplete = ServiceRegistry()
        incomplete.register(BookDetailService.self) { (r, bookID: Int) in
            BookDetailScreen(reviews: try r.resolve(ReviewService.self))
        }
        #expect(throws: Never.self) { try incomplete.validate() }
        #expect(throws: ValidationError.self) { try incomplete.validate(sampleArguments: [42]) }
    }

    @Test func wiringIsCompleteWithTheNetworkMocked() throws {
        let report = try TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            try TestApp.registry.validate()
        }
        #expect(report.notChecked.isEmpty)
    }

    // MARK: - Reading the graph

    @Test func graphRendersForATerminal() throws {
        // The page prints it; here the printed text is checked.
        let graph = TestApp.registry.dependencyGraph()
        let expected = try Self.pageOutput(after: "For a terminal, print `textTree`:")
        #expect(expected.hasPrefix("TestingPage.BookDetailService ["))
        #expect(graph.textTree == expected + "\n")
    }

    @Test func graphRendersAsDOT() throws {
        let dot = TestApp.registry.dependencyGraph().dot
        let expected = try Self.pageOutput(after: "For a picture, render `dot` with Graphviz")
        #expect(expected.hasPrefix("digraph ServiceRegistry {\n"))
        #expect(dot == expected + "\n")
    }

    @Test func bookDetailDependsOnlyOnReviews() throws {
        let graph = TestApp.registry.dependencyGraph()
        let detail = try #require(graph.nodes.first { $0.serviceType == "TestingPage.BookDetailService" })
        #expect(graph.dependencies(of: detail).map(\.node.serviceType) == ["TestingPage.ReviewService"])
    }
}

// MARK: - The page's quoted output

extension TestingExamples {
    /// The page's types, which this target names with the namespace that stands in for
    /// the page's modules.
    static let pageTypes = ["BookDetailService", "ReviewService", "BookDetailAssembly", "ReviewAssembly"]

    /// The ```text block of Docs/Testing.md that follows the first line containing
    /// `marker`, without its indentation (a list item's) or the newline after its last line,
    /// and with the page's types named as this target names them (`TestingPage.ReviewService`).
    static func pageOutput(after marker: String) throws -> String {
        let lines = try MirrorCoverageTests.read("Docs/Testing.md").split(separator: "\n", omittingEmptySubsequences: false)
        let text = try textBlock(in: lines, after: marker, of: "Docs/Testing.md").joined(separator: "\n")
        return qualifying(Dictionary(uniqueKeysWithValues: pageTypes.map { ($0, "TestingPage.\($0)") }), in: text)
    }

    @Test func pageOutputReadsABlockAndNamesTheTypesAsThisTargetDoes() throws {
        #expect(try Self.pageOutput(after: "For a terminal, print `textTree`:").hasPrefix("TestingPage.BookDetailService [transient, TestingPage.BookDetailAssembly]\n"))
        #expect(throws: TextBlockNotFound.self) { try Self.pageOutput(after: "no line of the page says this") }
    }
}

// MARK: - A suite-wide trait

extension TestingPage {
    @Suite(.overriding(TestApp.registry) { $0.register(ReviewService.self) { _ in MockReviews() } })
    struct BookDetailTests {
        @Test func countsTheReviews() throws {
            let detail = try TestApp.registry.resolve(BookDetailService.self)
            #expect(detail.summary(ofBookWithID: 1) == "Book 1: 3 reviews")
        }

        @Test(.overriding(TestApp.registry) { $0.register(ReviewService.self) { _ in NoReviews() } })
        func showsZeroWithoutReviews() throws {
            let detail = try TestApp.registry.resolve(BookDetailService.self)
            #expect(detail.summary(ofBookWithID: 1) == "Book 1: 0 reviews")
        }
    }
}

// MARK: - XCTest
// Top level, because XCTest's test discovery on Linux only finds top-level classes; the
// typealiases stand in for the page's module-level types.

final class BookDetailXCTests: XCTestCase {
    typealias ReviewService = TestingPage.ReviewService
    typealias BookDetailService = TestingPage.BookDetailService
    typealias MockReviews = TestingPage.MockReviews
    typealias NoReviews = TestingPage.NoReviews
    typealias TestApp = TestingPage.TestApp

    func testSummaryCountsTheReviews() throws {
        try TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let detail = try TestApp.registry.resolve(BookDetailService.self)
            XCTAssertEqual(detail.summary(ofBookWithID: 42), "Book 42: 3 reviews")
        }
    }

    func testSummaryWithoutReviews() async throws {
        try await TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in NoReviews() }
        } operation: {
            await Task.yield()
            let detail = try TestApp.registry.resolve(BookDetailService.self)
            XCTAssertEqual(detail.summary(ofBookWithID: 42), "Book 42: 0 reviews")
        }
    }
}

/// Every test of the class runs with the mock, like a suite-wide trait.
final class MockedReviewsXCTests: XCTestCase {
    typealias ReviewService = TestingPage.ReviewService
    typealias BookDetailService = TestingPage.BookDetailService
    typealias MockReviews = TestingPage.MockReviews
    typealias TestApp = TestingPage.TestApp

    override func invokeTest() {
        TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            super.invokeTest()
        }
    }

    func testSummaryCountsTheReviews() throws {
        let detail = try TestApp.registry.resolve(BookDetailService.self)
        XCTAssertEqual(detail.summary(ofBookWithID: 42), "Book 42: 3 reviews")
    }

    func testAsyncTestsSeeTheMockToo() async throws {
        await Task.yield()
        let detail = try TestApp.registry.resolve(BookDetailService.self)
        XCTAssertEqual(detail.summary(ofBookWithID: 42), "Book 42: 3 reviews")
    }
}

/// "A synchronous XCTest test runs on the main thread, outside any task": main-queue work
/// that runs while the test waits inside a synchronous scope runs on the scope's thread and
/// sees the overrides, whichever code sent it; work sent to another queue does not.
final class MainQueueWorkInASynchronousXCTestScope: XCTestCase {
    typealias ReviewService = TestingPage.ReviewService
    typealias BookDetailService = TestingPage.BookDetailService
    typealias NoReviews = TestingPage.NoReviews
    typealias TestApp = TestingPage.TestApp

    /// The summary the work on each queue read.
    private final class Seen: Sendable {
        let summaries = Mutex<[String: String]>([:])
    }

    func testMainQueueWorkRunWhileTheTestWaitsSeesTheOverridesAndOtherQueuesDoNot() {
        let seen = Seen()
        @Sendable func summary(from queue: String) {
            let summary = (try? TestApp.registry.resolve(BookDetailService.self).summary(ofBookWithID: 1)) ?? "none"
            seen.summaries.withLock { $0[queue] = summary }
        }
        TestApp.registry.withOverrides {
            $0.register(ReviewService.self) { _ in NoReviews() }
        } operation: {
            let onMain = expectation(description: "main queue")
            let onGlobal = expectation(description: "global queue")
            DispatchQueue.main.async {
                summary(from: "main")
                onMain.fulfill()
            }
            DispatchQueue.global().async {
                summary(from: "global")
                onGlobal.fulfill()
            }
            wait(for: [onMain, onGlobal], timeout: 20)
        }
        XCTAssertEqual(seen.summaries.withLock { $0 }, ["main": "Book 1: 0 reviews", "global": "Book 1: 2 reviews"])
    }
}

// MARK: - The page's prose, run

extension TestingExamples {
    /// "Nothing leaks out": "even a singleton of another registry whose factory reaches this
    /// one directly" is built afresh in the scope, and the real one after it.
    @Test func aSingletonOfAnotherRegistryReachingThisOneIsBuiltAfreshInTheScope() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        let other = ServiceRegistry()
        other.register(BookDetailService.self, scope: .singleton) { [registry] _ in
            BookDetailScreen(reviews: try registry.resolve(ReviewService.self))
        }
        let inScope = try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            try other.resolve(BookDetailService.self).summary(ofBookWithID: 1)
        }
        #expect(inScope == "Book 1: 3 reviews")
        #expect(try other.resolve(BookDetailService.self).summary(ofBookWithID: 1) == "Book 1: 2 reviews")
    }

    /// Validation of a factory that resolves through the registry directly: in a shared
    /// service's factory, the failure reads as through `r` (`notRegistered`, with the path
    /// through the shared service); in any other, it is `factoryFailed`, with the registry's
    /// error as `underlyingError`, whose path starts at the shared service being built, if
    /// any, otherwise at the missing service.
    @Test(arguments: [Scope.singleton, .weak, .transient, .graph])
    func aMissingDependencyResolvedThroughTheRegistryFailsValidationAsThePageSays(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self, scope: scope) { [registry] _ in
            BookDetailScreen(reviews: try registry.resolve(ReviewService.self))
        }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        let failure = try #require(error.failures.first?.error)
        if scope == .singleton || scope == .weak {
            #expect(failure.reason == .notRegistered)
            #expect(failure.path == ["TestingPage.BookDetailService", "TestingPage.ReviewService"])
        } else {
            #expect(failure.reason == .factoryFailed)
            #expect(failure.path == ["TestingPage.BookDetailService"])
            #expect((failure.underlyingError as? ResolutionError)?.path == ["TestingPage.ReviewService"])
        }
    }

    /// ... "(also one resolved through `r` while a shared service is built)": its
    /// underlying error's path starts at the shared service being built.
    @Test func aTransientBuiltForASharedServiceFailsFromTheSharedService() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { [registry] _ in
            BookDetailScreen(reviews: try registry.resolve(ReviewService.self))
        }
        registry.register(String.self, scope: .singleton) { r in
            try r.resolve(BookDetailService.self).summary(ofBookWithID: 1)
        }
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        let failure = try #require(error.failures.first { $0.registration == "String" }?.error)
        #expect(failure.reason == .factoryFailed)
        #expect(failure.path == ["String", "TestingPage.BookDetailService"])
        #expect((failure.underlyingError as? ResolutionError)?.path == ["String", "TestingPage.ReviewService"])
    }

    /// "Like `validate()`, `dependencyGraph()` runs the factories, in isolation: the
    /// registry's caches are untouched" (and a singleton validation built is never the one a
    /// later resolve returns).
    @Test func validationAndTheGraphLeaveTheCachesUntouched() throws {
        let registry = ServiceRegistry()
        let built = Mutex(0)
        registry.register(ReviewService.self, scope: .singleton) { _ in
            built.withLock { $0 += 1 }
            return RemoteReviewsCounted()
        }
        _ = try registry.validate()
        _ = registry.dependencyGraph()
        #expect(built.withLock { $0 } == 2)
        _ = try registry.resolve(ReviewService.self)
        #expect(built.withLock { $0 } == 3, "the first resolve builds its own")
    }

    private struct RemoteReviewsCounted: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { [] }
    }
}
