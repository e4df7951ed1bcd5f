import ServiceRouter
import SeededRandom
import Testing

/// Throws thousands of generated and mutated URLs at a router with every kind of route:
/// nothing may crash, every failure must be a `RouteError` that explains itself, and the
/// router's answers must agree with each other.
@Suite("Router properties under generated and mutated URLs")
struct RouterPropertyTests {
    static let patterns = [
        "weread://book/:bookId(int)", "weread://book/:bookId(int)/reviews", "weread://book/latest",
        "weread://book/:slug", "weread://book/:id(uuid)/notes", "weread://search?q=:term",
        "weread://search?q=:term&page=:page(int)", "weread://tab?name=reviews", "weread://shelf#:section",
        "weread://web/*path", "weread://:screen", "weread:*", "https://*", "mailto:*to", "weread:///settings/:key",
    ]

    static func makeRouter() throws -> ServiceRouter {
        let router = ServiceRouter(registry: makeRegistry())
        for (index, pattern) in patterns.enumerated() {
            // Handlers never throw or decline here, so `open` succeeds exactly when a route
            // or fallback is reached, which `canOpen` must predict.
            try router.register(pattern, inAppOnly: index % 4 == 3) { (_: any Greeter, request) in request.pattern ?? "" }
        }
        router.setFallback(forScheme: "https") { _ in "web" }
        return router
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func generatedAndMutatedURLsNeverCrashAndAnswersAgree(seed: UInt64) throws {
        let router = try Self.makeRouter()
        var fuzzer = URLFuzzer(random: SeededGenerator(seed: seed))
        var opened = 0, refused = 0
        for _ in 0..<1_500 {
            let base = fuzzer.random.chance(50) ? fuzzer.routeShaped() : fuzzer.generated()
            for url in [base, fuzzer.mutated(base)] {
                for origin in [URLOrigin.inApp, .external] {
                    if try check(url, origin, router) { opened += 1 } else { refused += 1 }
                }
            }
        }
        // The generator must exercise both outcomes, or the properties prove little.
        #expect(opened > 1_500)
        #expect(refused > 1_500)
    }

    /// Checks the properties for one URL; returns whether it opened.
    private func check(_ url: String, _ origin: URLOrigin, _ router: ServiceRouter) throws -> Bool {
        var openedPattern: String?
        do {
            openedPattern = try router.open(url, as: String.self, from: origin)
        } catch {
            #expect(!error.description.isEmpty)
            #expect(error.url == nil || error.url == url, "\(error)")
        }
        #expect(router.canOpen(url, from: origin) == (openedPattern != nil), "canOpen disagrees for \(url) from \(origin)")

        guard let request = try? router.match(url, from: origin) else {
            // Only a fallback may open what matches no route.
            #expect(openedPattern == nil || openedPattern == "web", "\(url)")
            return openedPattern != nil
        }
        #expect(openedPattern == request.pattern)
        try checkRoundTrip(request, origin, router)
        return true
    }

    /// Generating a URL from the matched pattern and its parameters and matching it again
    /// finds the same route with the same values (wildcards excepted: a decoded `/` in a
    /// segment becomes a separator when the wildcard value is written back).
    private func checkRoundTrip(_ request: RouteRequest, _ origin: URLOrigin, _ router: ServiceRouter) throws {
        guard let pattern = request.pattern, !pattern.contains("*") else { return }
        var values: [String: any CustomStringConvertible] = [:]
        for (name, value) in request.parameters { values[name] = value }
        let url = try router.url(for: pattern, parameters: values)
        // Encoding may lengthen a URL past the limit; that refusal is correct, not a bug.
        guard url.utf8.count <= router.configuration.parsing.maximumLength else { return }
        let again = try router.match(url, from: origin)
        #expect(again.pattern == pattern, "\(request.url) → \(url)")
        #expect(Array(again.parameters.map(\.value)) == Array(request.parameters.map(\.value)), "\(request.url) → \(url)")
    }

    @Test(arguments: [UInt64(7), 8])
    func generatedPatternsParseOrFailWithAReasonAndTheirCanonicalFormIsStable(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pieces = [
            "weread:", "//", "/", "book", ":id", ":id(int)", ":x(uuid)", ":y(nope)", "(", ")", "*", "*rest", "?", "q",
            "=", ":term", "&", "#", ":frag", "%", "%3A", "%zz", "红", "BOOK", " ", ":", "_",
        ]
        var parsed = 0
        for _ in 0..<4_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...12, using: &random) { text += random.pick(pieces) }
            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(text)
            } catch {
                guard case .invalidPattern(let echoed, let problem) = error.reason else {
                    Issue.record("unexpected \(error) for \(text)")
                    continue
                }
                #expect(echoed == text)
                #expect(!problem.isEmpty)
                continue
            }
            parsed += 1
            // Read apart from the text's own refusals: a canonical form that is refused is the
            // bug this looks for, not a pattern that may fail.
            do {
                let again = try RoutePattern(pattern.description)
                #expect(again == pattern, "\(text) → \(pattern)")
                #expect(again.description == pattern.description)
            } catch {
                Issue.record("the canonical form '\(pattern)' of '\(text)' is refused: \(error)")
            }
        }
        #expect(parsed > 50)
    }
}
