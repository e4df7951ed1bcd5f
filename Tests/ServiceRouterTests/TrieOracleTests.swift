@testable import ServiceRouter
import SeededRandom
import Testing

/// Checks the trie, with its indexing and pruning, against a matcher that tries every
/// pattern one by one and sorts the matches by the precedence rule.
@Suite("Trie against a brute-force matcher")
struct TrieOracleTests {
    static let even = ParameterType(name: "even", description: "an even number") { Int($0).map { $0 % 2 == 0 } ?? false }

    static let patterns = RouterPropertyTests.patterns + [
        "weread://a/:x/c", "weread://a/b/:y", "weread://:z/b/c", "weread://a/:n(even)/:tail",
        "weread://a/:m(string)/end", "weread://a/b/c", "weread://a/*", "weread://a/:q(int)#top",
        "weread://a/:q(int)?k=v", "weread://a/:q(int)?k=:v(int)", "weread://*anything",
    ]

    @Test(arguments: [UInt64(11), 12, 13])
    func bestMatchEqualsBruteForceWinner(seed: UInt64) throws {
        let router = ServiceRouter(registry: makeRegistry(), configuration: .init(parameterTypes: [Self.even]))
        for (index, pattern) in Self.patterns.enumerated() {
            try router.register(pattern, priority: index % 3, inAppOnly: index % 5 == 4) { (_: any Greeter, request) in request.pattern }
        }
        // The brute force tries every pattern, so none may replace another in the router.
        #expect(router.routeCount == Self.patterns.count)
        let parsed = try Self.patterns.enumerated().map { index, text in
            (pattern: try RoutePattern(text, parameterTypes: [Self.even]), priority: index % 3, inAppOnly: index % 5 == 4)
        }
        var fuzzer = URLFuzzer(random: SeededGenerator(seed: seed))
        var compared = 0
        for _ in 0..<2_000 {
            let base = fuzzer.random.chance(50) ? fuzzer.routeShaped() : fuzzer.generated()
            for text in [base, fuzzer.mutated(base), base.replacingFirstHost(with: "a")] {
                guard let url = try? RouteURL(text) else { continue }
                for origin in [URLOrigin.inApp, .external] {
                    // A scheme without routes is refused from outside; the brute force finds
                    // no route for it either, so the two answers still agree.
                    let expected = parsed
                        .filter { (origin == .inApp || !$0.inAppOnly) && bruteForceMatches($0.pattern, url) }
                        .min { RoutePrecedence.precedes(($0.pattern, $0.priority), ($1.pattern, $1.priority)) }
                    let actual = try? router.match(text, from: origin)
                    #expect(actual?.pattern == expected?.pattern.canonical, "\(text) from \(origin)")
                    compared += 1
                }
            }
        }
        #expect(compared > 5_000)
    }

    /// A stored route with an identity, so that a test can tell which of two routes with
    /// one pattern and priority the trie kept.
    struct TaggedRoute: TrieRoute {
        let pattern: RoutePattern
        let priority: Int
        let tag: Int
    }

    /// Routes that share a path (they differ in query, fragment or priority) go into one
    /// sorted list, found by binary search: whatever the order they come in, the list is
    /// in precedence order, and a route that matches what a stored one matches (the same
    /// pattern but for its parameter names) with the same priority replaces it in place.
    /// The trie once scanned the list to insert, which made registering n such routes
    /// quadratic; that cost is not tested here (tests are never timed), only that the
    /// search keeps the order and the replacements exact.
    @Test(arguments: [UInt64(21), 22, 23])
    func routesSharingAPathStayInPrecedenceOrderAndReplaceTheirTwins(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Each inner list is one route's spellings, which differ only in parameter names.
        let shapes = [
            ["weread://page"], ["weread://page?id=:id", "weread://page?id", "weread://page?id=:key"],
            ["weread://page?id=:id(int)", "weread://page?id=:n(int)"], ["weread://page#top"],
            ["weread://page#:section", "weread://page#:part"],
            ["weread://page?id=:id&tab=:tab(int)", "weread://page?tab=:t(int)&id=:key"],
        ]
        let texts = shapes + (0..<40).map { ["weread://page?id=v\($0)"] } + (0..<10).map { ["weread://page?id=v\($0)&tab=t"] }
        var trie = SegmentTrie<TaggedRoute>()
        var expected: [String: TaggedRoute] = [:]
        for tag in 0..<600 {
            let shape = random.pick(Array(texts.indices))
            let route = TaggedRoute(pattern: try RoutePattern(random.pick(texts[shape])), priority: random.pick([-1, 0, 0, 3]), tag: tag)
            let key = "\(route.priority) \(shape)"
            let replaced = trie.insert(route)
            #expect(replaced?.tag == expected[key]?.tag, "inserting \(route.pattern) with priority \(route.priority)")
            expected[key] = route
        }
        let stored = trie.allRoutes
        #expect(trie.count == expected.count)
        #expect(stored.map(\.tag).sorted() == expected.values.map(\.tag).sorted())
        for (earlier, later) in zip(stored, stored.dropFirst()) {
            #expect(RoutePrecedence.precedesAtSameNode((earlier.pattern, earlier.priority), (later.pattern, later.priority)))
        }
    }
}

extension String {
    /// The URL with its host replaced, to aim generated URLs at the `weread://a/...` routes.
    fileprivate func replacingFirstHost(with host: String) -> String {
        guard let range = firstRange(of: "://") else { return self }
        let rest = self[range.upperBound...]
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(self[..<range.upperBound]) + host + rest[hostEnd...]
    }
}
