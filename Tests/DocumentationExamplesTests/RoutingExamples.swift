// Mirrors the code in Docs/Routing.md, so the page cannot drift from the API.
// The page's interfaces module and components are stood in for by one namespace, since a
// test target is a single module; the code inside the tests is the page's, section by
// section, with checks of what its comments claim.
import ServiceRegistry
import ServiceRouter
import Synchronization
import Testing

enum RoutingDocs {
    // MARK: 1. The services and components used on the page

    public protocol BookDetailService: Sendable {
        func render() -> String
    }

    public protocol CatalogService: Sendable {
        var books: [String] { get }
        func search(_ text: String) -> [String]
        func isHidden(_ bookID: Int) -> Bool
    }

    struct BundledCatalog: CatalogService {
        let books = ["Pride and Prejudice (Austen)", "Emma (Austen)", "Moby-Dick (Melville)"]
        func search(_ text: String) -> [String] {
            books.filter { $0.lowercased().contains(text.lowercased()) }
        }
        func isHidden(_ bookID: Int) -> Bool { bookID == 13 }
    }

    struct BookDetailScreen: BookDetailService {
        let bookID: Int
        func render() -> String { "Book \(bookID)" }
    }

    public struct CatalogAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(CatalogService.self, scope: .singleton) { _ in BundledCatalog() }
        }
    }

    public struct BookDetailAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(BookDetailService.self) { (_, bookID: Int) in BookDetailScreen(bookID: bookID) }
        }
    }
}

@Suite struct RoutingExamples {
    typealias BookDetailService = RoutingDocs.BookDetailService
    typealias CatalogService = RoutingDocs.CatalogService
    typealias CatalogAssembly = RoutingDocs.CatalogAssembly
    typealias BookDetailAssembly = RoutingDocs.BookDetailAssembly

    /// Section 1, as written: the registry and the router with its first two routes.
    static func sectionOne() throws -> (ServiceRegistry, ServiceRouter) {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly(), BookDetailAssembly())

        let router = ServiceRouter(registry: registry)

        // The service takes a resolve-time argument: `argument:` makes it from the request.
        try router.register("weread://book/:bookId(int)", argument: { try $0.parameters.int("bookId") }) {
            (detail: any BookDetailService, request) in
            detail.render()
        }

        // A service without an argument: the handler gets it and the request.
        try router.register("weread://search?q=:text") { (catalog: any CatalogService, request) in
            catalog.search(try request.parameters.string("text"))
        }
        return (registry, router)
    }

    @Test func registerAndOpen() throws {
        let (registry, router) = try Self.sectionOne()
        let resolved = Mutex<[String]>([])
        let token = registry.addResolutionObserver { event in resolved.withLock { $0.append(event.serviceType) } }
        defer { registry.removeResolutionObserver(token) }
        // "true, and nothing was built to answer"; match "built nothing".
        #expect(router.canOpen("weread://book/42"))
        #expect(router.canOpen("weread://search?q=austen"))
        _ = try router.match("weread://book/42/?from=push")
        #expect(resolved.withLock { $0 }.isEmpty)

        // 2. Open URLs
        try router.open("weread://book/42?from=push", from: .external)     // runs the handler
        let page = try router.open("weread://book/42", as: String.self)     // open-for-object
        let titles = try router.open("weread://search?q=austen", as: [String].self)

        #expect(page == "Book 42")
        #expect(titles == ["Pride and Prejudice (Austen)", "Emma (Austen)"])
        #expect(router.canOpen("weread://book/42"))            // true, and nothing was built to answer
        #expect(!router.canOpen("weread://book/forty-two"))    // false: not an int

        let request = try router.match("weread://book/42/?from=push")   // what would run, built nothing
        #expect(request.pattern == "weread://book/:bookId(int)")
        #expect(request.parameters["bookId"] == "42")
        #expect(request.query("from") == "push")
    }

    @Test func registeringAnInvalidPatternThrows() throws {
        let (_, router) = try Self.sectionOne()
        let error = #expect(throws: RouteError.self) {
            try router.register("weread://book/*/reviews") { (catalog: any CatalogService, _) in 0 }
        }
        guard case .invalidPattern? = error?.reason else {
            Issue.record("expected invalidPattern")
            return
        }
    }

    @Test func patternSyntaxAndParameters() throws {
        let (registry, router) = try Self.sectionOne()

        // 3. Pattern syntax
        try router.register("weread://shelf/*path?sort=:order#:section") { (catalog: any CatalogService, request) in
            let order = try request.parameters.string("order")    // "newest"
            let rest = request.parameters.wildcard ?? ""           // "2024/favourites"
            let section = request.parameters["section"] ?? ""      // "top"
            return "\(catalog.books.count) books, \(rest), by \(order), at \(section)"
        }
        #expect(try router.open("weread://shelf/2024/favourites?sort=newest#top", as: String.self)
            == "3 books, 2024/favourites, by newest, at top")

        let isbn = ParameterType(name: "isbn", description: "a 13-digit ISBN") { value in
            value.utf8.count == 13 && value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
        }
        let isbnRouter = ServiceRouter(registry: registry, configuration: .init(parameterTypes: [isbn]))
        try isbnRouter.register("weread://isbn/:code(isbn)") { (catalog: any CatalogService, request) in
            catalog.search(try request.parameters.string("code"))
        }
        #expect(isbnRouter.canOpen("weread://isbn/9780141439518"))
        #expect(!isbnRouter.canOpen("weread://isbn/123"))

        // 5. Errors, on the isbn router (it has no fallback)
        var printed: [String] = []
        do {
            try isbnRouter.open("weread://isbn/123", from: .external)
        } catch {
            if case .invalidParameter(let name, let value, let expected, _) = error.reason {
                printed.append("\(name) must be \(expected), got \(value ?? "nothing")")   // code must be a 13-digit ISBN, got 123
            }
            printed.append("\(error)")   // Cannot open 'weread://isbn/123': parameter 'code' of route 'weread://isbn/:code(isbn)' must be ...
        }
        #expect(printed.first == "code must be a 13-digit ISBN, got 123")
        #expect(printed.last?.hasPrefix("Cannot open 'weread://isbn/123': parameter 'code' of route 'weread://isbn/:code(isbn)' must be") == true)
    }

    @Test func precedenceDeclinesAndFallbacks() throws {
        let (_, router) = try Self.sectionOne()

        // 4. Which route wins
        try router.register("weread://book/latest") { (catalog: any CatalogService, _) in "latest" }
        try router.register("weread://book/:slug") { (catalog: any CatalogService, _) in "slug" }
        try router.register("weread://book/*rest") { (catalog: any CatalogService, _) in "anything" }

        #expect(try router.open("weread://book/latest", as: String.self) == "latest")   // literal
        #expect(try router.open("weread://book/42", as: String.self) == "Book 42")      // detail page typed (int)
        #expect(try router.open("weread://book/moby", as: String.self) == "slug")       // plain parameter
        #expect(try router.open("weread://book/42/x", as: String.self) == "anything")   // wildcard

        // 5. Declining
        try router.register("weread://book/:bookId(int)", priority: 1) { (catalog: any CatalogService, request) -> RouteOutcome<String> in
            guard catalog.isHidden(try request.parameters.int("bookId")) else { return .declined }
            return .handled("this book is hidden")
        }
        #expect(try router.open("weread://book/13", as: String.self) == "this book is hidden")
        #expect(try router.open("weread://book/42", as: String.self) == "Book 42")   // declined, next route

        // Fallbacks
        #expect(throws: RouteError.self) { try router.open("weread://nowhere") }
        router.setFallback(forScheme: "weread") { request in "WeRead cannot open \(request.url) yet" }
        router.setFallback { request in "Unsupported link: \(request.url)" }
        #expect(try router.open("weread://nowhere", as: String.self) == "WeRead cannot open weread://nowhere yet")
        #expect(try router.open("other://x", as: String.self) == "Unsupported link: other://x")
    }

    @Test func urlsFromOutside() throws {
        let (registry, _) = try Self.sectionOne()

        // 6. URLs from outside
        let strictRouter = ServiceRouter(
            registry: registry,
            configuration: .init(
                allowedExternalSchemes: ["weread"],
                parsing: URLParsingOptions(maximumLength: 2_048, maximumSegmentCount: 8)
            )
        )
        try strictRouter.register("weread://debug/reset", inAppOnly: true) { (catalog: any CatalogService, _) in "reset" }

        try strictRouter.open("weread://debug/reset")                                // app code: allowed
        #expect(!strictRouter.canOpen("weread://debug/reset", from: .external))          // false: in-app only
        #expect(!strictRouter.canOpen("https://weread.example/book/1", from: .external)) // false: scheme not allowed
    }

    @Test func generateAndListRoutes() throws {
        let (registry, router) = try Self.sectionOne()

        // 7. Generate URLs
        let link = try router.url(
            for: "weread://book/:bookId(int)/reviews",
            parameters: ["bookId": 42],
            query: [QueryItem(name: "from", value: "share sheet")]
        )
        #expect(link == "weread://book/42/reviews?from=share%20sheet")

        let search = try RoutePattern("weread://search?q=:text").url(parameters: ["text": "红楼梦 & more"])
        #expect(search == "weread://search?q=%E7%BA%A2%E6%A5%BC%E6%A2%A6%20%26%20more")
        #expect(try router.match(search).parameters["text"] == "红楼梦 & more")

        // 8. List the routes
        var listed: [String] = []
        for route in router.routes {
            listed.append("\(route)")   // weread://book/:bookId(int) → Interfaces.BookDetailService
        }
        // The page's module is `Interfaces`; here it is this test target, and the page's
        // namespace stands in for nothing more.
        #expect(listed == [
            "weread://book/:bookId(int) → DocumentationExamplesTests.RoutingDocs.BookDetailService",
            "weread://search?q=:text → DocumentationExamplesTests.RoutingDocs.CatalogService",
        ])
        // `serviceType` as written in code (as the dependency graph writes it),
        // `qualifiedServiceType` as the listing prints it.
        let detailRoute = try #require(router.routes.first)
        #expect(detailRoute.serviceType == "RoutingDocs.BookDetailService")
        #expect(detailRoute.qualifiedServiceType == "DocumentationExamplesTests.RoutingDocs.BookDetailService")
        #expect(registry.dependencyGraph().nodes.map(\.serviceType).contains(detailRoute.serviceType))
        #expect(detailRoute.serviceName == nil && detailRoute.priority == 0 && !detailRoute.isInAppOnly)
    }

    /// Section 7: "with `weread://book/new` registered too, `url(for: "weread://book/:slug",
    /// parameters: ["slug": "new"])` is `weread://book/new`, which opens the literal route."
    @Test func aGeneratedURLMayOpenAHigherRankedRoute() throws {
        let (_, router) = try Self.sectionOne()
        try router.register("weread://book/new") { (catalog: any CatalogService, _) in "literal" }
        try router.register("weread://book/:slug") { (catalog: any CatalogService, request) in
            "slug \(try request.parameters.string("slug"))"
        }
        let url = try router.url(for: "weread://book/:slug", parameters: ["slug": "new"])
        #expect(url == "weread://book/new")
        #expect(try router.open(url, as: String.self) == "literal")
        // Matched against its own pattern alone, it gives back the value it was made from.
        #expect(try RoutePattern("weread://book/:slug").url(parameters: ["slug": "new"]) == url)
    }

    /// Section 6: every URL is bounded, by default to "4,096 bytes, 32 path segments and 64
    /// query items".
    @Test func theDefaultLimits() throws {
        let options = URLParsingOptions()
        #expect(options.maximumLength == 4_096)
        #expect(options.maximumSegmentCount == 32)
        #expect(options.maximumQueryItemCount == 64)
        let (_, router) = try Self.sectionOne()
        let limits: [(url: String, limit: Int)] = [
            ("weread://book/" + String(repeating: "4", count: 4_096), 4_096),
            ("weread://book/" + Array(repeating: "a", count: 33).joined(separator: "/"), 32),
            ("weread://book/42?" + (0..<65).map { "k\($0)=v" }.joined(separator: "&"), 64),
        ]
        for (url, limit) in limits {
            let error = #expect(throws: RouteError.self) { try router.match(url) }
            switch error?.reason {
            case .urlTooLong(_, let over)?, .tooManySegments(let over)?, .tooManyQueryItems(let over)?:
                #expect(over == limit)
            default:
                Issue.record("\(url.prefix(30))... is not refused for its size: \(String(describing: error))")
            }
        }
    }
}
