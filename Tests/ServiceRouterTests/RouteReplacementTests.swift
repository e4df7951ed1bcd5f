import ServiceRouter
import Testing

/// A route's identity is what it matches: its pattern with the parameter names left out,
/// and its priority. Registering a route of the same identity again replaces the earlier
/// one, however its parameters are named; anything else makes a second route.
@Suite("Route replacement")
struct RouteReplacementTests {
    /// Two spellings of one route that differ only in their parameter names, a URL both
    /// match, and the values captured there, in the order both patterns list their
    /// parameters (``RoutePattern/parameterNames``).
    struct NameVariants: Sendable, CustomTestStringConvertible {
        let earlier: String
        let later: String
        let url: String
        let values: [String]
        var testDescription: String { "\(earlier) and \(later)" }
    }

    static let nameVariants = [
        NameVariants(earlier: "weread://book/:id", later: "weread://book/:bookID", url: "weread://book/7", values: ["7"]),
        NameVariants(earlier: "weread://:screen", later: "weread://:page", url: "weread://shelf", values: ["shelf"]),
        NameVariants(earlier: "weread://book/:id(int)", later: "weread://book/:n(int)", url: "weread://book/7", values: ["7"]),
        NameVariants(earlier: "weread://web/*rest", later: "weread://web/*path", url: "weread://web/a/b", values: ["a/b"]),
        NameVariants(earlier: "weread://web/*", later: "weread://web/*path", url: "weread://web/a/b", values: ["a/b"]),
        NameVariants(earlier: "weread://search?q=:text", later: "weread://search?q=:query", url: "weread://search?q=emma", values: ["emma"]),
        NameVariants(earlier: "weread://search?q", later: "weread://search?q=:term", url: "weread://search?q=emma", values: ["emma"]),
        NameVariants(
            earlier: "weread://search?page=:p(int)", later: "weread://search?page=:number(int)", url: "weread://search?page=2",
            values: ["2"]),
        NameVariants(earlier: "weread://shelf#:section", later: "weread://shelf#:part", url: "weread://shelf#top", values: ["top"]),
        NameVariants(
            earlier: "weread://book/:id(int)/notes/*rest?sort=:order#:anchor",
            later: "WEREAD://Book/:bookID(int)/notes/*?sort=:by#:at",
            url: "weread://book/7/notes/a/b?sort=new#n1",
            values: ["7", "a/b", "new", "n1"]
        ),
    ]

    /// Whichever spelling comes last replaces the other, as registering one pattern twice
    /// does: its handler answers, reading its own parameter names, and the listing and the
    /// request show its pattern. Both orders are tried, so the canonical text (which once
    /// ranked the two as separate routes) cannot be what picks the survivor.
    @Test(arguments: nameVariants)
    func aPatternDifferingOnlyInParameterNamesReplacesTheEarlierRoute(variants: NameVariants) throws {
        for (earlier, later) in [(variants.earlier, variants.later), (variants.later, variants.earlier)] {
            let router = ServiceRouter(registry: makeRegistry())
            try router.register(earlier) { (_: any Greeter, request) in "earlier \(request.parameters)" }
            try router.register(later) { (_: any Greeter, request) in
                try request.parameters.names.map { "\($0)=\(try request.parameters.string($0))" }.joined(separator: ",")
            }
            let laterPattern = try RoutePattern(later)
            let expected = zip(laterPattern.parameterNames, variants.values).map { "\($0)=\($1)" }.joined(separator: ",")

            #expect(router.routeCount == 1, "\(earlier) then \(later)")
            #expect(router.routes.map(\.pattern) == [laterPattern.description], "\(earlier) then \(later)")
            #expect(try router.open(variants.url, as: String.self) == expected, "\(earlier) then \(later)")
            let request = try router.match(variants.url)
            #expect(request.pattern == laterPattern.description)
            #expect(request.parameters.names == laterPattern.parameterNames)
        }
    }

    /// Pairs that match other URLs, or rank differently, stay two routes, as before: a
    /// type, a literal, a query item's name or literal value, the fragment, a parameter
    /// against a wildcard, or the priority.
    @Test(arguments: [
        ("weread://book/:id(int)", 0, "weread://book/:id(uuid)", 0),
        ("weread://book/:id(int)", 0, "weread://book/:id", 0),
        ("weread://book/:id", 0, "weread://books/:id", 0),
        ("weread://book/:id", 0, "weread://book/*id", 0),
        ("weread://book/:id", 0, "weread://book/:id/reviews", 0),
        ("weread://tab?name=reviews", 0, "weread://tab?name=notes", 0),
        ("weread://tab?name=reviews", 0, "weread://tab?name=:name", 0),
        ("weread://search?q=:text", 0, "weread://search?query=:text", 0),
        ("weread://shelf#top", 0, "weread://shelf#:section", 0),
        ("weread://shelf#:section", 0, "weread://shelf#:section(int)", 0),
        ("weread://shelf#:section", 0, "weread://shelf", 0),
        ("weread://book/:id", 0, "weread://book/:bookID", 1),
        ("weread://book/:id", -1, "weread://book/:id", 0),
    ])
    func patternsDifferingInMoreThanParameterNamesStayTwoRoutes(first: String, firstPriority: Int, second: String, secondPriority: Int) throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register(first, priority: firstPriority) { (_: any Greeter, _) in "first" }
        try router.register(second, priority: secondPriority) { (_: any Greeter, _) in "second" }
        #expect(router.routeCount == 2)
        let listed = router.routes.map { "\($0.pattern) \($0.priority)" }.sorted()
        let registered = [
            "\(try RoutePattern(first).description) \(firstPriority)", "\(try RoutePattern(second).description) \(secondPriority)",
        ].sorted()
        #expect(listed == registered)
    }

    /// Of two name variants with different priorities, the higher one answers, whichever
    /// was registered last: priority orders them on purpose, so neither replaces the other.
    @Test func nameVariantsWithDifferentPrioritiesRankByPriority() throws {
        for (first, second) in [(("weread://book/:id", 1), ("weread://book/:bookID", 0)), (("weread://book/:bookID", 0), ("weread://book/:id", 1))] {
            let router = ServiceRouter(registry: makeRegistry())
            try router.register(first.0, priority: first.1) { (_: any Greeter, request) in request.pattern ?? "" }
            try router.register(second.0, priority: second.1) { (_: any Greeter, request) in request.pattern ?? "" }
            #expect(try router.open("weread://book/7", as: String.self) == "weread://book/:id")
        }
    }

    /// The replacing route's in-app-only flag is the one that counts, for the route and for
    /// whether outside URLs may use its scheme at all.
    @Test func aReplacingNameVariantDecidesWhetherOutsideURLsMayOpenTheRoute() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id") { (_: any Greeter, _) in "public" }
        #expect(router.canOpen("weread://book/7", from: .external))
        try router.register("weread://book/:bookID", inAppOnly: true) { (_: any Greeter, _) in "in-app" }
        #expect(!router.canOpen("weread://book/7", from: .external))
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://book/7", from: .external) }) == "schemeNotAllowed")
        #expect(try router.open("weread://book/7", as: String.self) == "in-app")
        try router.register("weread://book/:n") { (_: any Greeter, _) in "public again" }
        #expect(try router.open("weread://book/7", as: String.self, from: .external) == "public again")
        #expect(router.routeCount == 1)
    }

    /// `url(for:)` builds from the text it is given, whatever is registered: the replaced
    /// spelling, with its own names, still makes a URL, which opens the route that replaced
    /// it. (`:bookID` sorts before `:id`, so ranking the two by their text, as the router
    /// once did, sent the URL to the replaced route.)
    @Test func theReplacedSpellingStillBuildsURLsForTheReplacingRoute() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:bookID(int)") { (_: any Greeter, _) in "old" }
        try router.register("weread://book/:id(int)") { (_: any Greeter, request) in "new \(try request.parameters.int("id"))" }
        let url = try router.url(for: "weread://book/:bookID(int)", parameters: ["bookID": 7])
        #expect(url == "weread://book/7")
        #expect(try router.open(url, as: String.self) == "new 7")
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.url(for: "weread://book/:bookID(int)", parameters: ["id": 7]) }) == "missingParameter")
    }
}
