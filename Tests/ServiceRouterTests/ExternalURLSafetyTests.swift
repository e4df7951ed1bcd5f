import ServiceRouter
import Testing

@Suite("External URL safety")
struct ExternalURLSafetyTests {
    @Test func byDefaultExternalURLsMayUseOnlySchemesThatHaveRoutesOrSchemeFallbacks() throws {
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

    @Test func allowListIsCaseInsensitiveHoweverItIsSet() {
        var configuration = ServiceRouter.Configuration()
        configuration.allowedExternalSchemes = ["WeRead", "HTTPS"]
        #expect(configuration.allowedExternalSchemes == ["weread", "https"])
        #expect(ServiceRouter.Configuration(allowedExternalSchemes: ["WeRead"]).allowedExternalSchemes == ["weread"])
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

    @Test func externalURLsSkipInAppOnlyRoutesForTheNextPublicOne() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://debug/:action", inAppOnly: true) { (_: any Greeter, _) in "private" }
        try router.register("weread://*") { (_: any Greeter, _) in "public" }
        #expect(try router.open("weread://debug/reset", as: String.self) == "private")
        #expect(try router.open("weread://debug/reset", as: String.self, from: .external) == "public")
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
}
