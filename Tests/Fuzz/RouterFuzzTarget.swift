// libFuzzer entry point for the router's URL parser, pattern parser and trie matcher.
//
// Tests/Fuzz/run-router-fuzzer.sh compiles this file into one module together with every
// source of Sources/ServiceRouter, so the checks below can use the router's internals (the
// trie and the precedence rule) as well as its public API. Any failed check traps, and
// libFuzzer reports the input that caused it.

import ServiceRegistry

private protocol FuzzService: Sendable {}
private struct FuzzServiceImplementation: FuzzService {}

/// The routes cover every pattern feature; handlers neither throw nor decline, so `open`
/// succeeds exactly when a route or fallback is reached.
private let fuzzPatterns = [
    "weread://book/:bookId(int)", "weread://book/:bookId(int)/reviews", "weread://book/latest",
    "weread://book/:slug", "weread://book/:id(uuid)/notes", "weread://search?q=:term",
    "weread://search?q=:term&page=:page(int)", "weread://tab?name=reviews", "weread://shelf#:section",
    "weread://web/*path", "weread://:screen", "weread:*", "https://*", "mailto:*to", "weread:///settings/:key",
    "weread://a/:x/c", "weread://a/b/:y", "weread://:z/b/c", "weread://book/:n(even)/:tail", "weread://book/:m(string)/end",
]

private let even = ParameterType(name: "even", description: "an even number") { Int($0).map { $0 % 2 == 0 } ?? false }

private let fuzzRouter: ServiceRouter = {
    let registry = ServiceRegistry()
    registry.register(FuzzService.self) { _ in FuzzServiceImplementation() }
    let router = ServiceRouter(
        registry: registry,
        configuration: .init(parsing: URLParsingOptions(maximumLength: 512, maximumSegmentCount: 12), parameterTypes: [even])
    )
    for (index, pattern) in fuzzPatterns.enumerated() {
        do {
            try router.register(pattern, inAppOnly: index % 4 == 3) { (_: any FuzzService, request) in request.pattern ?? "" }
        } catch {
            fatalError("fuzz route \(pattern) is invalid: \(error)")
        }
    }
    // The oracle tries every pattern, so none may replace another (differing from it only
    // in parameter names) in the router.
    check(router.routeCount == fuzzPatterns.count, "two fuzz routes are one route")
    router.setFallback(forScheme: "https") { _ in "web" }
    return router
}()

private let parsedPatterns: [RoutePattern] = fuzzPatterns.map { text in
    guard let pattern = try? RoutePattern(text, parameterTypes: [even]) else { fatalError("invalid fuzz pattern \(text)") }
    return pattern
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// The oracle: a matcher that tries every pattern one by one, with none of the trie's
/// indexing or pruning, then sorts the matches by the precedence rule.
private func bruteForceWinner(_ url: RouteURL, _ origin: URLOrigin) -> String? {
    let matching = parsedPatterns.enumerated().filter { index, pattern in
        (origin == .inApp || index % 4 != 3) && bruteForceMatches(pattern, url)
    }
    let best = matching.min { RoutePrecedence.precedes(($0.element, 0), ($1.element, 0)) }
    return best?.element.canonical
}

@_cdecl("LLVMFuzzerTestOneInput")
public func routerFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Invalid UTF-8 is repaired here, as any String handed to the router would be.
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

    for origin in [URLOrigin.inApp, .external] {
        var opened: String?
        do {
            opened = try fuzzRouter.open(text, as: String.self, from: origin)
        } catch {
            check(!error.description.isEmpty, "empty error description")
        }
        check(fuzzRouter.canOpen(text, from: origin) == (opened != nil), "canOpen disagrees with open for \(text)")

        let parsed = try? RouteURL(text, options: fuzzRouter.configuration.parsing)
        let matched = try? fuzzRouter.match(text, from: origin)
        if let parsed {
            check(matched?.pattern == bruteForceWinner(parsed, origin), "trie and brute force disagree for \(text)")
        }
        if let matched, let pattern = matched.pattern, !pattern.contains("*") {
            var values: [String: any CustomStringConvertible] = [:]
            for (name, value) in matched.parameters { values[name] = value }
            let generated: String
            do {
                generated = try fuzzRouter.url(for: pattern, parameters: values)
            } catch {
                // Encoding may lengthen a URL past the limit; that refusal is correct, not a bug.
                if case .urlTooLong = error.reason { continue }
                fatalError("cannot regenerate \(pattern) from \(matched.parameters): \(error)")
            }
            let again = try? fuzzRouter.match(generated, from: origin)
            check(again?.pattern == pattern, "round trip of \(text) via \(generated) reached \(again?.pattern ?? "nothing")")
            check(
                again.map { Array($0.parameters.map(\.value)) } == Array(matched.parameters.map(\.value)),
                "round trip of \(text) via \(generated) changed the parameters"
            )
        }
    }

    if let pattern = try? RoutePattern(text, parameterTypes: [even]) {
        let again = try? RoutePattern(pattern.description, parameterTypes: [even])
        check(again?.description == pattern.description, "canonical form of \(text) is unstable")
    }
    return 0
}
