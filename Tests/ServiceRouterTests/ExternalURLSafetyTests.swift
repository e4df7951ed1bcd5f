import ServiceRouter
import Testing

/// What an `argument:` closure throws when it finds it could open an in-app-only route.
private struct ReachedInAppOnlyRoute: Error {}

@Suite("External URL safety")
struct ExternalURLSafetyTests {
    @Test func byDefaultExternalURLsMayUseOnlySchemesWithRoutesTheyMayOpenOrSchemeFallbacks() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        router.setFallback { _ in "global" }
        router.setFallback(forScheme: "https") { _ in "web" }
        #expect(try router.open("weread://book/1", as: String.self, from: .external) == "weread://book/:id")
        #expect(try router.open("https://example.org", as: String.self, from: .external) == "web")
        let reason = routeErrorReason { () throws(RouteError) in try router.open("javascript:alert(1)", from: .external) }
        guard case .schemeNotAllowed(let scheme, let allowed)? = reason else {
            Issue.record("expected schemeNotAllowed, got \(String(describing: reason))")
            return
        }
        #expect(scheme == "javascript")
        #expect(allowed == ["https", "weread"])
        // App code is trusted: the global fallback takes the same URL in-app.
        #expect(try router.open("javascript:alert(1)", as: String.self) == "global")
    }

    /// Marking every route of a scheme in-app only keeps outside URLs of that scheme out:
    /// by default such a scheme is not allowed, so an external URL matching none of its
    /// routes never reaches the global fallback.
    @Test func byDefaultASchemeWhoseRoutesAreAllInAppOnlyIsRefusedFromOutside() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        try router.register("debug://reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        router.setFallback { _ in "global" }
        for url in ["debug://other", "debug://reset"] {
            let error = try #require(throws: RouteError.self) { try router.open(url, from: .external) }
            guard case .schemeNotAllowed("debug", let allowed) = error.reason else {
                Issue.record("expected schemeNotAllowed for \(url), got \(error.reason)")
                continue
            }
            #expect(allowed == ["weread"])
            #expect(
                error.description == "Refused external URL '\(url)': the scheme 'debug' is not allowed, since every "
                    + "route of it is in-app only (allowed: weread). If outside apps may open its URLs, register the "
                    + "routes they may open without inAppOnly, or set a fallback for the scheme with "
                    + "setFallback(forScheme:).")
            #expect(!router.canOpen(url, from: .external), "\(url)")
            #expect(caseName(routeErrorReason { () throws(RouteError) in try router.match(url, from: .external) }) == "schemeNotAllowed")
        }
        // App code is trusted: it opens the route, and the global fallback takes the rest.
        #expect(try router.open("debug://reset", as: String.self) == "reset")
        #expect(try router.open("debug://other", as: String.self) == "global")
    }

    /// The default follows the routes as they change: a public route or a scheme fallback
    /// allows the scheme, and replacing its only public route with an in-app-only one
    /// refuses it again.
    @Test func aSchemeIsAllowedByDefaultOnlyWhileARouteOutsideURLsMayOpenOrAFallbackTakesIt() throws {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback { _ in "global" }
        try router.register("debug://status") { (_: any Greeter, _) in "status" }
        #expect(try router.open("debug://other", as: String.self, from: .external) == "global")
        try router.register("debug://status", inAppOnly: true) { (_: any Greeter, _) in "status" }
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("debug://other", from: .external) }) == "schemeNotAllowed")
        router.setFallback(forScheme: "debug") { _ in "debug fallback" }
        #expect(try router.open("debug://other", as: String.self, from: .external) == "debug fallback")
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("debug://status", from: .external) }) == "inAppOnly")
        router.removeFallback(forScheme: "debug")
        #expect(!router.canOpen("debug://other", from: .external))
    }

    /// The default counts a scheme's public routes: replacing one of two with an in-app-only
    /// route keeps the scheme allowed, and replacing the other refuses it.
    @Test func aSchemeStaysAllowedByDefaultUntilItsLastPublicRouteIsMadeInAppOnly() throws {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback { _ in "global" }
        try router.register("debug://status") { (_: any Greeter, _) in "status" }
        try router.register("debug://logs") { (_: any Greeter, _) in "logs" }
        try router.register("debug://status", inAppOnly: true) { (_: any Greeter, _) in "status" }
        #expect(try router.open("debug://other", as: String.self, from: .external) == "global")
        try router.register("debug://logs", inAppOnly: true) { (_: any Greeter, _) in "logs" }
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("debug://other", from: .external) }) == "schemeNotAllowed")
    }

    /// Replacing a scheme's only route, in-app only, with a public one allows the scheme.
    @Test func aSchemeIsAllowedByDefaultOnceItsInAppOnlyRouteIsMadePublic() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("debug://status", inAppOnly: true) { (_: any Greeter, _) in "status" }
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("debug://status", from: .external) }) == "schemeNotAllowed")
        try router.register("debug://status") { (_: any Greeter, _) in "status" }
        #expect(try router.open("debug://status", as: String.self, from: .external) == "status")
    }

    @Test func anExplicitAllowListReplacesTheDefault() throws {
        let router = try makeEchoRouter(
            ["weread://book/:id", "internal://debug"], configuration: .init(allowedExternalSchemes: ["WeRead"])
        )
        #expect(router.canOpen("weread://book/1", from: .external))
        #expect(!router.canOpen("internal://debug", from: .external))
        #expect(router.canOpen("internal://debug"))
        let reason = routeErrorReason { () throws(RouteError) in try router.open("internal://debug", from: .external) }
        #expect(caseName(reason) == "schemeNotAllowed")
    }

    /// The refusal's fix keeps what works: with no list (the default), a list naming only
    /// the refused scheme would refuse every scheme that has routes from then on.
    @Test func aSchemeRefusalSaysToKeepTheSchemesAllowedNow() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        do {
            try router.open("https://example.org", from: .external)
            Issue.record("expected schemeNotAllowed")
        } catch {
            #expect(error.description.contains("(allowed: weread)"), "\(error)")
            #expect(error.description.contains("keep the schemes allowed now"), "\(error)")
        }
    }

    /// A refusal lists the allowed schemes sorted, from an explicit list as from the
    /// default one, so the message is the same on every run.
    @Test func aSchemeRefusalListsTheAllowedSchemesSorted() throws {
        let schemes = ["weread", "https", "mailto", "itms", "app", "zhihu", "b"]
        let listed = ServiceRouter(registry: makeRegistry(), configuration: .init(allowedExternalSchemes: Set(schemes)))
        let fromList = routeErrorReason { () throws(RouteError) in try listed.open("ftp://x", from: .external) }
        guard case .schemeNotAllowed("ftp", let allowedByList)? = fromList else {
            Issue.record("expected schemeNotAllowed, got \(String(describing: fromList))")
            return
        }
        #expect(allowedByList == schemes.sorted())

        let byDefault = ServiceRouter(registry: makeRegistry())
        for scheme in schemes { byDefault.setFallback(forScheme: scheme) { _ in scheme } }
        let fromDefault = routeErrorReason { () throws(RouteError) in try byDefault.open("ftp://x", from: .external) }
        guard case .schemeNotAllowed("ftp", let allowedByDefault)? = fromDefault else {
            Issue.record("expected schemeNotAllowed, got \(String(describing: fromDefault))")
            return
        }
        #expect(allowedByDefault == schemes.sorted())
    }

    /// With no scheme allowed, a refusal says so instead of listing nothing, whichever
    /// reason it gives.
    @Test func aRefusalWhenNoSchemeIsAllowedSaysNone() throws {
        let listed = ServiceRouter(registry: makeRegistry(), configuration: .init(allowedExternalSchemes: []))
        let error = try #require(throws: RouteError.self) { try listed.open("weread://book/1", from: .external) }
        #expect(error.description.hasPrefix("Refused external URL 'weread://book/1': the scheme 'weread' is not allowed (allowed: none). "), "\(error)")

        let inAppOnly = ServiceRouter(registry: makeRegistry())
        try inAppOnly.register("debug://reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        let refused = try #require(throws: RouteError.self) { try inAppOnly.open("debug://reset", from: .external) }
        #expect(refused.description.contains("is in-app only (allowed: none). "), "\(refused)")
    }

    @Test func allowListIsCaseInsensitiveHoweverItIsSet() {
        var configuration = ServiceRouter.Configuration()
        configuration.allowedExternalSchemes = ["WeRead", "HTTPS"]
        #expect(configuration.allowedExternalSchemes == ["weread", "https"])
        #expect(ServiceRouter.Configuration(allowedExternalSchemes: ["WeRead"]).allowedExternalSchemes == ["weread"])
        // Named as a URL spells it, with its ':' or '://', a scheme still means itself.
        configuration.allowedExternalSchemes = ["weread://", "https:"]
        #expect(configuration.allowedExternalSchemes == ["weread", "https"])
        #expect(ServiceRouter.Configuration(allowedExternalSchemes: ["WeRead://"]).allowedExternalSchemes == ["weread"])
    }

    @Test func inAppOnlyRoutesRefuseExternalURLsButServeAppCode() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        #expect(try router.open("weread://debug/reset", as: String.self) == "reset")
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://debug/reset", from: .external) }
        guard case .inAppOnly(let pattern)? = reason else {
            Issue.record("expected inAppOnly, got \(String(describing: reason))")
            return
        }
        #expect(pattern == "weread://debug/reset")
        #expect(!router.canOpen("weread://debug/reset", from: .external))
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.match("weread://debug/reset", from: .external) }) == "inAppOnly")
        #expect(router.routes.first?.isInAppOnly == true)
    }

    /// The in-app-only refusal says both fixes: open the URL from app code, or register
    /// the route without `inAppOnly`.
    @Test func anInAppOnlyRefusalSaysHowToOpenTheRoute() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        let error = try #require(throws: RouteError.self) { try router.open("weread://debug/reset", from: .external) }
        #expect(
            error.description == "Refused external URL 'weread://debug/reset': route 'weread://debug/reset' is in-app "
                + "only. Open it from app code (from: .inApp), or register it without inAppOnly if outside apps may "
                + "open it.")
    }

    @Test func externalURLsSkipInAppOnlyRoutesForTheNextPublicOne() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/:action", inAppOnly: true) { (_: any Greeter, _) in "private" }
        try router.register("weread://*") { (_: any Greeter, _) in "public" }
        #expect(try router.open("weread://debug/reset", as: String.self) == "private")
        #expect(try router.open("weread://debug/reset", as: String.self, from: .external) == "public")
    }

    /// An external URL no route takes is not explained by an in-app-only route it nearly
    /// matches: outside URLs cannot open that route whatever its parameters, and the
    /// message would name a route kept from them.
    @Test func anExternalURLNoRouteTakesIsNotExplainedByAnInAppOnlyRoute() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        try router.register("weread://debug/:level(int)", inAppOnly: true) { (_: any Greeter, _) in "debug" }
        let external = routeErrorReason { () throws(RouteError) in try router.open("weread://debug/high", from: .external) }
        #expect(caseName(external) == "noRoute")
        let inApp = routeErrorReason { () throws(RouteError) in try router.open("weread://debug/high") }
        guard case .invalidParameter("level", "high", _, "weread://debug/:level(int)")? = inApp else {
            Issue.record("expected invalidParameter, got \(String(describing: inApp))")
            return
        }
    }

    /// A public route that declines does not take the URL: as when no public route
    /// matches, the in-app-only route's refusal stands and no fallback runs.
    @Test func externalURLsAnInAppOnlyRouteMatchesAreRefusedWhenThePublicRoutesDecline() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "private" }
        try router.register("weread://debug/:action") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        #expect(try router.open("weread://debug/reset", as: String.self) == "private")
        let withoutFallback = routeErrorReason { () throws(RouteError) in try router.open("weread://debug/reset", from: .external) }
        guard case .inAppOnly("weread://debug/reset")? = withoutFallback else {
            Issue.record("expected inAppOnly, got \(String(describing: withoutFallback))")
            return
        }
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        router.setFallback { _ in "global" }
        let withFallbacks = routeErrorReason { () throws(RouteError) in try router.open("weread://debug/reset", from: .external) }
        #expect(caseName(withFallbacks) == "inAppOnly")
        // A URL no in-app-only route matches still reaches the fallbacks after the decline.
        #expect(try router.open("weread://debug/other", as: String.self, from: .external) == "fallback")
    }

    /// The in-app-only refusal is for external URLs: for app code, an in-app-only route
    /// that declines is passed over like any other, and the fallbacks still run.
    @Test func inAppURLsAnInAppOnlyRouteDeclinesReachTheFallbacks() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://debug/reset") }
        guard case .declined(let patterns)? = reason else {
            Issue.record("expected declined, got \(String(describing: reason))")
            return
        }
        #expect(patterns == ["weread://debug/reset"])
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        #expect(try router.open("weread://debug/reset", as: String.self) == "fallback")
    }

    /// A handler that opens a URL its request carries (a redirect route) must not lift an
    /// outside link into an in-app-only route: a URL opened without `from:` inside the
    /// handling of an external URL is external too, through `open`, `open(_:as:)`,
    /// `canOpen` and `match`, and through fallbacks. App code, and a handler of an in-app
    /// URL, still open in-app-only routes, and an explicit `from: .inApp` is obeyed.
    /// The origin is a task local: what a handler of an external URL starts in a task of its
    /// own inherits it (a `Task { }`, a task group's child, an `async let`), so it cannot lift
    /// the URL past the in-app-only check later; a detached task does not, as the docs warn.
    @Test func tasksAHandlerOfAnExternalURLStartsInheritItsOriginUnlessDetached() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        try router.register("weread://spawn") { [weak router] (_: any Greeter, _) -> [(String, Task<Bool, Never>)] in
            let router = try #require(router)
            let target = "weread://debug/reset"
            return [
                ("Task", Task { router.canOpen(target) }),
                ("task group", Task {
                    await withTaskGroup(of: Bool.self) { group in
                        group.addTask { router.canOpen(target) }
                        return await group.next() ?? true
                    }
                }),
                ("async let", Task {
                    async let canOpen = router.canOpen(target)
                    return await canOpen
                }),
                ("Task.detached", Task.detached { router.canOpen(target) }),
            ]
        }
        typealias Started = [(String, Task<Bool, Never>)]
        for (origin, expected) in [(URLOrigin.external, false), (.inApp, true)] {
            for (kind, task) in try router.open("weread://spawn", as: Started.self, from: origin) {
                // A detached task sees app code's origin, whichever URL started it.
                #expect(await task.value == (kind == "Task.detached" ? true : expected), "\(kind) from \(origin)")
            }
        }
    }

    /// An `argument:` closure runs with the origin of the URL it converts, as a handler does.
    @Test func anArgumentClosureSeesTheOriginOfTheURLItConverts() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        try router.register("weread://probe", argument: { [weak router] _ in
            try #require(router).canOpen("weread://debug/reset") ? 1 : 0
        }) { (profile: any Profile, _) in profile.userID }
        #expect(try router.open("weread://probe", as: Int.self, from: .external) == 0)
        #expect(try router.open("weread://probe", as: Int.self) == 1)
    }

    /// `canOpen` runs an `argument:` closure with the origin it is asked about, as `open`
    /// does: here the closure fails wherever it could reach the in-app-only route.
    @Test func canOpenRunsAnArgumentClosureWithTheOriginItIsAskedAbout() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        try router.register("weread://probe", argument: { [weak router] _ -> Int in
            if try #require(router).canOpen("weread://debug/reset") { throw ReachedInAppOnlyRoute() }
            return 1
        }) { (profile: any Profile, _) in profile.userID }
        #expect(router.canOpen("weread://probe", from: .external))
        #expect(!router.canOpen("weread://probe", from: .inApp))
        #expect(!router.canOpen("weread://probe"))
    }

    @Test func aURLAHandlerOpensWithoutAnOriginIsTrustedNoMoreThanTheOneItHandles() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        try router.register("weread://open?url=:target") { [weak router] (_: any Greeter, request) -> String in
            let target = try request.parameters.string("target")
            return try #require(router).open(target, as: String.self)
        }
        try router.register("weread://check?url=:target") { [weak router] (_: any Greeter, request) -> String in
            let target = try request.parameters.string("target")
            let canOpen = try #require(router).canOpen(target)
            let matched = (try? router?.match(target)) != nil
            return "\(canOpen) \(matched)"
        }
        try router.register("weread://trusted?url=:target") { [weak router] (_: any Greeter, request) -> String in
            try #require(router).open(try request.parameters.string("target"), as: String.self, from: .inApp)
        }
        router.setFallback(forScheme: "weread") { [weak router] (request: RouteRequest) -> String in
            guard let router else { return "gone" }
            // Retries a spelling without the host's "www." prefix, as an app might.
            try router.open(request.url.string.replacingFirst("weread://www.", with: "weread://"))
            return "retried"
        }
        let redirect = "weread://open?url=weread%3A%2F%2Fdebug%2Freset"
        let error = try #require(throws: RouteError.self) { try router.open(redirect, from: .external) }
        guard case .inAppOnly("weread://debug/reset") = error.reason else {
            Issue.record("expected inAppOnly, got \(error.reason)")
            return
        }
        #expect(error.url == "weread://debug/reset")
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://www.debug/reset", from: .external) }) == "inAppOnly")
        #expect(try router.open("weread://check?url=weread%3A%2F%2Fdebug%2Freset", as: String.self, from: .external) == "false false")

        #expect(try router.open(redirect, as: String.self) == "reset")
        #expect(try router.open(redirect, as: String.self, from: .inApp) == "reset")
        #expect(try router.open("weread://www.debug/reset", as: String.self) == "retried")
        #expect(try router.open("weread://check?url=weread%3A%2F%2Fdebug%2Freset", as: String.self) == "true true")
        #expect(try router.open("weread://trusted?url=weread%3A%2F%2Fdebug%2Freset", as: String.self, from: .external) == "reset")
        // After the external URL is handled, app code is trusted again.
        #expect(try router.open("weread://debug/reset", as: String.self) == "reset")
    }

    /// The in-app-only refusal belongs to the route, not to a spelling: every spelling
    /// that reaches the route is refused from outside, and one that reaches no route is an
    /// unknown URL, which a fallback may take (Routing.md, section 6).
    @Test(arguments: [
        ("weread://debug/reset", true), ("weread://%64ebug/reset", true), ("weread://debug/%72eset", true),
        ("weread://DEBUG/reset", true), ("WEREAD://debug/reset", true), ("weread://debug//reset/", true),
        ("weread://debug:80/reset", true), ("weread://debug/reset?x=1#y", true),
        ("weread://caf\u{E9}/x", true), ("weread://cafe%CC%81/x", true),
        ("weread://debug%2Freset", false), ("weread://debug/./reset", false), ("weread://debug/RESET", false),
        ("weread://de%E2%80%8Bbug/reset", false), ("weread:debug/reset", false), ("weread:///debug/reset", false),
        ("weread://xn--caf-dma/x", false),
    ])
    func everySpellingThatReachesAnInAppOnlyRouteIsRefusedFromOutside(url: String, reachesTheRoute: Bool) throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/reset", inAppOnly: true) { (_: any Greeter, _) in "reset" }
        try router.register("weread://cafe\u{301}/x", inAppOnly: true) { (_: any Greeter, _) in "caf\u{E9}" }
        try router.register("weread://book/:id") { (_: any Greeter, _) in "book" }
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        if reachesTheRoute {
            #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open(url, from: .external) }) == "inAppOnly")
            #expect(try router.open(url, as: String.self) != "fallback")
        } else {
            #expect(try router.open(url, as: String.self, from: .external) == "fallback")
        }
    }

    /// What Routing.md (section 6) tells handlers to check themselves: decoded values and
    /// the decoded host arrive as written, raw Unicode controls stay in the URL's text, and
    /// several spellings read as one int.
    @Test func whatAnOutsideURLCarriesIntoAHandlerArrivesAsWritten() throws {
        let url = try RouteURL("weread://trusted.example%40evil.example/a%2F..%2Fb/%00?q=%0A%1B%E2%80%AE&r=\u{85}")
        #expect(url.host == "trusted.example@evil.example")
        #expect(url.pathSegments == ["a/../b", "\u{0}"])
        #expect(url.queryValue("q") == "\n\u{1B}\u{202E}")
        #expect(url.string.unicodeScalars.contains("\u{85}"))
        #expect(caseName(routeErrorReason { () throws(RouteError) in try RouteURL("weread://h?q=\u{1B}") }) == "malformedURL")
        let router = try makeEchoRouter(["weread://book/:id(int)"])
        for spelling in ["42", "042", "0042"] {
            #expect(try router.match("weread://book/\(spelling)").parameters.int("id") == 42)
        }
        #expect(try router.match("weread://book/-0").parameters.int("id") == 0)
    }

    @Test func limitsApplyToEveryOpen() throws {
        let router = try makeEchoRouter(
            ["weread://*"], configuration: .init(parsing: URLParsingOptions(maximumLength: 64, maximumSegmentCount: 4))
        )
        // The host is not a path segment: four path segments pass, five do not.
        #expect(router.canOpen("weread://host/a/b/c/d"))
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://host/a/b/c/d/e") }) == "tooManySegments")
        let long = "weread://" + String(repeating: "a", count: 100)
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open(long) }) == "urlTooLong")
    }

    @Test func patternsLongerThanTheSegmentLimitAreRefusedAtRegistration() {
        let router = ServiceRouter(registry: makeRegistry(), configuration: .init(parsing: URLParsingOptions(maximumSegmentCount: 2)))
        let reason = routeErrorReason { () throws(RouteError) in
            try router.register("weread://h/a/b/c") { (_: any Greeter, _) in 0 }
        }
        #expect(caseName(reason) == "invalidPattern")
    }

    @Test func aTrailingWildcardNeedsNoRoomUnderTheSegmentLimit() throws {
        let router = try makeEchoRouter(
            ["weread://h/a/b/*rest"], configuration: .init(parsing: URLParsingOptions(maximumSegmentCount: 2)))
        #expect(try router.open("weread://h/a/b", as: String.self) == "weread://h/a/b/*rest")
        let reason = routeErrorReason { () throws(RouteError) in
            try router.register("weread://h/a/b/c/*rest") { (_: any Greeter, _) in 0 }
        }
        #expect(caseName(reason) == "invalidPattern")
    }

    /// Each pattern beside the shortest URL it matches: a parameter path segment needs a
    /// byte (a URL's empty segments are dropped), a host parameter none (`weread:///a` has
    /// the empty host), a trailing wildcard nothing, and `?q` a value.
    @Test(arguments: [
        ("weread://shelf/:id/reviews?tab=top&q#:section", "weread://shelf/1/reviews?tab=top&q=x#s"),
        ("WeRead://Shelf/a/b", "weread://shelf/a/b"),
        ("weread://:screen/a", "weread:///a"),
        ("weread://h/a/*rest", "weread://h/a"),
        ("mailto:someone/:to", "mailto:someone/x"),
        ("mailto:*to", "mailto:"),
    ])
    func aPatternRegistersAtTheLengthLimitOfItsShortestURLButNotBelow(pattern: String, shortest: String) throws {
        let limit = shortest.utf8.count
        let router = try makeEchoRouter([pattern], configuration: .init(parsing: URLParsingOptions(maximumLength: limit)))
        #expect(try router.open(shortest, as: String.self) == RoutePattern(pattern).description)

        let tighter = ServiceRouter(registry: makeRegistry(), configuration: .init(parsing: URLParsingOptions(maximumLength: limit - 1)))
        let reason = routeErrorReason { () throws(RouteError) in
            try tighter.register(pattern) { (_: any Greeter, _) in 0 }
        }
        guard case .invalidPattern(let text, let problem)? = reason else {
            Issue.record("expected invalidPattern for \(pattern), got \(String(describing: reason))")
            return
        }
        #expect(text == pattern)
        #expect(problem.contains("at least \(limit) bytes"), "\(problem)")
        #expect(problem.contains("URLParsingOptions.maximumLength"), "\(problem)")
    }

    /// A literal with no ASCII byte (`红`) still counts as a byte toward the shortest URL:
    /// `weread://book/` alone is 14 bytes, so the route needs a limit of at least 15.
    @Test func aLiteralWithoutASCIICountsAsAByte() throws {
        let pattern = "weread://book/\u{7EA2}"
        _ = try makeEchoRouter([pattern], configuration: .init(parsing: URLParsingOptions(maximumLength: 15)))
        let tighter = ServiceRouter(registry: makeRegistry(), configuration: .init(parsing: URLParsingOptions(maximumLength: 14)))
        let reason = routeErrorReason { () throws(RouteError) in
            try tighter.register(pattern) { (_: any Greeter, _) in 0 }
        }
        guard case .invalidPattern(_, let problem)? = reason else {
            Issue.record("expected invalidPattern, got \(String(describing: reason))")
            return
        }
        #expect(problem.contains("at least 15 bytes"), "\(problem)")
    }

    /// Literals match every canonically equivalent spelling (Swift compares strings that
    /// way) and may be percent-encoded in the pattern, so neither the pattern's text nor
    /// its decoded bytes bound the URL: a shorter spelling may fit where they would not.
    @Test(arguments: [
        ("app://shelf/cafe\u{301}", "app://shelf/caf\u{E9}"),
        ("app://shelf/caf%C3%A9", "app://shelf/caf\u{E9}"),
        ("app://shelf/\u{915}\u{93C}", "app://shelf/\u{958}"),
        ("app://cafe\u{301}?cafe\u{301}=cafe\u{301}", "app://caf\u{E9}?caf\u{E9}=caf\u{E9}"),
    ])
    func aPatternIsNeverRefusedWhenAURLWithinTheLimitMatchesIt(pattern: String, url: String) throws {
        let router = try makeEchoRouter([pattern], configuration: .init(parsing: URLParsingOptions(maximumLength: url.utf8.count)))
        #expect(try router.open(url, as: String.self) == RoutePattern(pattern).description)
    }

    /// A URL without path segments or query items passes any segment and item limit, even
    /// one below zero, so a pattern that needs neither is never refused for them.
    @Test func aPatternNeedingNoSegmentsOrQueryItemsRegistersUnderAnyCountLimit() throws {
        let options = URLParsingOptions(maximumSegmentCount: -1, maximumQueryItemCount: -1)
        let router = try makeEchoRouter(["weread://h", "weread://h/*rest"], configuration: .init(parsing: options))
        #expect(try router.open("weread://h", as: String.self) == "weread://h")
    }

    /// A limit of one reads "more than 1 query item", not "1 query items".
    @Test func limitsOfOneAreCountedInTheSingular() throws {
        let options = URLParsingOptions(maximumSegmentCount: 1, maximumQueryItemCount: 1)
        let items = try #require(throws: RouteError.self) { try RouteURL("weread://h?a&b", options: options) }
        #expect(
            items.description == "Refused 'weread://h?a&b': it has more than 1 query item. "
                + "Raise URLParsingOptions.maximumQueryItemCount if such URLs are expected.")
        let segments = try #require(throws: RouteError.self) { try RouteURL("weread://h/a/b", options: options) }
        #expect(segments.description.hasPrefix("Refused 'weread://h/a/b': it has more than 1 path segment. "))
        let router = ServiceRouter(
            registry: makeRegistry(),
            configuration: .init(parsing: URLParsingOptions(maximumSegmentCount: 0, maximumQueryItemCount: 0)))
        let pattern = try #require(throws: RouteError.self) {
            try router.register("weread://h/a") { (_: any Greeter, _) in 0 }
        }
        #expect(pattern.description.contains("it needs 1 path segment but URLs may have at most 0"))
    }

    /// A refusal for too many path segments names the option to raise, as the one for
    /// too many query items does.
    @Test func aSegmentLimitRefusalNamesTheOptionToRaise() throws {
        let options = URLParsingOptions(maximumSegmentCount: 1)
        let error = try #require(throws: RouteError.self) { try RouteURL("weread://h/a/b", options: options) }
        #expect(
            error.description == "Refused 'weread://h/a/b': it has more than 1 path segment. "
                + "Raise URLParsingOptions.maximumSegmentCount if such URLs are expected.")
    }

    /// Only one is singular: a limit of zero reads "more than 0 path segments".
    @Test func limitsOfZeroAreCountedInThePlural() throws {
        let options = URLParsingOptions(maximumSegmentCount: 0, maximumQueryItemCount: 0)
        let segments = try #require(throws: RouteError.self) { try RouteURL("weread://h/a", options: options) }
        #expect(segments.description.hasPrefix("Refused 'weread://h/a': it has more than 0 path segments. "), "\(segments)")
        let items = try #require(throws: RouteError.self) { try RouteURL("weread://h?a", options: options) }
        #expect(items.description.hasPrefix("Refused 'weread://h?a': it has more than 0 query items. "), "\(items)")
    }

    @Test func patternsRequiringMoreQueryItemsThanTheLimitAreRefusedAtRegistration() throws {
        let options = URLParsingOptions(maximumQueryItemCount: 2)
        let router = try makeEchoRouter(["weread://s?a&b=:n"], configuration: .init(parsing: options))
        #expect(try router.open("weread://s?b=2&a=1", as: String.self) == "weread://s?a&b=:n")
        let reason = routeErrorReason { () throws(RouteError) in
            try router.register("weread://s?a&b&c=x") { (_: any Greeter, _) in 0 }
        }
        guard case .invalidPattern(let text, let problem)? = reason else {
            Issue.record("expected invalidPattern, got \(String(describing: reason))")
            return
        }
        #expect(text == "weread://s?a&b&c=x")
        #expect(problem.contains("3 query items"), "\(problem)")
        #expect(problem.contains("URLParsingOptions.maximumQueryItemCount"), "\(problem)")
    }
}

extension String {
    /// The string with the first occurrence of `prefix` at its start replaced.
    fileprivate func replacingFirst(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
