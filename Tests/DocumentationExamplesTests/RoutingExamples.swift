// Mirrors the code in Docs/Routing.md, so the page cannot drift from the API.
// The page's interfaces module and components are stood in for by one namespace, since a
// test target is a single module; the code inside the tests is the page's, section by
// section, with checks of what its comments claim.
import Foundation
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

    // MARK: 2. Showing a screen

    @MainActor
    final class Navigator {
        private(set) var shown: [String] = []
        func show(_ page: String) { shown.append(page) }
    }

    @MainActor
    static func openDeepLink(_ url: String, router: ServiceRouter, navigator: Navigator) {
        do {
            navigator.show(try router.open(url, as: String.self))
        } catch {
            navigator.show("WeRead cannot open \(url): \(error)")
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

    /// Section 2: a handler returns the page, and main-actor code shows it, or the error.
    @MainActor @Test func aScreenIsShownWhereItsURLIsOpened() throws {
        let (_, router) = try Self.sectionOne()
        let navigator = RoutingDocs.Navigator()
        RoutingDocs.openDeepLink("weread://book/42", router: router, navigator: navigator)
        RoutingDocs.openDeepLink("weread://book/forty-two", router: router, navigator: navigator)
        #expect(navigator.shown.count == 2)
        #expect(navigator.shown.first == "Book 42")
        #expect(navigator.shown.last?.hasPrefix("WeRead cannot open weread://book/forty-two: ") == true)
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

// MARK: - The page's prose, run

extension RoutingExamples {
    /// A router on section 1's registry whose routes return what they captured.
    static func echoRouter(_ patterns: [String], configuration: ServiceRouter.Configuration = .init()) throws -> ServiceRouter {
        let (registry, _) = try sectionOne()
        let router = ServiceRouter(registry: registry, configuration: configuration)
        for pattern in patterns {
            try router.register(pattern) { (catalog: any CatalogService, request) in
                let captured = request.parameters.names.sorted().map { "\($0)=\(request.parameters[$0] ?? "")" }
                return ([request.pattern ?? "-"] + captured).joined(separator: " ")
            }
        }
        return router
    }

    /// The reason of the `RouteError` that `body` throws, if it throws one.
    static func reason(_ body: () throws -> Void) -> RouteError.Reason? {
        do {
            try body()
            return nil
        } catch {
            return (error as? RouteError)?.reason
        }
    }

    /// Section 3's table and the rules under it.
    @Test func patternSyntaxAndURLReadingAsThePageSays() throws {
        let router = try Self.echoRouter([
            "weread://book/:bookId(int)", "weread://reviews/%E7%BA%A2", "weread://x/a%3Ab",
            "weread://web/*path", "weread://search?q", "weread://list?page=:page(int)", "weread://tabs?tab=reviews",
            "weread://doc#:section", "weread://caf%C3%A9/:id",
        ])
        // The host, any ASCII case; only ASCII letters are lowercased.
        #expect(try router.open("weread://BOOK/42", as: String.self) == "weread://book/:bookId(int) bookId=42")
        #expect(try router.open("WEREAD://Book/42", as: String.self) == "weread://book/:bookId(int) bookId=42")
        // An IP literal is refused, in patterns and URLs alike.
        guard case .invalidPattern? = Self.reason({ _ = try RoutePattern("weread://[::1]/x") }) else {
            Issue.record("an IP literal host is refused in a pattern")
            return
        }
        guard case .malformedURL? = Self.reason({ _ = try RouteURL("weread://[::1]/x") }) else {
            Issue.record("an IP literal host is refused in a URL")
            return
        }
        // A literal segment is percent-decoded: `%E7%BA%A2` = `红`; a literal `:` as `%3A`.
        #expect(router.canOpen("weread://reviews/红"))
        #expect(router.canOpen("weread://x/a:b"))
        // `?q`: a required, non-empty query item.
        #expect(router.canOpen("weread://search?q=x"))
        #expect(!router.canOpen("weread://search?q="))
        #expect(!router.canOpen("weread://search"))
        #expect(try router.open("weread://list?page=2", as: String.self) == "weread://list?page=:page(int) page=2")
        #expect(!router.canOpen("weread://list?page=two"))
        #expect(router.canOpen("weread://tabs?tab=reviews") && !router.canOpen("weread://tabs?tab=shelf"))
        #expect(try router.open("weread://doc#intro", as: String.self) == "weread://doc#:section section=intro")
        // A raw `+` in a pattern's literal query value is refused; `?:q` is refused.
        for refused in ["weread://tabs?tab=a+b", "weread://search?:q"] {
            guard case .invalidPattern? = Self.reason({ _ = try RoutePattern(refused) }) else {
                Issue.record("\(refused) is refused")
                continue
            }
        }

        // The port is not matched; an empty one is no port.
        #expect(try RouteURL("weread://book:/42").port == nil)
        #expect(router.canOpen("weread://book:/42") && router.canOpen("weread://book:8080/42"))
        // `%2F` is a `/` inside one segment; a wildcard reads `a%2Fb/c` and `a/b/c` alike.
        #expect(try RouteURL("weread://web/a%2Fb/c").pathSegments == ["a/b", "c"])
        #expect(try router.open("weread://web/a%2Fb/c", as: String.self) == router.open("weread://web/a/b/c", as: String.self))
        // Empty segments are dropped.
        #expect(try router.match("weread://book/42/").parameters["bookId"] == "42")
        #expect(try router.match("weread://book//42").parameters["bookId"] == "42")
        // `.` and `..` are ordinary segments.
        let dots = try Self.echoRouter(["weread://file/:id"])
        #expect(try dots.open("weread://file/..", as: String.self) == "weread://file/:id id=..")
        #expect(try RouteURL("weread://book/../debug").pathSegments == ["..", "debug"])
        // Raw Unicode is accepted; query items not in the pattern are allowed.
        #expect(router.canOpen("weread://reviews/红?from=push"))
        // `+` decodes to a space in queries, `%2B` is always a plus.
        #expect(try router.match("weread://search?q=a+b").query("q") == "a b")
        #expect(try router.match("weread://search?q=a%2Bb").query("q") == "a+b")
        var literalPlus = URLParsingOptions()
        literalPlus.decodesPlusAsSpace = false
        let plusRouter = try Self.echoRouter(["weread://search?q"], configuration: .init(parsing: literalPlus))
        #expect(try plusRouter.match("weread://search?q=a+b").query("q") == "a+b")
        // Canonical equivalence: a precomposed `é` matches `e` and a combining accent, and the
        // captured value is passed on as the URL spells it.
        #expect(router.canOpen("weread://cafe%CC%81/1"))
        let accented = try Self.echoRouter(["weread://cafe%CC%81/:id"])
        #expect(accented.canOpen("weread://caf%C3%A9/1"))
        let opened = try router.open("weread://cafe%CC%81/1", as: String.self)
        #expect(opened.hasSuffix(" id=1"))
        let spelled = try accented.match("weread://caf%C3%A9/cafe%CC%81").parameters["id"]
        #expect(spelled.map { Array($0.unicodeScalars) } == Array("cafe\u{301}".unicodeScalars))
    }
}

extension RoutingExamples {
    /// Sections 3 to 7: typed parameters, custom types, precedence, fallbacks, outside URLs
    /// and URL generation, as the page's prose says they behave.
    @Test func parametersPrecedenceFallbacksAndGenerationAsThePageSays() throws {
        // `int` reads an optional `-` then digits; `+5` is refused by the type and by int(_:).
        let ints = try Self.echoRouter(["weread://n/:n(int)", "weread://s/:s"])
        #expect(ints.canOpen("weread://n/-5") && !ints.canOpen("weread://n/+5"))
        #expect(try ints.match("weread://n/-5").parameters.int("n") == -5)
        #expect(Self.reason({ _ = try ints.match("weread://s/+5").parameters.int("s") }) != nil)
        // ... "though `Int("+5")` reads it", as `value(_:as:)` does (its doc comment).
        #expect(try ints.match("weread://s/+5").parameters.value("s", as: Int.self) == 5)

        // A custom type named like a built-in or another type: register and url(for:) throw
        // invalidParameterType for every pattern.
        for types in [
            [ParameterType(name: "int", description: "mine") { _ in true }],
            [ParameterType(name: "isbn", description: "a") { _ in true }, ParameterType(name: "isbn", description: "b") { _ in true }],
            [ParameterType(name: "is-bn", description: "a") { _ in true }],
        ] {
            let (registry, _) = try Self.sectionOne()
            let router = ServiceRouter(registry: registry, configuration: .init(parameterTypes: types))
            guard case .invalidParameterType? = Self.reason({
                try router.register("weread://plain/:id") { (catalog: any CatalogService, _) in 0 }
            }) else {
                Issue.record("register refuses every pattern with \(types.map(\.name))")
                continue
            }
            guard case .invalidParameterType? = Self.reason({ _ = try router.url(for: "weread://plain", parameters: [:]) }) else {
                Issue.record("url(for:) refuses every pattern with \(types.map(\.name))")
                continue
            }
        }

        // 4. A pattern that ends where the URL ends beats a wildcard matching nothing; query
        // requirements: literal, then typed, then plain; then priority; then the text.
        let ranked = try Self.echoRouter([
            "weread://web", "weread://web/*path", "weread://q?tab=reviews", "weread://q?tab=:tab(int)", "weread://q?tab=:tab",
        ])
        #expect(try ranked.match("weread://web").pattern == "weread://web")
        #expect(try ranked.match("weread://q?tab=reviews").pattern == "weread://q?tab=reviews")
        #expect(try ranked.match("weread://q?tab=7").pattern == "weread://q?tab=:tab(int)")
        #expect(try ranked.match("weread://q?tab=x").pattern == "weread://q?tab")   // `?tab=:tab`, canonically
        try ranked.register("weread://web", priority: 0) { (catalog: any CatalogService, _) in "replaced" }
        #expect(try ranked.open("weread://web", as: String.self) == "replaced", "same pattern and priority replaces")
        #expect(ranked.routes.count == 5)
        // ... "of `weread://book/:a(int)` and `weread://book/:z(string)`, the `int` one takes
        // `weread://book/42`, and still does with the names swapped".
        for (intName, stringName) in [("a", "z"), ("z", "a")] {
            let int = "weread://book/:\(intName)(int)"
            for order in [[int, "weread://book/:\(stringName)(string)"], ["weread://book/:\(stringName)(string)", int]] {
                #expect(try Self.echoRouter(order).match("weread://book/42").pattern == int)
            }
        }
        // ... "and so does a pattern that differs from it only in its parameter names":
        // the later one wins, reads its own names, and is the one listed.
        for (earlier, later, url) in [
            ("weread://book/:id", "weread://book/:bookID", "weread://book/7"),
            ("weread://book/:id(int)", "weread://book/:n(int)", "weread://book/7"),
            ("weread://s?q=:text", "weread://s?q=:query", "weread://s?q=7"), ("weread://s?q", "weread://s?q=:query", "weread://s?q=7"),
            ("weread://f#:section", "weread://f#:part", "weread://f#7"),
            ("weread://w/*rest", "weread://w/*path", "weread://w/7"), ("weread://w/*path", "weread://w/*", "weread://w/7"),
        ] {
            let renamed = try Self.echoRouter([earlier, later])
            let canonical = try RoutePattern(later).description
            #expect(renamed.routes.map(\.pattern) == [canonical], "\(earlier) then \(later)")
            let expected = ([canonical] + (try RoutePattern(later).parameterNames.sorted().map { "\($0)=7" })).joined(separator: " ")
            #expect(try renamed.open(url, as: String.self) == expected, "\(earlier) then \(later)")
        }
        // ... "and so do name variants registered with different priorities".
        let prioritised = try Self.echoRouter(["weread://book/:id"])
        try prioritised.register("weread://book/:bookID", priority: 1) { (catalog: any CatalogService, _) in "higher" }
        #expect(prioritised.routes.count == 2)
        #expect(try prioritised.open("weread://book/7", as: String.self) == "higher")
        // ... "`url(for: "weread://book/:id", parameters: ["id": 7])` is `weread://book/7`, and
        // they open the route that replaced it".
        let replaced = try Self.echoRouter(["weread://book/:id", "weread://book/:bookID"])
        let link = try replaced.url(for: "weread://book/:id", parameters: ["id": 7])
        #expect(link == "weread://book/7")
        #expect(try replaced.open(link, as: String.self) == "weread://book/:bookID bookID=7")

        // 5. A scheme's fallback that declines passes the URL on to the global one; when
        // every fallback declines, opening fails with `declined`.
        let falling = try Self.echoRouter([])
        falling.setFallback(forScheme: "weread") { _ -> RouteOutcome<String> in .declined }
        #expect(Self.reason({ try falling.open("weread://nowhere") }).map { "\($0)" }?.hasPrefix("declined") == true)
        falling.setFallback { request in "global: \(request.url)" }
        #expect(try falling.open("weread://nowhere", as: String.self) == "global: weread://nowhere")

        // 6. From outside: by default, the schemes with a route outside URLs may open, or a
        // scheme fallback; a global fallback never receives another scheme's links.
        let outside = try Self.echoRouter(["weread://book/:id"])
        try outside.register("debug://reset", inAppOnly: true) { (catalog: any CatalogService, _) in "reset" }
        try outside.register("weread://admin", inAppOnly: true) { (catalog: any CatalogService, _) in "admin" }
        try outside.register("weread://:screen") { (catalog: any CatalogService, _) in "public" }
        outside.setFallback { _ in "global" }
        #expect(try outside.open("javascript://alert", as: String.self) == "global")
        guard case .schemeNotAllowed? = Self.reason({ try outside.open("javascript://alert", from: .external) }) else {
            Issue.record("javascript: is refused from outside")
            return
        }
        let debug = Self.reason({ try outside.open("debug://reset", from: .external) })
        guard case .schemeNotAllowed? = debug else {
            Issue.record("a scheme whose routes are all in-app only is refused from outside")
            return
        }
        // A lower-ranked public route may still take an in-app-only route's URL.
        #expect(try outside.open("weread://admin", as: String.self, from: .external) == "public")
        #expect(try outside.open("weread://admin", as: String.self) == "admin")

        // A URL without `//` after its scheme has no host, and never matches a host form;
        // the noRoute error says so.
        let hostless = try Self.echoRouter(["weread://book/:bookId", "mailto:*to"])
        #expect(try hostless.match("mailto:someone@example.com").parameters.wildcard == "someone@example.com")
        do {
            _ = try hostless.match("weread:/book/42")
            Issue.record("a URL of the other form matches nothing")
        } catch {
            #expect("\(error.reason)" == "noRoute")
            #expect(error.description.contains("every route of 'weread' is written with a host"))
        }

        // 7. url(for:) throws rather than hand out a URL that would not open as given.
        let (_, router) = try Self.sectionOne()
        let refusals: [(pattern: String, parameters: [String: any CustomStringConvertible], query: [QueryItem], fragment: String?, reason: String)] = [
            ("weread://book/:bookId(int)", ["bookId": "x"], [], nil, "invalidParameter"),
            ("weread://book/:bookId(int)", [:], [], nil, "invalidParameter"),
            ("weread://book/:bookId(int)", ["bookId": 1, "other": 2], [], nil, "missingParameter"),
            ("weread://:screen", ["screen": "Book"], [], nil, "invalidParameter"),
            ("weread://web/*path", ["path": "a//b"], [], nil, "invalidParameter"),
            ("weread://web/*path", ["path": "a/"], [], nil, "invalidParameter"),
            ("weread://search?q=:text", ["text": "a"], [QueryItem(name: "q", value: "b")], nil, "conflictingQueryItem"),
            ("weread://search?q=:text", ["text": "a"], [QueryItem(name: "", value: nil)], nil, "emptyQueryItem"),
            ("weread://doc#top", [:], [], "bottom", "conflictingFragment"),
        ]
        for refusal in refusals {
            let reason = Self.reason({
                _ = try router.url(
                    for: refusal.pattern, parameters: refusal.parameters, query: refusal.query, fragment: refusal.fragment)
            })
            #expect(reason.map { "\($0)" }?.hasPrefix(refusal.reason) == true, "\(refusal.pattern) \(refusal.parameters)")
        }
        // A wildcard left out matches nothing, rather than being refused as left out.
        #expect(try router.url(for: "weread://web/*path") == "weread://web")
        // An extra item with the pattern's value is written once; others are kept, in order.
        #expect(
            try router.url(
                for: "weread://search?q=:text", parameters: ["text": "a"],
                query: [QueryItem(name: "q", value: "a"), QueryItem(name: "x", value: "1"), QueryItem(name: "x", value: "2")])
                == "weread://search?q=a&x=1&x=2")
        // An item with an empty name and a value has text in a URL, and is kept.
        #expect(
            try router.url(
                for: "weread://search?q=:text", parameters: ["text": "a"],
                query: [QueryItem(name: "", value: "x"), QueryItem(name: "", value: "")])
                == "weread://search?q=a&=x&=")
    }
}

extension RoutingExamples {
    struct Unavailable: Error {}

    /// Section 2's promises about `open`, `canOpen` and `match`, and section 5's table of
    /// reasons: each row's failure gives that reason.
    @Test func everyFailureHasTheReasonThePagesTableGives() throws {
        let (registry, router) = try Self.sectionOne()
        try router.register("weread://review/:id", argument: { _ -> Int in throw Unavailable() }) {
            (detail: any BookDetailService, _) in detail.render()
        }
        try router.register("weread://user/:id") { (user: any Sendable, _) in "no such service" }
        try router.register("weread://ask/:id") { (catalog: any CatalogService, request) in
            try request.parameters.string("bookID")
        }
        try router.register("weread://fail") { (catalog: any CatalogService, _) -> String in throw Unavailable() }
        try router.register("weread://page?n=:n(int)") { (catalog: any CatalogService, _) in "page" }
        try router.register("weread://no", priority: 0) { (catalog: any CatalogService, _) -> RouteOutcome<String> in .declined }
        let small = ServiceRouter(registry: registry, configuration: .init(parsing: URLParsingOptions(maximumLength: 20)))
        try small.register("weread://x") { (catalog: any CatalogService, _) in "x" }

        let rows: [(url: String, router: ServiceRouter, reason: String)] = [
            ("book/42", router, "malformedURL"),  // no scheme
            ("weread://book/4 2", router, "malformedURL"),  // a space
            ("weread://me:secret@book/42", router, "malformedURL"),  // credentials
            ("weread://book/%4", router, "invalidPercentEncoding"),
            ("weread://book/%FF", router, "invalidPercentEncoding"),
            ("weread://x/" + String(repeating: "a", count: 20), small, "urlTooLong"),
            ("weread://nothing/here", router, "noRoute"),
            ("weread://page", router, "invalidParameter"),  // a required item is missing
            ("weread://page?n=x", router, "invalidParameter"),
            ("weread://ask/1", router, "missingParameter"),
            ("weread://user/1", router, "serviceUnavailable"),
            ("weread://fail", router, "handlerFailed"),
            ("weread://review/1", router, "handlerFailed"),  // the route's argument: closure threw
            ("weread://no", router, "declined"),
        ]
        for row in rows {
            let reason = Self.reason({ try row.router.open(row.url) })
            #expect(reason.map { "\($0)" }?.hasPrefix(row.reason) == true, "\(row.url): \(String(describing: reason))")
        }
        // The message of a missing parameter lists those the route has.
        do {
            try router.open("weread://ask/1")
        } catch {
            #expect(error.description.contains("the route has: id"))
        }
        guard case .resultTypeMismatch? = Self.reason({ _ = try router.open("weread://book/42", as: Int.self) }) else {
            Issue.record("asking for another type is a resultTypeMismatch")
            return
        }

        // canOpen knows whether the service is registered and the argument: conversion succeeds;
        // match does not consult fallbacks.
        #expect(!router.canOpen("weread://user/1"))
        #expect(!router.canOpen("weread://review/1"))
        router.setFallback { _ in "fallback" }
        #expect(router.canOpen("weread://nothing/here"))
        guard case .noRoute? = Self.reason({ _ = try router.match("weread://nothing/here") }) else {
            Issue.record("match does not consult fallbacks")
            return
        }
    }
}

extension RoutingExamples {
    /// "`ServiceRouter` ... depends on `ServiceRegistry` and otherwise on the standard library
    /// and `Synchronization` only (it parses URLs itself, without Foundation)"; the
    /// ServiceRouter catalog's landing page says the same.
    @Test func theRouterImportsOnlyTheStandardLibrarySynchronizationAndTheRegistry() throws {
        let directory = MirrorCoverageTests.packageRoot.appendingPathComponent("Sources/ServiceRouter").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "found the router's sources")
        for file in files.sorted() {
            let text = try MirrorCoverageTests.read("Sources/ServiceRouter/" + file)
            for line in text.split(whereSeparator: \.isNewline) {
                let words = line.split(whereSeparator: \.isWhitespace).drop { $0.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains($0) }
                guard words.first == "import", words.count > 1 else { continue }
                let module = words.dropFirst().last!.split(separator: ".").first.map(String.init) ?? ""
                #expect(["Swift", "Synchronization", "ServiceRegistry"].contains(module), "\(file) imports \(module)")
            }
        }
    }
}
