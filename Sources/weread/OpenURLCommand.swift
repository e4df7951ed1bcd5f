import ServiceRegistry
import ServiceRouter
import WeReadInterfaces

/// WeRead's deep links: each screen opened by URL, against services resolved from the
/// registry only when a link is opened.
///
/// | link | screen | service |
/// |---|---|---|
/// | `weread://book/42` | a book's detail screen | `BookDetailService` (built for the id) |
/// | `weread://book/42/reviews` | all of a book's reviews | `ReviewService` (and `CatalogService` for the title) |
/// | `weread://book/42/read` | start or resume reading | `ReadingService` |
/// | `weread://search?q=austen` | books matching the text | `CatalogService` |
/// | `weread://shelf` | the reader's shelf | `BookshelfService` |
///
/// A `from` query item (`?from=push`) is accepted by every link and echoed, as an app
/// would log where a link came from, with its invisible characters spelled out
/// (``TextLayout/visible(_:)``); an empty one is ignored.
enum WeReadRoutes {
    /// A book id: a whole number from 1. Declared as a parameter type so that
    /// `weread://book/0` and `weread://book/abc` are refused while matching, with a message
    /// saying what a book id looks like, before any service is built.
    static let bookID = ParameterType(name: "bookID", description: "a book id (a whole number from 1)") { text in
        BookID(parsing: text) != nil
    }

    /// Creates WeRead's router on `registry`. Registers routes only: nothing is resolved.
    ///
    /// - Parameter registry: The registry with WeRead's components installed.
    /// - Returns: A router that opens WeRead's screens.
    static func makeRouter(registry: ServiceRegistry) -> ServiceRouter {
        let router = ServiceRouter(registry: registry, configuration: .init(parameterTypes: [bookID]))
        do {
            try register(on: router)
        } catch {
            // The patterns are literals in this file; an invalid one is a bug found by the
            // first test that builds the router, so it cannot reach a user.
            fatalError("WeRead's routes are invalid: \(error)")
        }
        return router
    }

    /// Registers WeRead's routes on `router`, whose configuration must know ``bookID``.
    ///
    /// - Parameter router: The router to register on.
    /// - Throws: ``RouteError`` if a pattern is invalid.
    static func register(on router: ServiceRouter) throws(RouteError) {
        try router.register("weread://book/:bookId(bookID)", argument: bookArgument) {
            (detail: any BookDetailService, request) in
            withSource(detail.render(), request)
        }
        // The screen's title comes from the catalog. Resolving it here builds nothing more:
        // the catalog is the review service's own dependency, a singleton built with it.
        let registry = router.registry
        try router.register("weread://book/:bookId(bookID)/reviews") { (reviews: any ReviewService, request) in
            let screen = try Screens.reviews(
                of: try bookArgument(request), reviews: reviews, catalog: registry.resolve(CatalogService.self))
            return withSource(screen.joined(separator: "\n"), request)
        }
        try router.register("weread://book/:bookId(bookID)/read") { (reading: any ReadingService, request) in
            withSource(Screens.reading(try reading.startReading(try bookArgument(request))), request)
        }
        try router.register("weread://search?q=:text") { (catalog: any CatalogService, request) in
            let text = try request.parameters.string("text").trimmingWhitespace()
            guard !text.isEmpty else { throw SearchLinkProblem.noText }
            let matches = catalog.search(text)
            guard !matches.isEmpty else { throw SearchLinkProblem.noMatch(text) }
            return withSource(TextLayout.searchResult(matches, for: text).joined(separator: "\n"), request)
        }
        try router.register("weread://shelf") { (shelf: any BookshelfService, request) in
            withSource(Screens.shelf(shelf).joined(separator: "\n"), request)
        }
    }

    /// The `BookID` argument `BookDetailService` is registered with. The `bookID` type
    /// has already checked the text, so the conversion cannot fail here.
    @Sendable static func bookArgument(_ request: RouteRequest) throws -> BookID {
        BookID(try request.parameters.int("bookId"))
    }

    private static func withSource(_ text: String, _ request: RouteRequest) -> String {
        // `?from=` names no source: echoing it would print "(opened from )".
        guard let source = request.query("from")?.trimmingWhitespace(), !source.isEmpty else { return text }
        return text + "\n(opened from \(TextLayout.visible(source)))"
    }
}

/// Why a search link opened no screen: the same two cases `weread search` refuses.
enum SearchLinkProblem: Error {
    /// The `q` text is only spaces.
    case noText
    /// No book's title or author contains the text.
    case noMatch(String)
}

/// `weread open-url <url>`: opens `url` as an external link (as if it came from a push
/// notification or a web page) through WeRead's router.
///
/// ```text
/// $ weread open-url 'weread://book/42?from=push'
/// The Hitchhiker's Guide to the Galaxy
/// ...
/// (opened from push)
/// ```
///
/// - Parameters:
///   - url: The link, e.g. `weread://book/42?from=push`.
///   - registry: The registry with WeRead's components installed.
/// - Returns: What to print (lines separated by newlines, no trailing newline) and the
///   exit status: 0 when the screen opened, 1 for a book the catalog does not have or a
///   search that matches nothing, 64 for a link weread cannot open (malformed, unknown,
///   wrong parameter, a search for only spaces), 70 when the app is wired wrong.
func openURLCommand(_ url: String, registry: ServiceRegistry) -> (output: String, exitCode: Int32) {
    let router = WeReadRoutes.makeRouter(registry: registry)
    do {
        let screen = try router.open(url, as: String.self, from: .external)
        return (screen, CommandResult.ExitCode.success.rawValue)
    } catch {
        return describe(error, router: router, registry: registry)
    }
}

/// Turns a routing failure into a message and exit status: the user's mistakes say how to
/// write a working link; wiring mistakes print the registry's own explanation.
private func describe(
    _ error: RouteError, router: ServiceRouter, registry: ServiceRegistry
) -> (output: String, exitCode: Int32) {
    func unknownBookMessage(_ unknown: UnknownBookError) -> (output: String, exitCode: Int32) {
        (CatalogCommands(registry: registry).unknownBookMessage(unknown), CommandResult.ExitCode.notFound.rawValue)
    }
    switch error.reason {
    case .serviceUnavailable(let resolution, _):
        if let unknown = CatalogCommands.unknownBook(in: resolution) { return unknownBookMessage(unknown) }
        return ("weread: \(error)", CommandResult.ExitCode.software.rawValue)
    case .handlerFailed(let underlying, _):
        if let unknown = CatalogCommands.unknownBook(in: underlying) { return unknownBookMessage(unknown) }
        if let problem = underlying as? SearchLinkProblem { return searchLinkMessage(problem) }
        return ("weread: \(error)", CommandResult.ExitCode.software.rawValue)
    case .resultTypeMismatch, .declined, .missingParameter, .invalidParameterType, .conflictingQueryItem,
        .emptyQueryItem, .conflictingFragment:
        return ("weread: \(error)", CommandResult.ExitCode.software.rawValue)
    case .malformedURL, .invalidPercentEncoding, .urlTooLong, .tooManySegments, .tooManyQueryItems,
        .schemeNotAllowed, .inAppOnly, .noRoute, .invalidParameter, .invalidPattern:
        let links = router.routes.map { "  " + $0.pattern }
        let message = ["weread: \(linkProblem(error))", "Links weread can open:"] + links
            + ["Example: weread open-url 'weread://book/42?from=push'"]
        return (message.joined(separator: "\n"), CommandResult.ExitCode.usage.rawValue)
    }
}

/// What is wrong with a link weread cannot open, said to the person who typed it.
///
/// The router's own description is kept where it speaks about the link (how it is
/// malformed, which parameter is wrong); where it speaks to the app's developer (register a
/// route, allow a scheme, raise a parsing limit, make a query item optional), weread says
/// what that means for the link.
private func linkProblem(_ error: RouteError) -> String {
    // The link is anyone's: spelled out as the router's own messages write it, so a raw
    // U+202E or U+009B (bytes a URL may carry unescaped) cannot forge the output.
    let link = error.url.map { "'\(TextLayout.visible($0))'" } ?? "the link"
    switch error.reason {
    case .noRoute, .inAppOnly:
        return "\(link) is not a link weread can open."
    case .schemeNotAllowed:
        return "\(link) is not a weread:// link; weread opens only its own links."
    case .urlTooLong(let length, let limit):
        // The link itself is left out: it is longer than anyone would read.
        return "the link is \(length) bytes long; weread opens links of at most \(limit) bytes."
    case .tooManySegments(let limit):
        return "\(link) has more than \(limit) path segments; no weread link has that many."
    case .tooManyQueryItems(let limit):
        return "\(link) has more than \(limit) query items; weread reads at most \(limit)."
    case .invalidParameter("bookId", let value?, _, _) where CommandLineParser.isTooLargeForABookID(value):
        // The router would say a book id must be a whole number from 1, which this one is.
        return "\(link): '\(value)' is too large to be a book id."
    case .invalidParameter(let name, nil, let expected, let pattern?):
        // A query item the route requires and the link lacks (`weread://search`). The router
        // goes on to tell the app's developer how to make the item optional in the pattern,
        // which the person who typed the link cannot do: they need only what it lacks.
        return "Cannot open \(link): parameter '\(name)' of route '\(pattern)' must be \(expected), but it is missing."
    default:
        return error.description
    }
}

private func searchLinkMessage(_ problem: SearchLinkProblem) -> (output: String, exitCode: Int32) {
    let example = "weread open-url 'weread://search?q=austen'"
    switch problem {
    case .noText:
        return ("weread: the search link has no text to look for.\nExample: \(example)",
                CommandResult.ExitCode.usage.rawValue)
    case .noMatch(let text):
        return (TextLayout.noMatch(text, example: example), CommandResult.ExitCode.notFound.rawValue)
    }
}


