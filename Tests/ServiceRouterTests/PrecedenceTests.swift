import ServiceRouter
import Testing

@Suite("Precedence")
struct PrecedenceTests {
    /// Registers `patterns` in the given order and in reverse, and checks that both routers
    /// pick the same winner: registration order must never decide.
    func winner(of url: String, among patterns: [String]) throws -> String {
        let forward = try makeEchoRouter(patterns).open(url, as: String.self)
        let backward = try makeEchoRouter(patterns.reversed()).open(url, as: String.self)
        #expect(forward == backward, "registration order changed the winner for \(url)")
        return forward
    }

    static let ladder = [
        "weread://book/latest", "weread://book/:id(int)", "weread://book/:slug", "weread://book/*rest",
    ]

    @Test func literalBeatsTypedBeatsPlainBeatsWildcard() throws {
        #expect(try winner(of: "weread://book/latest", among: Self.ladder) == "weread://book/latest")
        #expect(try winner(of: "weread://book/42", among: Self.ladder) == "weread://book/:id(int)")
        #expect(try winner(of: "weread://book/moby-dick", among: Self.ladder) == "weread://book/:slug")
        #expect(try winner(of: "weread://book/42/reviews", among: Self.ladder) == "weread://book/*rest")
    }

    @Test func exactEndBeatsAWildcardMatchingNothing() throws {
        let patterns = ["weread://book", "weread://book/*"]
        #expect(try winner(of: "weread://book", among: patterns) == "weread://book")
        #expect(try winner(of: "weread://book/1", among: patterns) == "weread://book/*")
        #expect(try winner(of: "weread://web", among: ["weread://web/*"]) == "weread://web/*")
    }

    @Test func earlierSegmentsDecideBeforeLaterOnes() throws {
        let patterns = ["weread://a/:x/c", "weread://a/b/:y", "weread://:z/b/c"]
        #expect(try winner(of: "weread://a/b/c", among: patterns) == "weread://a/b/:y")
        #expect(try winner(of: "weread://a/q/c", among: patterns) == "weread://a/:x/c")
        #expect(try winner(of: "weread://q/b/c", among: patterns) == "weread://:z/b/c")
    }

    /// `any` sorts before `int`, so the trie explores the `any` edge first. Whichever edge
    /// the better route is under, it must compare what both edges found: neither keep the
    /// first edge's find as it is nor let the later edge's replace it.
    @Test(arguments: [
        // The better route for `/5/end` under the edge explored second…
        (
            ["weread://a/:n(int)/end", "weread://a/:m(any)/:tail"],
            [
                ("weread://a/5/end", "weread://a/:n(int)/end"), ("weread://a/5/other", "weread://a/:m(any)/:tail"),
                ("weread://a/x/end", "weread://a/:m(any)/:tail"),
            ]
        ),
        // …and under the edge explored first.
        (
            ["weread://a/:m(any)/end", "weread://a/:n(int)/:tail"],
            [("weread://a/5/end", "weread://a/:m(any)/end"), ("weread://a/5/other", "weread://a/:n(int)/:tail")]
        ),
    ])
    func betweenTypedEdgesTheDeeperSegmentsDecide(patterns: [String], winners: [(url: String, pattern: String)]) throws {
        let any = ParameterType(name: "any", description: "anything") { !$0.isEmpty }
        for order in [patterns, patterns.reversed()] {
            let router = try makeEchoRouter(order, configuration: .init(parameterTypes: [any]))
            for (url, pattern) in winners {
                #expect(try router.open(url, as: String.self) == pattern, "\(url) among \(order)")
            }
        }
    }

    @Test func aBacktrackedLiteralBranchFallsBackToParameters() throws {
        let patterns = ["weread://a/b/c", "weread://a/:x/d"]
        #expect(try winner(of: "weread://a/b/d", among: patterns) == "weread://a/:x/d")
    }

    @Test func moreSpecificQueryRequirementsWinOnTheSamePath() throws {
        let patterns = [
            "weread://book/:id", "weread://book/:id?tab=:tab", "weread://book/:id?tab=reviews",
            "weread://book/:id?tab=:tab(int)",
        ]
        #expect(try winner(of: "weread://book/1?tab=reviews", among: patterns) == "weread://book/:id?tab=reviews")
        #expect(try winner(of: "weread://book/1?tab=3", among: patterns) == "weread://book/:id?tab=:tab(int)")
        #expect(try winner(of: "weread://book/1?tab=notes", among: patterns) == "weread://book/:id?tab")
        #expect(try winner(of: "weread://book/1?other=1", among: patterns) == "weread://book/:id")
        #expect(try winner(of: "weread://book/1?tab=", among: patterns) == "weread://book/:id")
    }

    @Test func fragmentRequirementsRankLikeQueryRequirements() throws {
        let patterns = ["weread://book/:id", "weread://book/:id#reviews", "weread://book/:id#:section"]
        #expect(try winner(of: "weread://book/1#reviews", among: patterns) == "weread://book/:id#reviews")
        #expect(try winner(of: "weread://book/1#notes", among: patterns) == "weread://book/:id#:section")
        #expect(try winner(of: "weread://book/1", among: patterns) == "weread://book/:id")
    }

    @Test func priorityBreaksTiesBetweenEquallySpecificRoutes() throws {
        for (first, second) in [(0, 5), (5, 0)] {
            let router = ServiceRouter(registry: makeRegistry())
            try router.register("weread://book/:id", priority: first) { (_: any Greeter, _) in "priority \(first)" }
            try router.register("weread://book/:slug", priority: second) { (_: any Greeter, _) in "priority \(second)" }
            #expect(try router.open("weread://book/x", as: String.self) == "priority 5")
        }
    }

    @Test func priorityNeverOverridesSpecificity() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id", priority: 1_000) { (_: any Greeter, _) in "plain" }
        try router.register("weread://book/:id(int)") { (_: any Greeter, _) in "typed" }
        #expect(try router.open("weread://book/1", as: String.self) == "typed")
    }

    /// Routes as specific as each other, with one priority, are ordered by what they match
    /// (literal text and parameter types, piece by piece), so neither the order they were
    /// registered in nor how their parameters are named decides: `int` sorts before
    /// `string`, whichever parameter is called `a`. Ordered by their text, as they once
    /// were, renaming a parameter swapped the winner for `42`.
    @Test(arguments: [("a", "z"), ("z", "a")])
    func remainingTiesAreBrokenByWhatThePatternsMatchNotByParameterNames(intName: String, stringName: String) throws {
        let patterns = ["weread://book/:\(intName)(int)", "weread://book/:\(stringName)(string)"]
        #expect(try winner(of: "weread://book/42", among: patterns) == patterns[0])
        #expect(try winner(of: "weread://book/moby", among: patterns) == patterns[1])
    }

    @Test func samePatternAndPriorityReplacesTheEarlierRoute() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id") { (_: any Greeter, _) in "first" }
        try router.register("WEREAD://Book/:id") { (_: any Greeter, _) in "second" }
        #expect(router.routeCount == 1)
        #expect(try router.open("weread://book/1", as: String.self) == "second")
        try router.register("weread://book/:id", priority: 1) { (_: any Greeter, _) in "third" }
        #expect(router.routeCount == 2)
    }

    @Test func hostMayBeAParameterOrWildcard() throws {
        let patterns = ["weread://:screen", "weread://*", "weread://shelf"]
        #expect(try winner(of: "weread://shelf", among: patterns) == "weread://shelf")
        #expect(try winner(of: "weread://settings", among: patterns) == "weread://:screen")
        #expect(try winner(of: "weread://settings/fonts", among: patterns) == "weread://*")
    }

    @Test func schemesAndAuthorityFormsNeverMix() throws {
        let router = try makeEchoRouter(["weread://book/:id", "other://book/:id", "weread:book/:id"])
        #expect(try router.open("other://book/1", as: String.self) == "other://book/:id")
        #expect(try router.open("weread:book/1", as: String.self) == "weread:book/:id")
        #expect(try router.open("weread://book/1", as: String.self) == "weread://book/:id")
    }
}
