import ServiceRegistry
import ServiceRouter
import Synchronization
import Testing

/// How often a custom type was asked about an empty value (see
/// `anEmptyValueIsRefusedWithoutAskingTheCustomType`).
private let askedAboutEmpty = Atomic<Int>(0)

@Suite("Opening URLs")
struct RouterOpeningTests {
    @Test func registeringBuildsNothingAndOpeningResolvesTheServiceThen() throws {
        let counter = BuildCounter()
        let router = ServiceRouter(registry: makeRegistry(counter: counter))
        try router.register("weread://greet/:name") { (greeter: any Greeter, request) in
            greeter.greet(try request.parameters.string("name"))
        }
        #expect(counter.value == 0)
        #expect(try router.open("weread://greet/Ada", as: String.self) == "Hello, Ada")
        #expect(counter.value == 1)
        try router.open("weread://greet/Bob")
        #expect(counter.value == 2)
    }

    @Test func resolvesServicesWithAnArgumentMadeFromTheRequest() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://user/:id(int)", argument: { try $0.parameters.int("id") }) {
            (profile: any Profile, _) in profile.userID
        }
        #expect(try router.open("weread://user/7", as: Int.self) == 7)
    }

    @Test func resolvesNamedServices() throws {
        let registry = makeRegistry()
        registry.register(Greeter.self, name: "loud") { _ in LoudGreeter() }
        let router = ServiceRouter(registry: registry)
        try router.register("weread://shout/:name", serviceName: "loud") { (greeter: any Greeter, request) in
            greeter.greet(try request.parameters.string("name"))
        }
        #expect(try router.open("weread://shout/ada", as: String.self) == "HELLO, ADA")
        #expect(router.routes.first?.serviceName == "loud")
    }

    @Test func resolvesAtOpenTimeSoOverridesApply() throws {
        let registry = makeRegistry()
        let router = ServiceRouter(registry: registry)
        try router.register("weread://greet/:name") { (greeter: any Greeter, request) in
            greeter.greet(try request.parameters.string("name"))
        }
        let overridden = try registry.withOverrides {
            $0.register(Greeter.self) { _ in LoudGreeter() }
        } operation: {
            try router.open("weread://greet/ada", as: String.self)
        }
        #expect(overridden == "HELLO, ADA")
        #expect(try router.open("weread://greet/ada", as: String.self) == "Hello, ada")
    }

    @Test func handlerSeesParametersQueryFragmentAndOrigin() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id(int)/*rest?sort=:order#:section") { (_: any Greeter, request) in
            [
                String(try request.parameters.int("id")), request.parameters.wildcard ?? "-",
                try request.parameters.string("order"), try request.parameters.string("section"),
                request.query("from") ?? "-", request.origin == .external ? "external" : "in-app",
                request.pattern ?? "-",
            ].joined(separator: "|")
        }
        let result = try router.open("weread://book/42/notes/%E7%AB%A0?sort=new+first&from=push#top", as: String.self, from: .external)
        #expect(result == "42|notes/章|new first|top|push|external|weread://book/:id(int)/*rest?sort=:order#:section")
    }

    @Test func typedParameterAccessorsThrowTypedErrors() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://x/:word") { (_: any Greeter, request) in try request.parameters.int("word") }
        try router.register("weread://y/:word") { (_: any Greeter, request) in try request.parameters.string("nope") }
        try router.register("weread://z/:ratio") { (_: any Greeter, request) in try request.parameters.value("ratio", as: Double.self) }

        let notInt = routeErrorReason { () throws(RouteError) in try router.open("weread://x/abc") }
        guard case .invalidParameter(let name, let value, let expected, let pattern)? = notInt else {
            Issue.record("expected invalidParameter, got \(String(describing: notInt))")
            return
        }
        #expect((name, value, expected, pattern) == ("word", "abc", "an int", "weread://x/:word"))
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://y/a") }) == "missingParameter")
        #expect(try router.open("weread://z/0.5", as: Double.self) == 0.5)
    }

    /// Every router call that throws hands the app's code a `RouteError`, which a handler's
    /// `try` boxes as `any Error`: one word to move, not seven fields, keeps that code small
    /// (the storage's comment in `RouteError` has the figures).
    @Test func aRouteErrorIsOneReferenceWide() {
        #expect(MemoryLayout<RouteError>.size == MemoryLayout<AnyObject>.size)
    }

    /// A mirror (what `dump` and debuggers show) lists the error's public properties, not
    /// the one reference it keeps them behind.
    @Test func aMirrorOfARouteErrorShowsItsPublicProperties() {
        let error = RouteError(.noRoute, url: "weread://nowhere")
        let children = Mirror(reflecting: error).children
        #expect(children.map(\.label) == ["reason", "url"])
        #expect(children.dropFirst().first?.value as? String? == "weread://nowhere")
    }

    /// The type a value must convert to is named without an article, which would read
    /// wrongly for many type names ("a Int64").
    @Test func aValueThatDoesNotConvertNamesItsTypeInASentenceThatReads() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://size/:bytes") { (_: any Greeter, request) in
            try request.parameters.value("bytes", as: Int64.self)
        }
        let error = try #require(throws: RouteError.self) { try router.open("weread://size/big") }
        #expect(
            error.description == "Cannot open 'weread://size/big': parameter 'bytes' of route 'weread://size/:bytes' "
                + "must be a value of type Int64, but got 'big'.")
    }

    /// A type nested in another is named as code outside both writes it.
    @Test func aValueThatDoesNotConvertNamesANestedTypeWithItsOuterType() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://shelf/:slot") { (_: any Greeter, request) in
            try request.parameters.value("slot", as: Shelf.Slot.self).number
        }
        let error = try #require(throws: RouteError.self) { try router.open("weread://shelf/top") }
        #expect(error.description.contains("must be a value of type Shelf.Slot, but got 'top'."))
    }

    /// Result types are named as code writes them, `(Int, Int)` rather than
    /// `(Swift.Int, Swift.Int)`, and without an article, which would read wrongly for a type
    /// whose module starts with a vowel ("a AppFeature.BookPage") or for a tuple.
    @Test func aResultTypeMismatchNamesBothTypesInASentenceThatReads() throws {
        let router = try makeEchoRouter(["weread://a"])
        let error = try #require(throws: RouteError.self) { try router.open("weread://a", as: (Int, Int).self) }
        #expect(
            error.description == "Opened 'weread://a' asking for a result of type (Int, Int), "
                + "but route 'weread://a' returned one of type String. "
                + "Ask open(_:as:) for the type the handler returns.")
        let fallback = RouteError(
            .resultTypeMismatch(expected: "AppFeature.BookPage", actual: "AppFeature.AuthorPage", pattern: nil),
            url: "weread://author/7")
        #expect(
            fallback.description == "Opened 'weread://author/7' asking for a result of type AppFeature.BookPage, "
                + "but the fallback returned one of type AppFeature.AuthorPage. "
                + "Ask open(_:as:) for the type the handler returns.")
    }

    @Test func openForObjectRefusesTheWrongResultType() throws {
        let router = try makeEchoRouter(["weread://a"])
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://a", as: Int.self) }
        guard case .resultTypeMismatch(let expected, let actual, let pattern)? = reason else {
            Issue.record("expected resultTypeMismatch, got \(String(describing: reason))")
            return
        }
        #expect(expected == "Int")
        #expect(actual == "String")
        #expect(pattern == "weread://a")
    }

    /// After a decline, a result of the wrong type is blamed on the route that returned it,
    /// not on the one that declined.
    @Test func aResultTypeMismatchAfterADeclineNamesTheRouteThatReturnedTheResult() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id(int)") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("weread://book/:id") { (_: any Greeter, _) in "untyped" }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://book/1", as: Int.self) }
        guard case .resultTypeMismatch("Int", "String", let pattern)? = reason else {
            Issue.record("expected resultTypeMismatch, got \(String(describing: reason))")
            return
        }
        #expect(pattern == "weread://book/:id")
    }

    /// Like the route listing, the error names a private type without the runtime's
    /// `(unknown context at $…)`, an address that differs from run to run.
    @Test func aResultTypeMismatchNamesAPrivateTypeWithoutTheRuntimesAddress() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://private") { (_: any Greeter, _) in PrivateResult() }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://private", as: [PrivateResult].self) }
        guard case .resultTypeMismatch(let expected, let actual, _)? = reason else {
            Issue.record("expected resultTypeMismatch, got \(String(describing: reason))")
            return
        }
        #expect(expected == "Array<PrivateResult>")
        #expect(actual == "PrivateResult")
    }

    /// The router, not the app, resolves a route's service: for an argument that does not
    /// fit, the registry's advice to resolve with another argument is followed by where
    /// the route's argument comes from and what to change there.
    @Test func anArgumentMismatchOfARoutesServiceSaysWhatToChangeInTheRoute() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://me") { (profile: any Profile, _) in profile.userID }
        try router.register("weread://user/:id", argument: { $0.parameters["id"] ?? "" }) { (profile: any Profile, _) in
            profile.userID
        }
        try router.register("weread://hello/:id(int)", argument: { try $0.parameters.int("id") }) { (greeter: any Greeter, _) in
            greeter.greet("x")
        }
        router.setFallback(forScheme: "weread") { (profile: any Profile, _) in profile.userID }
        func lastLine(_ url: String) throws -> String {
            let error = try #require(throws: RouteError.self) { try router.open(url) }
            return String(error.description.split(separator: "\n").last ?? "")
        }
        #expect(
            try lastLine("weread://me") == "  The router resolved `Profile` for route 'weread://me', which has no "
                + "`argument:` closure: register the route with one that returns a value of type `Int`.")
        #expect(
            try lastLine("weread://user/7") == "  The router resolved `Profile` for route 'weread://user/:id' with "
                + "what its `argument:` closure returns: make the closure return a value of type `Int`.")
        #expect(
            try lastLine("weread://hello/7") == "  The router resolved `Greeter` for route 'weread://hello/:id(int)' "
                + "with what its `argument:` closure returns: register the route without `argument:`, since the "
                + "factory takes no argument.")
        #expect(
            try lastLine("weread://elsewhere") == "  The router resolved `Profile` for the fallback, which resolves "
                + "its service without an argument: give the fallback a service whose factory takes none.")
    }

    @Test func unresolvableServiceIsATypedErrorWrappingTheResolutionError() throws {
        let router = ServiceRouter(registry: ServiceRegistry())
        try router.register("weread://greet") { (greeter: any Greeter, _) in greeter.greet("x") }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://greet") }
        guard case .serviceUnavailable(let resolution, let pattern)? = reason else {
            Issue.record("expected serviceUnavailable, got \(String(describing: reason))")
            return
        }
        #expect(resolution.reason == .notRegistered)
        #expect(pattern == "weread://greet")
    }

    @Test func handlerErrorsAreWrappedButItsRouteErrorsPassThrough() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://fail") { (_: any Greeter, _) in throw ExampleFailure() }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://fail") }
        guard case .handlerFailed(let underlying, "weread://fail")? = reason else {
            Issue.record("expected handlerFailed, got \(String(describing: reason))")
            return
        }
        #expect(underlying is ExampleFailure)
    }

    /// An error enum without a description of its own prints as its bare case name; the
    /// message names it with its type, as code does.
    @Test func aHandlerErrorThatIsABareEnumCaseIsNamedWithItsType() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://share") { (_: any Greeter, _) -> String in throw ShareFailure.linkExpired }
        router.setFallback { (_: RouteRequest) -> String in throw ShareFailure.linkExpired }
        let route = try #require(throws: RouteError.self) { try router.open("weread://share") }
        #expect(route.description == "The handler of route 'weread://share' failed for 'weread://share': ShareFailure.linkExpired")
        let fallback = try #require(throws: RouteError.self) { try router.open("weread://elsewhere") }
        #expect(fallback.description == "The fallback failed for 'weread://elsewhere': ShareFailure.linkExpired")
    }

    /// What the `argument:` closure throws reaches the caller as the handler's errors do:
    /// a `RouteError` as it is, anything else as `.handlerFailed`; nothing is resolved.
    @Test func argumentClosureErrorsAreWrappedButItsRouteErrorsPassThrough() throws {
        let registry = makeRegistry()
        let built = BuildCounter()
        registry.register(Profile.self) { (_, userID: Int) in
            built.increment()
            return UserProfile(userID: userID)
        }
        let router = ServiceRouter(registry: registry)
        try router.register("weread://user/:id", argument: { _ -> Int in throw ExampleFailure() }) {
            (profile: any Profile, _) in profile.userID
        }
        try router.register("weread://member/:id", argument: { try $0.parameters.int("id") }) {
            (profile: any Profile, _) in profile.userID
        }
        let failed = routeErrorReason { () throws(RouteError) in try router.open("weread://user/7") }
        guard case .handlerFailed(let underlying, "weread://user/:id")? = failed else {
            Issue.record("expected handlerFailed, got \(String(describing: failed))")
            return
        }
        #expect(underlying is ExampleFailure)
        let passed = routeErrorReason { () throws(RouteError) in try router.open("weread://member/abc") }
        guard case .invalidParameter("id", "abc", _, "weread://member/:id")? = passed else {
            Issue.record("expected invalidParameter, got \(String(describing: passed))")
            return
        }
        #expect(built.value == 0)
    }

    @Test func declinedURLsGoToTheNextCandidateThenTheFallbacks() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/latest") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("weread://book/:id(int)") { (_: any Greeter, _) in "typed" }
        try router.register("weread://book/:slug", priority: 2) { (_: any Greeter, request) -> RouteOutcome<String> in
            request.parameters["slug"] == "keep" ? .handled("slug high") : .declined
        }
        try router.register("weread://book/:slug", priority: 1) { (_: any Greeter, _) in "slug low" }
        try router.register("weread://book/*") { (_: any Greeter, _) in "wildcard" }

        #expect(try router.open("weread://book/keep", as: String.self) == "slug high")
        #expect(try router.open("weread://book/other", as: String.self) == "slug low")
        #expect(try router.open("weread://book/latest", as: String.self) == "slug low")
    }

    /// A URL without a host (`weread:settings/…`) that its best route declines goes on to
    /// the next route of that form, as a URL with a host does.
    @Test func aDeclinedURLWithoutAHostGoesToTheNextCandidate() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread:settings/:page") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("weread:settings/*") { (_: any Greeter, _) in "wildcard" }
        #expect(try router.open("weread:settings/fonts", as: String.self) == "wildcard")
    }

    /// A route whose service is resolved with an argument may decline as well.
    @Test func aRouteResolvingItsServiceWithAnArgumentMayDecline() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://user/:id(int)", argument: { try $0.parameters.int("id") }) {
            (profile: any Profile, _) -> RouteOutcome<Int> in profile.userID > 0 ? .handled(profile.userID) : .declined
        }
        try router.register("weread://user/*") { (_: any Greeter, _) in -1 }
        #expect(try router.open("weread://user/7", as: Int.self) == 7)
        #expect(try router.open("weread://user/0", as: Int.self) == -1)
    }

    @Test func whenEveryRouteDeclinesTheFallbackRunsElseADeclinedError() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://a/:x") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("weread://a/*") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://a/1") }
        guard case .declined(let patterns)? = reason else {
            Issue.record("expected declined, got \(String(describing: reason))")
            return
        }
        #expect(patterns == ["weread://a/:x", "weread://a/*"])
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        #expect(try router.open("weread://a/1", as: String.self) == "fallback")
    }

    /// When every candidate declines, what follows (refused, or the fallbacks) comes from the
    /// reading of the router's state that listed the candidates after the best route
    /// declined, even when a later candidate changes routes or fallbacks before declining:
    /// here an in-app-only route refuses the external URL, though a declining handler made
    /// it public meanwhile (read after the handlers, no route would refuse it and the
    /// fallback, which no reading would reach, ran), and a fallback a handler sets is for
    /// later opens.
    @Test func whatFollowsADeclineComesFromTheReadingOfTheCandidates() throws {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback(forScheme: "t") { _ in "fallback" }
        try router.register("t://h/x", inAppOnly: true) { (_: any Greeter, _) in "in-app only" }
        try router.register("t://h/:a", priority: 2) { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("t://h/:b", priority: 1) { [weak router] (_: any Greeter, _) -> RouteOutcome<String> in
            try router?.register("t://h/x") { (_: any Greeter, _) in "made public" }
            return .declined
        }
        let reason = routeErrorReason { () throws(RouteError) in try router.open("t://h/x", from: .external) }
        #expect(caseName(reason) == "inAppOnly")
        #expect(try router.open("t://h/x", as: String.self, from: .external) == "made public")

        let declining = ServiceRouter(registry: makeRegistry())
        try declining.register("t://h/:a", priority: 2) { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try declining.register("t://h/:b", priority: 1) { [weak declining] (_: any Greeter, _) -> RouteOutcome<String> in
            declining?.setFallback(forScheme: "t") { _ in "set while declining" }
            return .declined
        }
        #expect(caseName(routeErrorReason { () throws(RouteError) in try declining.open("t://h/y") }) == "declined")
        #expect(try declining.open("t://h/y", as: String.self) == "set while declining")
    }

    /// The message names every route that declined, in the order they were tried.
    @Test func aDeclinedErrorNamesEveryRouteThatDeclined() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://a/:x") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("weread://a/*") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        let error = try #require(throws: RouteError.self) { try router.open("weread://a/1") }
        #expect(
            error.description == "Every route matching 'weread://a/1' declined it (weread://a/:x, weread://a/*), "
                + "and no fallback took it.")
    }

    /// After a decline, a route that ends where the URL ends goes before a longer one whose
    /// wildcard would match nothing, as it does when the best route is chosen.
    @Test func afterADeclineARouteEndingWithTheURLGoesBeforeAnEmptyWildcard() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/42") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        try router.register("weread://book/:id/*") { (_: any Greeter, _) in "wildcard" }
        try router.register("weread://book/:id") { (_: any Greeter, _) in "exact end" }
        #expect(try router.open("weread://book/42", as: String.self) == "exact end")
    }

    /// A fallback may decline as a route's handler may: the scheme's passes the URL on to
    /// the global one, and when every fallback declines, opening fails with `.declined`.
    @Test func aFallbackMayDeclineAndPassTheURLOn() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        router.setFallback(forScheme: "weread") { request -> RouteOutcome<String> in
            request.url.host == "legacy" ? .handled("update the app") : .declined
        }
        router.setFallback { (greeter: any Greeter, request) -> RouteOutcome<String> in
            request.url.host == "hello" ? .handled(greeter.greet("fallback")) : .declined
        }
        #expect(try router.open("weread://legacy", as: String.self) == "update the app")
        #expect(try router.open("weread://hello", as: String.self) == "Hello, fallback")
        #expect(router.canOpen("weread://nothing"))

        let unmatched = routeErrorReason { () throws(RouteError) in try router.open("weread://nothing") }
        guard case .declined(let none)? = unmatched else {
            Issue.record("expected declined, got \(String(describing: unmatched))")
            return
        }
        #expect(none.isEmpty)
        let error = RouteError(.declined(patterns: []), url: "weread://nothing")
        #expect(error.description == "No route matches 'weread://nothing', and every fallback for it declined it.")

        // With one fallback, the text does not speak of several.
        let single = try makeEchoRouter(["weread://book/:id"])
        single.setFallback { (_: RouteRequest) -> RouteOutcome<String> in .declined }
        let declinedBySingle = try #require(throws: RouteError.self) { try single.open("weread://nothing") }
        #expect(declinedBySingle.description == "No route matches 'weread://nothing', and every fallback for it declined it.")

        try router.register("weread://shelf") { (_: any Greeter, _) -> RouteOutcome<String> in .declined }
        let declinedRoute = routeErrorReason { () throws(RouteError) in try router.open("weread://shelf") }
        guard case .declined(let patterns)? = declinedRoute else {
            Issue.record("expected declined, got \(String(describing: declinedRoute))")
            return
        }
        #expect(patterns == ["weread://shelf"])
    }

    @Test func unmatchedURLsGoToTheSchemeFallbackThenTheGlobalOne() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://nothing") }) == "noRoute")

        router.setFallback { request in "global \(request.url.scheme)" }
        #expect(try router.open("weread://nothing", as: String.self) == "global weread")
        #expect(try router.open("other://x", as: String.self) == "global other")

        router.setFallback(forScheme: "WeRead") { request in "weread fallback \(request.parameters.names.count) \(request.pattern ?? "nil")" }
        #expect(try router.open("weread://nothing", as: String.self) == "weread fallback 0 nil")
        #expect(try router.open("other://x", as: String.self) == "global other")
        #expect(try router.open("weread://book/1", as: String.self) == "weread://book/:id")

        router.removeFallback(forScheme: "weread")
        router.removeFallback()
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://nothing") }) == "noRoute")
    }

    /// Without a route or a fallback for a URL, the message gives both fixes.
    @Test func aURLNoRouteOrFallbackTakesIsToldBothFixes() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        let error = try #require(throws: RouteError.self) { try router.open("weread://nothing") }
        #expect(
            error.description == "No route matches 'weread://nothing' and no fallback is set for its scheme. "
                + "Register a route for it or set a fallback with setFallback(forScheme:).")
    }

    /// A scheme is named as the URL spells it before its `:` or `://`; written with them,
    /// a fallback was stored under a key no URL has, and never ran, while the error said
    /// no fallback was set.
    @Test(arguments: ["https", "HTTPS:", "https://"])
    func aSchemeFallbackTakesTheSchemeWithOrWithoutItsDelimiter(scheme: String) throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        router.setFallback(forScheme: scheme) { _ in "web" }
        #expect(try router.open("https://example.org", as: String.self) == "web")
        #expect(try router.open("https://example.org", as: String.self, from: .external) == "web")
        router.removeFallback(forScheme: scheme)
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("https://example.org") }) == "noRoute")
    }

    @Test func fallbacksMayRunAgainstAService() throws {
        let counter = BuildCounter()
        let router = ServiceRouter(registry: makeRegistry(counter: counter))
        router.setFallback(forScheme: "https") { (greeter: any Greeter, request) in greeter.greet(request.url.host ?? "") }
        #expect(counter.value == 0)
        #expect(try router.open("https://example.org/x", as: String.self) == "Hello, example.org")
        #expect(counter.value == 1)
    }

    /// A fallback's request says where the URL came from, as a route's does.
    @Test func aFallbackSeesWhereTheURLCameFrom() throws {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback(forScheme: "weread") { request in request.origin == .external ? "external" : "in-app" }
        #expect(try router.open("weread://x", as: String.self) == "in-app")
        #expect(try router.open("weread://x", as: String.self, from: .external) == "external")
    }

    /// A fallback's request captures no parameters. A handler shared with a route that
    /// reads one there is told so, with the URL, rather than of a "route" that has none.
    @Test func aParameterReadInAFallbackIsMissingFromTheFallbackNotARoute() throws {
        let router = try makeEchoRouter(["weread://book/:id"])
        router.setFallback(forScheme: "weread") { request in try request.parameters.string("id") }
        let error = try #require(throws: RouteError.self) { try router.open("weread://shelf/1") }
        guard case .missingParameter("id", "fallback"?) = error.reason else {
            Issue.record("expected missingParameter in the fallback, got \(error.reason)")
            return
        }
        #expect(error.url == "weread://shelf/1")
        #expect(
            error.description == "No parameter 'id' for 'weread://shelf/1': a fallback opened it, and a fallback's "
                + "request has no parameters. Read the URL in a fallback (request.url, request.query(_:)).")
    }

    /// Only a query item captures under a name that is not letters, digits and '_'
    /// (`?from-page` captures `from-page`), so for such a name the error suggests only that:
    /// `:from-page` and `#:from-page` would be refused.
    @Test func aMissingParameterOnlyAQueryItemCanNameIsToldThatOnly() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:bookId(int)") { (_: any Greeter, request) in
            try request.parameters.string("from-page")
        }
        let error = try #require(throws: RouteError.self) { try router.open("weread://book/42") }
        #expect(
            error.description == "No parameter 'from-page' in route 'weread://book/:bookId(int)' for 'weread://book/42'; "
                + "the route has: bookId. Use one of those, or declare 'from-page' in the pattern as a query item "
                + "('?from-page=').")
        let declared = try RoutePattern("weread://book/:bookId(int)?from-page=")
        #expect(declared.parameterNames.contains("from-page"))
        // Spelled as a pattern writes the item: an escape for what would read otherwise.
        let spaced = try #require(throws: RouteError.self) { try RouteParameters(["x": "1"]).string(":a b+c") }
        #expect(spaced.description.hasSuffix("declare ':a b+c' in the pattern as a query item ('?%3Aa%20b%2Bc=')."), "\(spaced)")
        #expect(try RoutePattern("weread://x?%3Aa%20b%2Bc=").parameterNames == [":a b+c"])
    }

    /// No pattern declares a parameter without a name ('?=' is a query item without one,
    /// refused), so a read of '' is told no declaration.
    @Test func aMissingParameterWithAnEmptyNameIsToldNoDeclaration() throws {
        let empty = try #require(throws: RouteError.self) { try RouteParameters(["x": "1"]).string("") }
        #expect(empty.description == "No parameter '' in the route; the route has: x. Use one of those: no parameter's name is empty.")
        #expect(throws: RouteError.self) { try RoutePattern("weread://x?=") }
    }

    /// A name the route lacks is most often a typo, so the error lists the names the route
    /// has, in the pattern's order, and the right one is in front of the reader.
    @Test func aMissingParameterErrorListsTheNamesTheRouteHas() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:bookId(int)?from") { (_: any Greeter, request) in
            try request.parameters.string("bookID")
        }
        try router.register("weread://about") { (_: any Greeter, request) in try request.parameters.string("id") }
        let typo = try #require(throws: RouteError.self) { try router.open("weread://book/42?from=push") }
        #expect(
            typo.description == "No parameter 'bookID' in route 'weread://book/:bookId(int)?from' for "
                + "'weread://book/42?from=push'; the route has: bookId, from. Use one of those, or declare 'bookID' "
                + "in the pattern (':bookID', '?bookID=' or '#:bookID').")
        let none = try #require(throws: RouteError.self) { try router.open("weread://about") }
        #expect(
            none.description == "No parameter 'id' in route 'weread://about' for 'weread://about'; the route has "
                + "no parameters. Declare 'id' in the pattern (':id', '?id=' or '#:id').")
        // Parameters made in a test list the names they were given.
        let made = try #require(throws: RouteError.self) {
            try RouteParameters(["path": "a", "*": "b"]).string("page")
        }
        #expect(made.description.contains("; the route has: *, path."), "\(made)")
    }

    /// `*` is the name an unnamed wildcard's value is read and given by, so a route without
    /// one is told to declare that wildcard, not a query item named '*' ('?*=').
    @Test func aMissingStarIsToldToDeclareAnUnnamedWildcard() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://web/*path") { (_: any Greeter, request) in try request.parameters.string("*") }
        let read = try #require(throws: RouteError.self) { try router.open("weread://web/a") }
        #expect(
            read.description == "No parameter '*' in route 'weread://web/*path' for 'weread://web/a'; the route has: "
                + "path. Use one of those, or declare '*' in the pattern as an unnamed wildcard, its last segment.")
        let generated = try #require(throws: RouteError.self) {
            try router.url(for: "weread://web", parameters: ["*": "a/b"])
        }
        #expect(
            generated.description == "No parameter '*' in route 'weread://web'; the route has no parameters. Declare "
                + "'*' in the pattern as an unnamed wildcard, its last segment.")
    }

    @Test func aFailingFallbackIsCalledTheFallbackNotARoute() throws {
        // No route named 'fallback' exists; the messages must not say one matched.
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback(forScheme: "weread") { (_: any Missing, _) in "never" }
        router.setFallback(forScheme: "https") { _ -> String in throw ExampleFailure() }
        do {
            try router.open("weread://nothing")
            Issue.record("expected an error")
        } catch {
            #expect(caseName(error.reason) == "serviceUnavailable")
            #expect(error.description.hasPrefix("The fallback that took 'weread://nothing' could not resolve its service: "), "\(error)")
        }
        do {
            try router.open("https://example.org")
            Issue.record("expected an error")
        } catch {
            #expect(caseName(error.reason) == "handlerFailed")
            #expect(error.description == "The fallback failed for 'https://example.org': example failure")
        }
    }

    @Test func noRouteExplainsTheClosestRoutesUnmetRequirement() throws {
        let router = try makeEchoRouter(["weread://book/:bookId(int)/reviews", "weread://search?q=:term", "weread://tab?name=reviews"])
        let cases: [(String, String, String?, String)] = [
            ("weread://book/abc/reviews", "bookId", "abc", "an int"),
            ("weread://search", "q", nil, "a non-empty value"),
            ("weread://search?q=", "q", "", "a non-empty value"),
            ("weread://tab?name=notes", "name", "notes", "'reviews'"),
        ]
        expectInvalidParameters(opening: cases, in: router)
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("weread://book/1/notes") }) == "noRoute")
    }

    /// The query requirements of the closest route that the URL meets are passed over: the
    /// error names the first one it does not meet.
    @Test func noRouteNamesTheFirstQueryRequirementTheURLDoesNotMeet() throws {
        let router = try makeEchoRouter(["weread://search?kind=book&q=:term", "weread://list?filter=:filter&page=:page(int)"])
        let cases: [(String, String, String?, String)] = [
            ("weread://search?kind=book&q=", "q", "", "a non-empty value"),
            ("weread://list?filter=new&page=two", "page", "two", "an int"),
        ]
        expectInvalidParameters(opening: cases, in: router)
    }

    /// A fragment the closest route captures is named by its parameter; one it fixes is
    /// named `fragment`.
    @Test func noRouteNamesAnUnmetFragmentByTheParameterCapturingIt() throws {
        let router = try makeEchoRouter(["weread://shelf#:section(int)", "weread://note#top"])
        let cases: [(String, String, String?, String)] = [
            ("weread://shelf#top", "section", "top", "an int"),
            ("weread://shelf", "section", nil, "an int"),
            ("weread://note#end", "fragment", "end", "'top'"),
        ]
        expectInvalidParameters(opening: cases, in: router)
    }

    /// Opens each case's URL in `router` and expects `invalidParameter` with the case's
    /// parameter name, value and expected value.
    private func expectInvalidParameters(
        opening cases: [(url: String, name: String, value: String?, expected: String)], in router: ServiceRouter
    ) {
        for (url, name, value, expected) in cases {
            let reason = routeErrorReason { () throws(RouteError) in try router.open(url) }
            guard case .invalidParameter(let gotName, let gotValue, let gotExpected, _)? = reason else {
                Issue.record("expected invalidParameter for \(url), got \(String(describing: reason))")
                continue
            }
            #expect((gotName, gotValue, gotExpected) == (name, value, expected), "\(url)")
        }
    }

    /// `weread:/book/42` (or `weread:book/42`) for `weread://book/42` is a typo no route of
    /// the scheme can match; the message says the fix is in the URL's form.
    @Test func noRouteForAURLInTheOtherFormThanItsSchemesRoutesSaysSo() throws {
        let router = try makeEchoRouter(["weread://book/:id", "mailto:*to"])
        for url in ["weread:/book/42", "weread:book/42"] {
            let error = try #require(throws: RouteError.self) { try router.open(url) }
            #expect(caseName(error.reason) == "noRoute")
            #expect(error.description == "No route matches '\(url)': every route of 'weread' is written with a host "
                + "('weread://host/path'), and this URL has no '//' after 'weread:'. Write the URL in the routes' form, "
                + "or register a route for URLs in its form (or set a fallback with setFallback(forScheme:)).")
        }
        // The scheme ends at the first ':', though a combining mark after it makes one
        // character of the two.
        let marked = try #require(throws: RouteError.self) { try router.open("weread:\u{301}book/42") }
        #expect(marked.description.contains(": every route of 'weread' is written with a host ('weread://host/path'), "
            + "and this URL has no '//' after 'weread:'."), "\(marked)")
        let mail = try #require(throws: RouteError.self) { try router.open("MAILTO://someone") }
        #expect(mail.description.hasPrefix("No route matches 'MAILTO://someone': every route of 'mailto' is written "
            + "without a host ('mailto:path'), and this URL has '//' after 'mailto:'."))
        // With routes of both forms, or a URL of the routes' form, the usual message stands.
        try router.register("weread:settings") { (_: any Greeter, _) in "" }
        let both = try #require(throws: RouteError.self) { try router.open("weread:/nowhere") }
        #expect(both.description.hasPrefix("No route matches 'weread:/nowhere' and no fallback is set"))
        // match(_:from:) does not consult the fallback a scheme has: it says so, not to set one.
        router.setFallback(forScheme: "mailto") { _ in "" }
        let matched = try #require(throws: RouteError.self) { try router.match("mailto://someone") }
        #expect(matched.description.hasSuffix("Write the URL in the routes' form, or register a route for URLs in its form. "
            + "Opening it would run a fallback, which match(_:from:) does not consult."))
        let sameForm = try #require(throws: RouteError.self) { try router.open("weread://nowhere") }
        #expect(sameForm.description.hasPrefix("No route matches 'weread://nowhere' and no fallback is set"))
    }

    /// `weread:///book/42` (as `file:///` is written) has an empty host and `book` as a path
    /// segment, so it matches no route of `weread://book/...`: the message names the URL
    /// with two '/' and the route written for it.
    @Test func noRouteForAPathInAnotherLetterCaseNamesTheRouteWrittenForItInLowerCase() throws {
        let router = try makeEchoRouter(["weread://book/:id(int)/reviews", "weread://shelf/recent"])
        for (url, pattern) in [
            ("weread://book/42/Reviews", "weread://book/:id(int)/reviews"),
            ("WEREAD://BOOK/42/REVIEWS?from=push", "weread://book/:id(int)/reviews"),
            ("weread://shelf/Recent#top", "weread://shelf/recent"),
        ] {
            let error = try #require(throws: RouteError.self) { try router.open(url) }
            #expect(caseName(error.reason) == "noRoute")
            #expect(error.description == "No route matches '\(url)': a path is matched letter for letter, unlike the "
                + "scheme and host, and route '\(pattern)' opens the URL with its path in lower case. Write the path as "
                + "the route does, or register a route for this spelling (or set a fallback with setFallback(forScheme:)).")
        }
        // A path no route opens in lower case either (one that would refuse its id is none),
        // or already in lower case, gets the usual message.
        for url in ["weread://book/42/Ratings", "weread://book/x/Reviews", "weread://book/42/ratings"] {
            let error = try #require(throws: RouteError.self) { try router.open(url) }
            #expect(error.description.hasPrefix("No route matches '\(url)' and no fallback is set"), "\(error)")
        }
        // An external URL is not pointed at an in-app-only route.
        let inApp = try makeEchoRouter([])
        try inApp.register("weread://debug/logs", inAppOnly: true) { (_: any Greeter, _) in "" }
        try inApp.register("weread://shelf") { (_: any Greeter, _) in "" }
        let external = try #require(throws: RouteError.self) { try inApp.open("weread://debug/Logs", from: .external) }
        #expect(external.description.hasPrefix("No route matches 'weread://debug/Logs' and no fallback is set"), "\(external)")
        // match(_:from:) does not consult the fallback: it says so, not to set one.
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        let matched = try #require(throws: RouteError.self) { try router.match("weread://shelf/RECENT") }
        #expect(matched.description.hasPrefix("No route matches 'weread://shelf/RECENT': a path is matched letter for letter"))
        #expect(!matched.description.contains("set a fallback"), "\(matched)")
    }

    @Test func noRouteForAURLWithAnEmptyHostNamesTheRouteItsFormWithTwoSlashesReaches() throws {
        let router = try makeEchoRouter(["weread://book/:id(int)", "weread://shelf"])
        for (url, respelled, pattern) in [
            ("weread:///book/42", "weread://book/42", "weread://book/:id(int)"),
            ("WeRead:////book/7?from=push", "WeRead://book/7?from=push", "weread://book/:id(int)"),
            ("weread:///shelf#top", "weread://shelf#top", "weread://shelf"),
        ] {
            let error = try #require(throws: RouteError.self) { try router.open(url) }
            #expect(caseName(error.reason) == "noRoute")
            #expect(error.description == "No route matches '\(url)': its host is empty, since more than two '/' follow "
                + "'weread:', and route '\(pattern)' opens the URL with two, '\(respelled)'. Write the URL "
                + "so, or register a route for it (or set a fallback with setFallback(forScheme:)).")
        }
        // Without a route that opens the URL with two '/' (one that would refuse its id is
        // none), or without a path to make a host of, the usual message stands.
        for url in ["weread:///nowhere/42", "weread:///book/x", "weread:///", "weread://?q=1"] {
            let error = try #require(throws: RouteError.self) { try router.open(url) }
            #expect(error.description.hasPrefix("No route matches '\(url)' and no fallback is set"), "\(error)")
        }
        // An external URL is not pointed at an in-app-only route.
        let inApp = try makeEchoRouter([])
        try inApp.register("weread://debug", inAppOnly: true) { (_: any Greeter, _) in "" }
        try inApp.register("weread://shelf") { (_: any Greeter, _) in "" }
        let external = try #require(throws: RouteError.self) { try inApp.open("weread:///debug", from: .external) }
        #expect(external.description.hasPrefix("No route matches 'weread:///debug' and no fallback is set"), "\(external)")
        // match(_:from:) does not consult the fallback: it says so, not to set one.
        router.setFallback(forScheme: "weread") { _ in "" }
        let matched = try #require(throws: RouteError.self) { try router.match("weread:///book/42") }
        #expect(matched.description.hasSuffix("opens the URL with two, 'weread://book/42'. "
            + "Opening it would run a fallback, which match(_:from:) does not consult."))
    }

    /// Parameters made for calling a handler directly in a test give the wildcard's value
    /// as matching would: an unnamed one under `*`, a named one when it is named.
    @Test func parametersMadeForATestGiveTheWildcardAsMatchingDoes() throws {
        let router = try makeEchoRouter(["weread://web/*", "weread://doc/*path"])
        #expect(try router.match("weread://web/a/b").parameters.wildcard == "a/b")
        #expect(RouteParameters(["*": "a/b"]).wildcard == "a/b")
        #expect(try router.match("weread://doc/a/b").parameters.wildcard == "a/b")
        #expect(RouteParameters(["path": "a/b", "id": "1"], wildcardName: "path").wildcard == "a/b")
        #expect(RouteParameters(["id": "1"]).wildcard == nil)
        #expect(RouteParameters(["path": "a/b"]).wildcard == nil)
    }

    /// Parameters made for a test list their names in one order, not in the order the
    /// dictionary they came from happens to have in this run.
    @Test func parametersMadeForATestListTheirNamesInOrder() {
        let parameters = RouteParameters(["f": "6", "b": "2", "e": "5", "a": "1", "d": "4", "c": "3"])
        #expect(parameters.names == ["a", "b", "c", "d", "e", "f"])
        #expect(parameters.description == "[a=1, b=2, c=3, d=4, e=5, f=6]")
    }

    /// Parameters made for a test belong to no route and no URL: a value that does not
    /// convert is reported without either.
    @Test func aValueOfParametersMadeForATestThatDoesNotConvertNamesNoRoute() throws {
        let error = try #require(throws: RouteError.self) { try RouteParameters(["id": "abc"]).int("id") }
        #expect(error.description == "Parameter 'id' must be an int, but got 'abc'.")
    }

    /// A handler that may decline, called directly with a request made for a test, is
    /// checked with `==`; opening through the router gives what it returns.
    @Test func outcomesOfAHandlerCalledDirectlyCompareWithEquals() throws {
        let handler: @Sendable (any Greeter, RouteRequest) throws -> RouteOutcome<String> = { greeter, request in
            let name = try request.parameters.string("name")
            return name == "nobody" ? .declined : .handled(greeter.greet(name))
        }
        func request(_ name: String) throws -> RouteRequest {
            RouteRequest(
                url: try RouteURL("weread://greet/\(name)"), parameters: RouteParameters(["name": name]),
                pattern: "weread://greet/:name", origin: .inApp)
        }
        #expect(try handler(PoliteGreeter(), request("Ada")) == .handled("Hello, Ada"))
        #expect(try handler(PoliteGreeter(), request("Ada")) != .handled("Hello, Bob"))
        #expect(try handler(PoliteGreeter(), request("nobody")) == .declined)
        #expect(RouteOutcome<String>.declined != .handled(""))

        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://greet/:name", handler: handler)
        #expect(try router.open("weread://greet/Ada", as: String.self) == "Hello, Ada")
    }

    /// A required query item written without '=' is in the URL, so the error does not
    /// call it missing: its value is empty.
    @Test func aRequiredQueryItemWithoutAValueIsNotCalledMissing() throws {
        let router = try makeEchoRouter(["weread://search?q=:term", "weread://tab?name=reviews"])
        let bare = try #require(throws: RouteError.self) { try router.open("weread://search?q") }
        #expect(
            bare.description == "Cannot open 'weread://search?q': parameter 'q' of route 'weread://search?q=:term' "
                + "must be a non-empty value, but got ''.")
        let literal = try #require(throws: RouteError.self) { try router.open("weread://tab?name&other=1") }
        guard case .invalidParameter("name", "", "'reviews'", _) = literal.reason else {
            Issue.record("expected invalidParameter with an empty value, got \(literal.reason)")
            return
        }
        let absent = try #require(throws: RouteError.self) { try router.open("weread://search?x") }
        #expect(absent.description.contains("must be a non-empty value, but it is missing."))
    }

    /// A captured query value or fragment must not be empty whatever its type, and a custom
    /// type may accept an empty value (`{ $0.allSatisfy(...) }` does): the error then says
    /// the value must not be empty, rather than that it must be what it is.
    @Test func anEmptyValueForATypeThatAcceptsOneIsRefusedForBeingEmpty() throws {
        let slug = ParameterType(name: "slug", description: "lowercase letters") { $0.allSatisfy(\.isLowercase) }
        let router = try makeEchoRouter(
            ["weread://search?q=:term(slug)", "weread://doc#:section(slug)"], configuration: .init(parameterTypes: [slug]))
        let query = try #require(throws: RouteError.self) { try router.open("weread://search?q=") }
        #expect(
            query.description == "Cannot open 'weread://search?q=': parameter 'q' of route 'weread://search?q=:term(slug)' "
                + "must be lowercase letters (not empty), but got ''.")
        let fragment = try #require(throws: RouteError.self) { try router.open("weread://doc#") }
        #expect(fragment.description.contains("must be lowercase letters (not empty), but got ''."), "\(fragment)")
        // A type that refuses an empty value says so itself.
        let typed = try #require(throws: RouteError.self) { try makeEchoRouter(["weread://p?n=:n(int)"]).open("weread://p?n=") }
        #expect(typed.description.contains("must be an int, but got ''."), "\(typed)")

        for (pattern, name) in [("weread://search?q=:term(slug)", "term"), ("weread://doc#:section(slug)", "section")] {
            let generated = try #require(throws: RouteError.self) { try router.url(for: pattern, parameters: [name: ""]) }
            #expect(generated.description.contains("must be lowercase letters (not empty), but got ''."), "\(generated)")
        }
        let segment = try #require(throws: RouteError.self) {
            try RoutePattern("weread://tag/:t(slug)", parameterTypes: [slug]).url(parameters: ["t": ""])
        }
        #expect(segment.description == "Parameter 't' of route 'weread://tag/:t(slug)' must be lowercase letters (not empty), but got ''.")
    }

    /// A custom type's closure never sees an empty capture, and may rely on that: an error
    /// about an empty value, from a URL or for one generated, does not ask it about ''
    /// (a closure taking `$0.first!` would trap on a link as `weread://search?q=`).
    @Test func anEmptyValueIsRefusedWithoutAskingTheCustomType() throws {
        let initial = ParameterType(name: "initial", description: "a word starting with a capital") { value in
            if value.isEmpty { askedAboutEmpty.add(1, ordering: .relaxed) }
            return !value.isEmpty && value.first!.isUppercase
        }
        let router = try makeEchoRouter(
            ["weread://search?q=:term(initial)", "weread://doc#:section(initial)"],
            configuration: .init(parameterTypes: [initial]))
        let query = try #require(throws: RouteError.self) { try router.open("weread://search?q=") }
        #expect(query.description.contains("must be a word starting with a capital (not empty), but got ''."), "\(query)")
        _ = try #require(throws: RouteError.self) { try router.open("weread://doc#") }
        _ = try #require(throws: RouteError.self) {
            try router.url(for: "weread://search?q=:term(initial)", parameters: ["term": ""])
        }
        #expect(askedAboutEmpty.load(ordering: .relaxed) == 0)
    }

    /// The host is the one capture a URL may leave empty (`weread:///x`), and a typed one
    /// refuses that too without asking the custom type, whether the URL is opened, checked
    /// or generated: an outside link must not reach a closure that takes `$0.first!`.
    @Test func anEmptyHostIsRefusedByATypedHostWithoutAskingTheCustomType() throws {
        let asked = BuildCounter()
        let word = ParameterType(name: "word", description: "a word starting with a letter") { value in
            if value.isEmpty { asked.increment() }
            return !value.isEmpty && value.first!.isLetter
        }
        let pattern = "weread://:screen(word)/x"
        let router = try makeEchoRouter([pattern], configuration: .init(parameterTypes: [word]))
        #expect(!router.canOpen("weread:///x", from: .external))
        let opened = try #require(throws: RouteError.self) { try router.open("weread:///x", from: .external) }
        #expect(
            opened.description == "Cannot open 'weread:///x': parameter 'screen' of route '\(pattern)' must be a word "
                + "starting with a letter (not empty), but got ''.")
        let generated = try #require(throws: RouteError.self) { try router.url(for: pattern, parameters: ["screen": ""]) }
        #expect(
            generated.description
                == "Parameter 'screen' of route '\(pattern)' must be a word starting with a letter (not empty), but got ''.")
        #expect(asked.value == 0)
        // An untyped host still takes the empty host, as it always did.
        #expect(try makeEchoRouter(["weread://:screen/x"]).match("weread:///x").parameters["screen"] == "")
    }

    /// A newcomer puts in the pattern the query item or fragment a handler reads, and the
    /// route then refuses every URL without it: the error says how to make it optional.
    @Test(arguments: [
        ("https://example.com/book/:id(int)?from=:source", "https://example.com/book/42",
         "parameter 'from' of route 'https://example.com/book/:id(int)?from=:source' must be a non-empty value, but it is "
            + "missing. A pattern's query items are required: if 'from' may be left out, remove it from the pattern and "
            + "read it in the handler with request.query(\"from\")."),
        ("weread://doc#:section", "weread://doc",
         "parameter 'section' of route 'weread://doc#:section' must be a non-empty value, but it is missing. A pattern's "
            + "fragment is required: if it may be left out, remove it from the pattern and read it in the handler as "
            + "request.url.fragment."),
    ])
    func aMissingQueryItemOrFragmentSaysHowToMakeItOptional(pattern: String, url: String, explanation: String) throws {
        let router = try makeEchoRouter([pattern])
        let error = try #require(throws: RouteError.self) { try router.open(url) }
        #expect(error.description == "Cannot open '\(url)': " + explanation)
        // One that is there but wrong is not missing, so it gets no such advice.
        let present = try #require(throws: RouteError.self) { try router.open(url + "?from=&name=x#") }
        #expect(!present.description.contains("required:"), "\(present)")
        // match(_:from:) says the same, before its note that a fallback would take the URL.
        router.setFallback { _ in "fallback" }
        let matched = try #require(throws: RouteError.self) { try router.match(url) }
        #expect(matched.description.contains(explanation + " Opening it would run a fallback"), "\(matched)")
    }

    /// A fixed value (`?name=reviews`, `#intro`) tells routes apart, so a URL lacking it is
    /// not told to drop it from the pattern.
    @Test(arguments: [
        ("weread://tab?name=reviews", "weread://tab?other=1",
         "parameter 'name' of route 'weread://tab?name=reviews' must be 'reviews', but it is missing."),
        ("weread://doc#intro", "weread://doc",
         "parameter 'fragment' of route 'weread://doc#intro' must be 'intro', but it is missing."),
    ])
    func aMissingFixedQueryItemOrFragmentIsNotCalledOptional(pattern: String, url: String, explanation: String) throws {
        let router = try makeEchoRouter([pattern])
        let error = try #require(throws: RouteError.self) { try router.open(url) }
        #expect(error.description == "Cannot open '\(url)': " + explanation)
    }

    @Test func matchReportsTheWinningRouteWithoutResolvingAnything() throws {
        let counter = BuildCounter()
        let router = ServiceRouter(registry: makeRegistry(counter: counter))
        try router.register("weread://book/:bookId(int)/reviews") { (greeter: any Greeter, _) in greeter.greet("x") }
        let request = try router.match("weread://book/42/reviews?from=push")
        #expect(request.pattern == "weread://book/:bookId(int)/reviews")
        #expect(request.parameters["bookId"] == "42")
        #expect(request.query("from") == "push")
        #expect(counter.value == 0)
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.match("weread://nope") }) == "noRoute")
    }

    /// `match` does not consult fallbacks, so when no route takes a URL it throws, but
    /// its error must not say no fallback is set, or that the URL cannot be opened, when
    /// opening would run one.
    @Test func matchDoesNotSayAURLCannotBeOpenedWhenAFallbackWouldTakeIt() throws {
        let router = try makeEchoRouter(["weread://book/:id(int)"])
        router.setFallback(forScheme: "weread") { _ in "fallback" }
        let none = try #require(throws: RouteError.self) { try router.match("weread://nothing") }
        #expect(caseName(none.reason) == "noRoute")
        #expect(
            none.description == "No route matches 'weread://nothing'. Opening it would run a fallback, "
                + "which match(_:from:) does not consult.")
        let typed = try #require(throws: RouteError.self) { try router.match("weread://book/x") }
        #expect(caseName(typed.reason) == "invalidParameter")
        #expect(
            typed.description == "No route matches 'weread://book/x': parameter 'id' of route 'weread://book/:id(int)' "
                + "must be an int, but got 'x'. Opening it would run a fallback, which match(_:from:) does not consult.")
        #expect(try router.open("weread://book/x", as: String.self) == "fallback")

        router.removeFallback(forScheme: "weread")
        let unopenable = try #require(throws: RouteError.self) { try router.match("weread://book/x") }
        #expect(unopenable.description.hasPrefix("Cannot open 'weread://book/x': parameter 'id'"))
    }

    @Test func handlersMayOpenURLsAndRegisterRoutesWithoutDeadlocking() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://inner") { (_: any Greeter, _) in "inner" }
        try router.register("weread://outer") { [router] (_: any Greeter, _) in
            try router.register("weread://added") { (_: any Greeter, _) in "added" }
            return try router.open("weread://inner", as: String.self) + "+outer"
        }
        #expect(try router.open("weread://outer", as: String.self) == "inner+outer")
        #expect(try router.open("weread://added", as: String.self) == "added")
    }

    /// An error app code makes with `RouteError(_:url:)` (a handler may throw one, and it
    /// passes through) lacks what only the router knows, such as the names a route has:
    /// its description still reads, with a fix that does not need them.
    @Test func anErrorMadeByAppCodeReadsWithoutWhatOnlyTheRouterKnows() {
        let missing = RouteError(.missingParameter(name: "id", pattern: "weread://book/:id"), url: "weread://book/1")
        #expect(
            missing.description == "No parameter 'id' in route 'weread://book/:id' for 'weread://book/1'. Use a name "
                + "declared in the pattern, or declare 'id' in the pattern (':id', '?id=' or '#:id').")
        let item = RouteError(.conflictingQueryItem(name: "q", value: "emma", pattern: "weread://search?q=:text"))
        #expect(
            item.description == "Cannot build a URL for route 'weread://search?q=:text': the extra query item 'q=emma' "
                + "is named like an item the pattern fixes or captures, and a URL opened reads only the first item of "
                + "a name, so the extra one would be lost. Leave it out of query:, or give it another name.")
        let fragment = RouteError(.conflictingFragment(value: "bottom", pattern: "weread://shelf#top"))
        #expect(
            fragment.description == "Cannot build a URL for route 'weread://shelf#top': the pattern fixes or captures "
                + "the fragment, so the fragment 'bottom' given would be lost (a URL has one). Leave out fragment:.")
    }

    @Test func everyErrorDescriptionNamesTheURLAndAFix() throws {
        let router = try makeEchoRouter(["weread://book/:id(int)"])
        for url in ["weread://book/x", "weread://nothing", "nope", "weread://book/%zz"] {
            do {
                try router.open(url, from: .external)
                Issue.record("expected an error for \(url)")
            } catch {
                #expect(error.description.contains(url), "\(error)")
            }
        }
    }
}

struct LoudGreeter: Greeter {
    func greet(_ name: String) -> String { "HELLO, \(name.uppercased())" }
}

/// A handler result whose full name the runtime gives a context with an address.
private struct PrivateResult: Sendable {}

/// A route parameter's type, nested as an app's often is.
private enum Shelf {
    struct Slot: LosslessStringConvertible {
        let number: Int
        init?(_ description: String) {
            guard let number = Int(description) else { return nil }
            self.number = number
        }
        var description: String { String(number) }
    }
}
