// Mirrors the ```swift examples in the doc comments of the public API (Sources/ServiceRegistry,
// Sources/ServiceRegistryTesting, Sources/ServiceRouter), so they keep compiling and saying
// what the code does. The examples' types (WeRead's, cut down) are stood in for by one
// namespace; a line the comment elides with `...` is written out in full here.
import ServiceRegistry
import ServiceRegistryTesting
import ServiceRouter
import Synchronization
import Testing

enum DocComments {
    protocol ReviewService: Sendable {
        func reviews() -> [String]
    }

    protocol BookDetailService: Sendable {
        var reviewCount: Int { get }
        func render() -> String
    }

    protocol ReadingService: Sendable {
        var reviewCount: Int { get }
    }

    protocol BookScreen: Sendable {
        var bookId: String { get }
        var page: Int { get }
    }

    protocol DebugService: Sendable {}

    struct ReviewServiceImpl: ReviewService {
        func reviews() -> [String] { ["Don't panic.", "Mostly harmless."] }
    }

    struct OfflineReviews: ReviewService {
        func reviews() -> [String] { [] }
    }

    struct MockReviews: ReviewService {
        static let count = 3
        func reviews() -> [String] { ["Great", "Meh", "Superb"] }
    }

    struct EmptyReviews: ReviewService {
        func reviews() -> [String] { [] }
    }

    struct FiveStarReviews: ReviewService {
        func reviews() -> [String] { ["★★★★★"] }
    }

    /// Counts the calls it passes on to the real service.
    final class CountingReviews: ReviewService {
        let real: any ReviewService
        let calls = Atomic(0)
        init(wrapping real: any ReviewService) { self.real = real }
        func reviews() -> [String] {
            calls.add(1, ordering: .relaxed)
            return real.reviews()
        }
    }

    struct BookDetailServiceImpl: BookDetailService {
        let reviews: any ReviewService
        var reviewCount: Int { reviews.reviews().count }
        func render() -> String { "\(reviewCount) reviews" }
    }

    struct BookDetailScreen: BookDetailService {
        let bookID: BookID
        var reviewCount: Int { 0 }
        func render() -> String { "Book \(bookID.rawValue)" }
    }

    struct Reader: ReadingService {
        let reviews: any ReviewService
        var reviewCount: Int { reviews.reviews().count }
    }

    struct BookScreenImpl: BookScreen {
        let bookId: String
        var page = 1
    }

    struct Debug: DebugService {}

    public struct ReviewAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        }
    }

    public struct BookDetailAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(BookDetailService.self) { r in
                BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
            }
        }
    }

    // WeRead's interfaces, cut down.
    struct BookID: Hashable, Sendable {
        let rawValue: Int
        init(_ rawValue: Int) { self.rawValue = rawValue }
    }

    struct Book: Sendable {
        let title: String
    }

    struct ShelfEntry: Sendable {
        let book: Book
    }

    protocol CatalogService: Sendable {
        func book(withID id: BookID) -> Book?
        func search(_ text: String) -> [Book]
    }

    protocol BookshelfService: Sendable {
        var entries: [ShelfEntry] { get }
    }

    struct Catalog: CatalogService {
        func book(withID id: BookID) -> Book? { id.rawValue == 42 ? Book(title: "The Hitchhiker's Guide") : nil }
        func search(_ text: String) -> [Book] { text == "adams" ? [Book(title: "The Hitchhiker's Guide")] : [] }
    }

    struct Shelf: BookshelfService {
        let entries = [ShelfEntry(book: Book(title: "The Hobbit"))]
    }

    /// A registry with the ServiceRegistry examples' services.
    static func registry() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        return registry
    }

    /// A registry with the ServiceRouter examples' services.
    static func routerRegistry() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { (_, bookID: BookID) in BookDetailScreen(bookID: bookID) }
        registry.register(CatalogService.self, scope: .singleton) { _ in Catalog() }
        registry.register(BookshelfService.self, scope: .singleton) { _ in Shelf() }
        registry.register(DebugService.self) { _ in Debug() }
        return registry
    }

    static let screenRegistry: ServiceRegistry = {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self) { r in Reader(reviews: try r.resolve(ReviewService.self)) }
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        return registry
    }()

    // Injected
    final class ReadingController {
        @Injected var detail: any BookDetailService
        @Injected(name: "offline") var reviews: any ReviewService
        @Injected(registry: screenRegistry) var reading: any ReadingService
    }

    /// `Injected` kept in a `let`, in a `Sendable` class (a namespace of its own: the name is
    /// the one `BookDetailServiceImpl` above has).
    enum InjectedInASendableClass {
        final class BookDetailServiceImpl: BookDetailService {
            private let reviews = Injected<any ReviewService>()
            var reviewCount: Int { reviews.wrappedValue.reviews().count }
            func render() -> String { "\(reviewCount) reviews" }
        }
    }

    /// Something that loads in an async test.
    struct Screen {
        let registry: ServiceRegistry
        func load() async throws {
            await Task.yield()
            #expect(try registry.resolve(BookDetailService.self).reviewCount == MockReviews.count)
        }
    }

    enum TestRegistries {
        static let app: ServiceRegistry = {
            let registry = ServiceRegistry()
            registry.install(BookDetailAssembly(), ReviewAssembly())
            return registry
        }()
    }
}

// MARK: - ServiceRegistry

@Suite struct ServiceRegistryDocCommentExamples {
    typealias ReviewService = DocComments.ReviewService
    typealias BookDetailService = DocComments.BookDetailService
    typealias BookScreen = DocComments.BookScreen
    typealias ReviewServiceImpl = DocComments.ReviewServiceImpl
    typealias BookDetailServiceImpl = DocComments.BookDetailServiceImpl
    typealias OfflineReviews = DocComments.OfflineReviews
    typealias MockReviews = DocComments.MockReviews
    typealias CountingReviews = DocComments.CountingReviews
    typealias BookScreenImpl = DocComments.BookScreenImpl
    typealias ReviewAssembly = DocComments.ReviewAssembly
    typealias BookDetailAssembly = DocComments.BookDetailAssembly

    /// ``ServiceRegistry`` and ``Resolver``.
    @Test func serviceRegistry() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
        }

        let detail = try registry.resolve(BookDetailService.self)
        #expect(detail.reviewCount == 2)
    }

    /// `register(_:name:scope:factory:)` and `resolve(_:name:)`.
    @Test func registerAndResolve() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
        }
        registry.register(ReviewService.self, name: "offline", scope: .singleton) { _ in OfflineReviews() }

        let detail = try registry.resolve(BookDetailService.self)
        let inferred: any BookDetailService = try registry.resolve()
        let offline = try registry.resolve(ReviewService.self, name: "offline")
        #expect(detail.reviewCount == 2 && inferred.reviewCount == 2 && offline.reviews().isEmpty)
    }

    /// The argument-taking `register` and `resolve(_:name:argument:)`.
    @Test func registerAndResolveWithAnArgument() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (r, bookId: String) in BookScreenImpl(bookId: bookId) }
        registry.register(BookScreen.self) { (r, args: (String, Int)) in
            BookScreenImpl(bookId: args.0, page: args.1)
        }
        let screen = try registry.resolve(BookScreen.self, argument: "42")
        let screen2 = try registry.resolve(BookScreen.self, argument: ("42", 1))
        #expect(screen.bookId == "42" && screen.page == 1)
        #expect(screen2.bookId == "42" && screen2.page == 1)
    }

    /// `makeChild()`.
    @Test func makeChild() throws {
        let registry = DocComments.registry()
        let screen = registry.makeChild()
        screen.register(ReviewService.self) { _ in OfflineReviews() }   // only in `screen`
        #expect(try screen.resolve(BookDetailService.self).reviewCount == 0)
        #expect(try registry.resolve(BookDetailService.self).reviewCount == 2)
    }

    /// ``Scope`` and ``ServiceAssembly``.
    @Test func scopeAndAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly())
        #expect(registry.isRegistered(ReviewService.self))
        let scoped = ServiceRegistry()
        scoped.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        #expect(scoped.isRegistered(ReviewService.self))
    }

    /// ``Injected``.
    @Test func injected() {
        ServiceRegistry.shared.withOverrides {
            $0.register(BookDetailService.self) { _ in BookDetailServiceImpl(reviews: MockReviews()) }
            $0.register(ReviewService.self, name: "offline") { _ in OfflineReviews() }
        } operation: {
            let controller = DocComments.ReadingController()
            #expect(controller.detail.reviewCount == MockReviews.count)
            #expect(controller.reviews.reviews().isEmpty)
            #expect(controller.reading.reviewCount == 2)
        }
    }

    /// ``Injected`` in a `Sendable` class, kept in a `let`.
    @Test func injectedInASendableClass() async {
        let detail = ServiceRegistry.shared.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let detail = DocComments.InjectedInASendableClass.BookDetailServiceImpl()
            #expect(detail.reviewCount == MockReviews.count)   // first access: resolves the mock
            return detail
        }
        // Sendable, and it keeps what it resolved: a detached task sees the same mock.
        #expect(await Task.detached { detail.render() }.value == "\(MockReviews.count) reviews")
    }

    /// ``ResolutionEvent`` and `addResolutionObserver(_:)`.
    @Test func observingResolutions() throws {
        let registry = DocComments.registry()
        let printed = Mutex<[String]>([])
        let token = registry.addResolutionObserver { event in
            printed.withLock { $0.append("\(event.outcome) \(event.serviceType) (\(event.scope))") }
        }
        _ = try registry.resolve(BookDetailService.self)
        // built ReviewService (singleton)
        // built BookDetailService (transient)
        registry.removeResolutionObserver(token)
        #expect(
            printed.withLock { $0 } == [
                "built DocComments.ReviewService (singleton)", "built DocComments.BookDetailService (transient)",
            ])

        let built = Mutex<[String]>([])
        do {
            let token = registry.addResolutionObserver { event in
                if event.outcome == .built { built.withLock { $0.append("built \(event.serviceType)") } }
            }
            defer { registry.removeResolutionObserver(token) }
            _ = try registry.resolve(BookDetailService.self)
        }
        _ = try registry.resolve(BookDetailService.self)
        #expect(built.withLock { $0 } == ["built DocComments.BookDetailService"])
    }

    /// ``OverrideRegistrar`` and both `withOverrides`.
    @Test func overrides() async throws {
        let registry = DocComments.registry()
        try registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            let detail = try registry.resolve(BookDetailService.self)   // built with MockReviews
            #expect(detail.reviewCount == MockReviews.count)
        }

        let screen = DocComments.Screen(registry: registry)
        try await registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            try await screen.load()
        }
    }

    /// ``OverrideRegistrar``: wrapping the real service.
    @Test func wrappingTheRealService() throws {
        let registry = DocComments.registry()
        let spy = try registry.withOverrides {
            let real = try registry.resolve(ReviewService.self)
            $0.register(ReviewService.self) { _ in CountingReviews(wrapping: real) }
        } operation: {
            // The real service's reviews, through the wrapper, and no cycle.
            #expect(try registry.resolve(BookDetailService.self).reviewCount == 2)
            return try #require(try registry.resolve(ReviewService.self) as? CountingReviews)
        }
        #expect(spy.reviews().count == 2)
        #expect(spy.calls.load(ordering: .relaxed) == 1)
    }

    /// ``OverrideScope``.
    @Test func carryingAnOverrideScope() async {
        let registry = DocComments.registry()
        await registry.withOverrides {
            $0.register(ReviewService.self) { _ in MockReviews() }
        } operation: {
            await withCheckedContinuation { continuation in
                let scope = OverrideScope.current
                Task.detached {
                    scope.run {
                        let reviews = try? registry.resolve(ReviewService.self)   // sees the overrides
                        #expect(reviews?.reviews().count == MockReviews.count)
                        continuation.resume()
                    }
                }
            }
        }
    }

    /// ``DependencyGraph``, `validate()` and ``ValidationReport``.
    @Test func appWiringIsComplete() throws {
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly(), ReviewAssembly())
        try registry.validate()

        let report = try registry.validate()
        #expect("\(report)" == "ServiceRegistry validation passed: 2 registrations built.")

        let graph = registry.dependencyGraph()
        #expect(
            graph.textTree.hasPrefix(
                "DocComments.BookDetailService [transient, DocComments.BookDetailAssembly]\n└── DocComments.ReviewService"))
        #expect(graph.dot.hasPrefix("digraph ServiceRegistry {"))
    }

    /// `validate(sampleArguments:)` and `dependencyGraph(sampleArguments:)`.
    @Test func sampleArgumentsCheckArgumentTakingRegistrations() throws {
        let registry = DocComments.registry()
        registry.register(BookScreen.self) { (r, bookId: String) in BookScreenImpl(bookId: bookId) }
        #expect(try registry.validate().notChecked == ["DocComments.BookScreen (argument: String)"])
        let report = try registry.validate(sampleArguments: ["42"])   // builds BookScreen from "42"
        #expect(report.notChecked.isEmpty)
        #expect(report.built.contains("DocComments.BookScreen (argument: String)"))

        let graph = registry.dependencyGraph(sampleArguments: ["42"])
        #expect(graph.textTree.contains("DocComments.BookScreen (argument: String) [transient, registered directly]\n"))
        #expect(graph.node("DocComments.BookScreen <String>")?.status == .resolved)
    }
}

// MARK: - ServiceRegistryTesting

extension DocComments {
    /// Stands in for the app, which registers the real services on `shared`; a test must not.
    @Suite(.overriding {
        $0.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self)) }
        $0.register(ReadingService.self) { r in Reader(reviews: try r.resolve(ReviewService.self)) }
    })
    struct OverridingTraitExamples {
        @Test(.overriding { $0.register(ReviewService.self) { _ in MockReviews() } })
        func detailShowsTheMockedReviews() throws {
            let detail = try ServiceRegistry.shared.resolve(BookDetailService.self)
            #expect(detail.reviewCount == MockReviews.count)
        }

        @Test(.overriding { $0.register(ReviewService.self) { _ in MockReviews() } })
        func readingScreenShowsReviews() throws {
            let screen = try ServiceRegistry.shared.resolve(ReadingService.self)
            #expect(screen.reviewCount == MockReviews.count)
        }

        @Test(.overriding(TestRegistries.app) { $0.register(ReviewService.self) { _ in MockReviews() } })
        func detailUsesTheMock() throws {
            let detail = try TestRegistries.app.resolve(BookDetailService.self)
            #expect(detail.reviewCount == MockReviews.count)
        }

        @Suite(.overriding { $0.register(ReviewService.self) { _ in EmptyReviews() } })
        struct DetailTests {
            @Test func usesTheSuiteMock() throws {
                #expect(try ServiceRegistry.shared.resolve(ReviewService.self).reviews().isEmpty)  // EmptyReviews
            }

            @Test(.overriding { $0.register(ReviewService.self) { _ in FiveStarReviews() } })
            func usesItsOwnMock() throws {
                #expect(try ServiceRegistry.shared.resolve(ReviewService.self).reviews() == ["★★★★★"])  // FiveStarReviews
            }
        }

        @Suite(.overriding {
            $0.register(ReviewService.self, scope: .singleton) { _ in MockReviews() }
            $0.register(ReviewService.self, name: "offline") { _ in MockReviews() }
        })
        struct BookDetailTests {
            @Test func bothOverridesApply() throws {
                #expect(try ServiceRegistry.shared.resolve(BookDetailService.self).reviewCount == MockReviews.count)
                #expect(try ServiceRegistry.shared.resolve(ReviewService.self, name: "offline").reviews().count == 3)
            }
        }
    }
}

// MARK: - ServiceRouter

@Suite struct ServiceRouterDocCommentExamples {
    typealias BookDetailService = DocComments.BookDetailService
    typealias CatalogService = DocComments.CatalogService
    typealias BookshelfService = DocComments.BookshelfService
    typealias BookID = DocComments.BookID

    /// ``ServiceRouter``, `register(_:argument:...)`, `open`, `canOpen` and ``URLOrigin``.
    @Test func serviceRouter() throws {
        let registry = DocComments.routerRegistry()
        let router = ServiceRouter(registry: registry)
        try router.register("weread://book/:bookId(int)", argument: { BookID(try $0.parameters.int("bookId")) }) {
            (detail: any BookDetailService, request) in detail.render()
        }
        try router.register("weread://search?q=:term") { (catalog: any CatalogService, request) in
            catalog.search(try request.parameters.string("term")).map(\.title)
        }

        try router.open("weread://book/42?from=push", from: .external)
        let page = try router.open("weread://book/42", as: String.self)   // open-for-object
        #expect(page == "Book 42")
        #expect(!router.canOpen("weread://book/oops"))                     // false, nothing built
        #expect(try router.open("weread://search?q=adams", as: [String].self) == ["The Hitchhiker's Guide"])

        try router.register("weread://debug/reset", inAppOnly: true) { (debug: any DocComments.DebugService, _) in "reset" }
        try router.open("weread://book/42", from: .external)   // a push payload or web link
        try router.open("weread://debug/reset")                 // app code: .inApp when left out
        #expect(throws: RouteError.self) { try router.open("weread://debug/reset", from: .external) }

        // `open(_:)`: a URL a handler opens inherits the origin of the one it handles.
        try router.register("weread://open?url=:target") { [weak router] (catalog: any CatalogService, request) in
            try router?.open(try request.parameters.string("target"))   // external when the request is
        }
        try router.open("weread://open?url=weread%3A%2F%2Fdebug%2Freset")
        let error = try #require(throws: RouteError.self) {
            try router.open("weread://open?url=weread%3A%2F%2Fdebug%2Freset", from: .external)
        }
        guard case .inAppOnly("weread://debug/reset") = error.reason else {
            Issue.record("expected inAppOnly, got \(error.reason)")
            return
        }
    }

    /// The plain `register`, ``RouteOutcome``, ``RouteRequest`` and ``RouteParameters``
    /// (matched, and made for a test).
    @Test func registeringHandlers() throws {
        let router = ServiceRouter(registry: DocComments.routerRegistry())
        try router.register("weread://shelf") { (shelf: any BookshelfService, request) in
            shelf.entries.map(\.book.title)
        }
        #expect(try router.open("weread://shelf", as: [String].self) == ["The Hobbit"])

        try router.register("weread://book/:bookId(int)", priority: 1) { (catalog: any CatalogService, request) -> RouteOutcome<String> in
            guard let book = catalog.book(withID: BookID(try request.parameters.int("bookId"))) else { return .declined }
            return .handled(book.title)
        }
        try router.register("weread://book/:bookId(int)") { (catalog: any CatalogService, request) in
            let id = try request.parameters.int("bookId")
            let source = request.query("from") ?? "app"
            return "\(catalog.book(withID: BookID(id))?.title ?? "?") via \(source)"
        }
        #expect(try router.open("weread://book/42", as: String.self) == "The Hitchhiker's Guide")
        #expect(try router.open("weread://book/7?from=push", as: String.self) == "? via push")

        try router.register("weread://search/:bookId(int)/*?q=:term&ratio=:ratio") { (catalog: any CatalogService, request) in
            let id = try request.parameters.int("bookId")        // Int
            let term = try request.parameters.string("term")     // String
            let rest = request.parameters.wildcard               // what `*` matched, if any
            let ratio = try request.parameters.value("ratio", as: Double.self)
            return "\(id) \(term) \(rest ?? "-") \(ratio)"
        }
        #expect(try router.open("weread://search/7/a/b?q=x&ratio=0.5", as: String.self) == "7 x a/b 0.5")

        let parameters = RouteParameters(["path": "help/faq"], wildcardName: "path")
        #expect(parameters.wildcard == "help/faq")
    }

    /// ``RouteError``.
    @Test func routeError() throws {
        let router = ServiceRouter(registry: DocComments.routerRegistry())
        try router.register("weread://book/:bookId(int)", argument: { BookID(try $0.parameters.int("bookId")) }) {
            (detail: any BookDetailService, request) in detail.render()
        }
        var printed: [String] = []
        do {
            try router.open("weread://book/abc", from: .external)
        } catch {
            if case .invalidParameter(let name, _, let expected, _) = error.reason {
                printed.append("\(name) must be \(expected)")   // "bookId must be an int"
            }
            printed.append("\(error)")   // the full explanation, including the URL
        }
        #expect(printed.first == "bookId must be an int")
        #expect(printed.last?.contains("weread://book/abc") == true)
    }

    /// Both `setFallback`.
    @Test func fallbacks() throws {
        let router = ServiceRouter(registry: DocComments.routerRegistry())
        router.setFallback(forScheme: "weread") { request in "WeRead cannot open \(request.url) yet" }
        router.setFallback { request in "Unsupported link: \(request.url)" }
        #expect(try router.open("weread://nowhere", as: String.self) == "WeRead cannot open weread://nowhere yet")

        router.setFallback(forScheme: "weread") { request -> RouteOutcome<String> in
            request.url.host == "legacy" ? .handled("Please update WeRead") : .declined
        }
        #expect(try router.open("weread://legacy", as: String.self) == "Please update WeRead")
        #expect(try router.open("weread://nowhere", as: String.self) == "Unsupported link: weread://nowhere")
    }

    /// `match(_:from:)` and ``RouteDescription``.
    @Test func matchingAndListing() throws {
        let router = ServiceRouter(registry: DocComments.routerRegistry())
        try router.register("weread://book/:bookId(int)", argument: { BookID(try $0.parameters.int("bookId")) }) {
            (detail: any BookDetailService, request) in detail.render()
        }
        try router.register("weread://book/:bookId(int)/reviews") { (catalog: any CatalogService, _) in 0 }
        try router.register("weread://debug/reset", inAppOnly: true) { (debug: any DocComments.DebugService, _) in "reset" }

        let request = try router.match("weread://book/42/reviews")
        #expect(request.pattern == "weread://book/:bookId(int)/reviews")
        #expect(request.parameters["bookId"] == "42")

        var printed: [String] = []
        for route in router.routes { printed.append("\(route)") }
        // weread://book/:bookId(int) → WeReadInterfaces.BookDetailService
        // weread://debug/reset → App.DebugService (in-app only)
        #expect(printed.first == "weread://book/:bookId(int) → DocumentationExamplesTests.DocComments.BookDetailService")
        #expect(printed.last == "weread://debug/reset → DocumentationExamplesTests.DocComments.DebugService (in-app only)")
    }

    /// ``RoutePattern``.
    @Test func routePattern() throws {
        let pattern = try RoutePattern("weread://book/:bookId(int)/reviews?sort=:order")
        let url = try pattern.url(parameters: ["bookId": 42, "order": "newest first"])
        #expect(url == "weread://book/42/reviews?sort=newest%20first")
    }

    /// `RoutePattern.url(parameters:query:)`.
    @Test func urlFromAPattern() throws {
        let pattern = try RoutePattern("weread://search?q=:term")
        #expect(try pattern.url(parameters: ["term": "红楼梦 & more"]) == "weread://search?q=%E7%BA%A2%E6%A5%BC%E6%A2%A6%20%26%20more")
    }

    /// `ServiceRouter.url(for:parameters:query:)`.
    @Test func urlFromTheRouter() throws {
        let router = ServiceRouter(registry: DocComments.routerRegistry())
        let url = try router.url(for: "weread://book/:bookId(int)", parameters: ["bookId": 42], query: [QueryItem(name: "from", value: "share")])
        #expect(url == "weread://book/42?from=share")
    }

    /// ``RouteURL``.
    @Test func routeURL() throws {
        let url = try RouteURL("weread://book/42?from=push#reviews")
        #expect(url.host == "book")
        #expect(url.pathSegments == ["42"])
        #expect("\(url.queryItems)" == "[from=push]")
        #expect(url.fragment == "reviews")
    }

    static let isbn = ParameterType(name: "isbn", description: "a 13-digit ISBN") { value in
        value.utf8.count == 13 && value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// ``ParameterType``.
    @Test func parameterType() throws {
        let registry = DocComments.routerRegistry()
        let isbn = ParameterType(name: "isbn", description: "a 13-digit ISBN") { value in
            value.utf8.count == 13 && value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
        }
        let router = ServiceRouter(registry: registry, configuration: .init(parameterTypes: [isbn]))
        try router.register("weread://isbn/:code(isbn)") { (catalog: any CatalogService, request) in
            catalog.search(try request.parameters.string("code")).map(\.title)
        }
        #expect(router.canOpen("weread://isbn/9780345391803"))
        #expect(!router.canOpen("weread://isbn/123"))
    }

    /// ``ServiceRouter/Configuration``.
    @Test func configuration() throws {
        let registry = DocComments.routerRegistry()
        let isbn = Self.isbn
        let router = ServiceRouter(
            registry: registry,
            configuration: .init(allowedExternalSchemes: ["weread", "https"], parameterTypes: [isbn])
        )
        try router.register("https://weread.example/isbn/:code(isbn)") { (catalog: any CatalogService, _) in 0 }
        #expect(router.canOpen("https://weread.example/isbn/9780345391803", from: .external))
    }

    /// ``URLParsingOptions``.
    @Test func urlParsingOptions() throws {
        let registry = DocComments.routerRegistry()
        var options = URLParsingOptions()
        options.maximumLength = 8_192            // long H5 links are expected
        options.decodesPlusAsSpace = false       // `+` in queries stays a plus sign
        let router = ServiceRouter(registry: registry, configuration: .init(parsing: options))
        try router.register("weread://search?q=:term") { (catalog: any CatalogService, request) in
            try request.parameters.string("term")
        }
        #expect(try router.open("weread://search?q=a+b", as: String.self) == "a+b")
        #expect(router.canOpen("weread://search?q=" + String(repeating: "a", count: 5_000)))
    }
}
