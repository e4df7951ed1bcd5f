import ServiceRegistry
import ServiceRouter
import Synchronization
import Testing

/// The router's promises with several threads at once, beyond what the "Concurrency" suite
/// covers: precedence as routes are added, the listing, registrations that throw, origins,
/// fallbacks, services re-registered in the registry and the diagnostics of a miss.
///
/// Each writer publishes, in an atomic, how far it has got once a `register` (or
/// `setFallback`) has returned; a reader that reads it before opening a URL must see at
/// least that much. Readers collect what went wrong rather than failing at once, so that a
/// failure names the first few cases. Writers and readers yield often: readers run until
/// the writers are done (or a writer has thrown), and the pool may have fewer threads (two,
/// on a 2-core machine) than tasks, so a task that never yields could run alone to its end.
@Suite("Router under threads")
struct RouterThreadsTests {
    /// Two writers take turns adding, for one URL, parameter routes of ever higher priority,
    /// each spelled with its own parameter name (so none replaces another), and wildcard
    /// routes of still higher priority that lose to every parameter route anyway. An open
    /// takes the best route registered before it started: never a wildcard, never one that
    /// ranks below a route already published, and never a lower one than the reader's last.
    @Test func anOpenTakesTheBestRouteRegisteredBeforeItStarted() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://item/:id") { (_: any Greeter, _) in 0 }
        let writers = 2, rounds = 200, readers = 2
        let published = Progress()
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 1...rounds {
                        await Task.yield()
                        let priority = round * writers + writer
                        try router.register("weread://item/*rest", priority: 10 * rounds * writers + priority) { (_: any Greeter, _) in
                            -priority
                        }
                        try router.register("weread://item/:p\(priority)", priority: priority) { (_: any Greeter, request) in
                            _ = try request.parameters.string("p\(priority)")
                            return priority
                        }
                        published.publish(priority)
                    }
                    return []
                }
            }
            for _ in 0..<readers {
                group.addTask {
                    var problems: [String] = []
                    var last = 0
                    var done = false
                    while !done && !Task.isCancelled {
                        await Task.yield()
                        let before = published.value
                        done = before == rounds * writers + writers - 1
                        let value = (try? router.open("weread://item/7", as: Int.self)) ?? Int.min
                        if value < before || value < last {
                            problems.append("opened \(value) after \(before) was published and \(last) was opened")
                        }
                        last = max(last, value)
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(router.routeCount == 1 + 2 * writers * rounds)
        #expect(try router.open("weread://item/7", as: Int.self) == rounds * writers + writers - 1)
    }

    /// Writers register routes of several kinds (in-app only or not, priorities, a service
    /// taking an argument) between registrations that throw: a bad parameter type, and a
    /// pattern only URLs over the parsing limits could match. Every listing shows whole
    /// routes, each as registered, of each writer a prefix of what it registered (never a
    /// later route without an earlier one), never shrinking, and nothing of a registration
    /// that threw; a route listed can be matched.
    @Test func theListingShowsWholeRoutesAndNothingOfARegistrationThatThrew() async throws {
        var configuration = ServiceRouter.Configuration()
        configuration.parsing.maximumSegmentCount = 6
        let router = ServiceRouter(registry: makeRegistry(), configuration: configuration)
        let writers = 3, rounds = 120, readers = 2
        let finished = Progress()
        @Sendable func expected(_ writer: Int, _ round: Int) -> ExpectedRoute {
            ExpectedRoute(
                pattern: "weread://w\(writer)/r\(round)/:id(int)", service: round.isMultiple(of: 3) ? "Profile" : "Greeter",
                priority: round % 4 - 2, isInAppOnly: round.isMultiple(of: 2))
        }
        let problems = await withTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var problems: [String] = []
                    for round in 0..<rounds {
                        await Task.yield()
                        let route = expected(writer, round)
                        do {
                            if route.service == "Profile" {
                                try router.register(
                                    route.pattern, priority: route.priority, inAppOnly: route.isInAppOnly,
                                    argument: { try $0.parameters.int("id") }
                                ) { (profile: any Profile, _) in profile.userID }
                            } else {
                                try router.register(route.pattern, priority: route.priority, inAppOnly: route.isInAppOnly) {
                                    (_: any Greeter, request) in try request.parameters.int("id")
                                }
                            }
                        } catch {
                            problems.append("\(route.pattern) threw \(error)")
                        }
                        for bad in ["weread://w\(writer)/bad\(round)/:id(nosuchtype)", "weread://w\(writer)/over\(round)/a/b/c/d/e/f"] {
                            let reason = routeErrorReason { () throws(RouteError) in
                                try router.register(bad) { (_: any Greeter, _) in 0 }
                            }
                            if caseName(reason) != "invalidPattern" { problems.append("\(bad): \(caseName(reason))") }
                        }
                    }
                    finished.advance()
                    return problems
                }
            }
            for _ in 0..<readers {
                group.addTask {
                    var problems: [String] = []
                    var seen = [Int](repeating: 0, count: writers)
                    var done = false
                    while !done && !Task.isCancelled {
                        await Task.yield()
                        done = finished.value == writers
                        let listing = router.routes
                        var rounds = [[Int]](repeating: [], count: writers)
                        for route in listing {
                            let parts = route.pattern.split(separator: "/")
                            guard parts.count == 4, parts[1].first == "w", parts[2].first == "r",
                                let writer = Int(parts[1].dropFirst()), let round = Int(parts[2].dropFirst()),
                                (0..<writers).contains(writer), expected(writer, round).describes(route)
                            else {
                                problems.append("listed \(route)")
                                continue
                            }
                            rounds[writer].append(round)
                        }
                        for writer in 0..<writers {
                            let listed = rounds[writer].sorted()
                            if listed != Array(0..<listed.count) || listed.count < seen[writer] {
                                problems.append("writer \(writer): listed \(listed) after \(seen[writer])")
                            }
                            seen[writer] = max(seen[writer], listed.count)
                            if let round = listed.last, (try? router.match("weread://w\(writer)/r\(round)/5")) == nil {
                                problems.append("listed weread://w\(writer)/r\(round)/:id(int) does not match")
                            }
                        }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(router.routeCount == writers * rounds)
        #expect(router.routes.count == writers * rounds)
        #expect(router.routes.allSatisfy { !$0.pattern.contains("bad") && !$0.pattern.contains("over") })
        #expect(try router.open("weread://w2/r3/9", as: Int.self) == 9)
    }

    /// One writer adds schemes, each with an in-app-only route and then a public one; two
    /// more keep replacing one route between its in-app-only and public forms, ending
    /// in-app only. From outside, an in-app-only handler never runs, the public route of a
    /// published scheme always opens (and so does one app code could already open), the
    /// in-app-only route is refused as such (or, before its scheme has a public route, for its
    /// scheme), and at the end the scheme whose only route is in-app only is refused again.
    @Test func originRulesHoldWhileRoutesAreAddedAndReplaced() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        let schemes = 200, toggles = 250, readers = 2
        let published = Progress(-1)
        let finished = Progress()
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                for scheme in 0..<schemes {
                    await Task.yield()
                    try router.register("s\(scheme)://secret", inAppOnly: true) { (_: any Greeter, request) in
                        request.origin == .inApp ? "secret" : "secret opened from outside"
                    }
                    try router.register("s\(scheme)://open") { (_: any Greeter, _) in "open" }
                    published.publish(scheme)
                }
                finished.advance()
                return []
            }
            for _ in 0..<2 {
                group.addTask {
                    for round in 0..<toggles {
                        await Task.yield()
                        // Each toggler ends in-app only, so the route does whichever finishes last.
                        let inAppOnly = (toggles - 1 - round).isMultiple(of: 2)
                        try router.register("t://x", inAppOnly: inAppOnly) { (_: any Greeter, request) in
                            inAppOnly && request.origin != .inApp ? "in-app only route opened from outside" : "x"
                        }
                    }
                    finished.advance()
                    return []
                }
            }
            for reader in 0..<readers {
                group.addTask {
                    var problems: [String] = []
                    var round = reader
                    var done = false
                    while !done && !Task.isCancelled {
                        await Task.yield()
                        done = finished.value == 3
                        let newest = published.value
                        round += 1
                        if newest >= 0 {
                            let scheme = round % (newest + 1)
                            if (try? router.open("s\(scheme)://open", as: String.self, from: .external)) != "open" {
                                problems.append("s\(scheme)://open did not open from outside")
                            }
                            let reason = routeErrorReason { () throws(RouteError) in
                                try router.open("s\(scheme)://secret", as: String.self, from: .external)
                            }
                            if caseName(reason) != "inAppOnly" { problems.append("s\(scheme)://secret: \(caseName(reason))") }
                        }
                        // The scheme being added: refused either way, never opened.
                        let next = newest + 1
                        let reason = routeErrorReason { () throws(RouteError) in
                            try router.open("s\(next)://secret", as: String.self, from: .external)
                        }
                        if !["inAppOnly", "schemeNotAllowed"].contains(caseName(reason)) {
                            problems.append("s\(next)://secret: \(caseName(reason))")
                        }
                        if router.canOpen("s\(next)://secret", from: .external) { problems.append("can open s\(next)://secret") }
                        // Once app code can open the public route, outside URLs can: the scheme is
                        // allowed by the same registration that stored the route.
                        if router.canOpen("s\(next)://open"), !router.canOpen("s\(next)://open", from: .external) {
                            problems.append("s\(next)://open opens in-app but not from outside")
                        }
                        switch Result(catching: { () throws(RouteError) in try router.open("t://x", as: String.self, from: .external) }) {
                        case .success(let text) where text != "x": problems.append("t://x: \(text)")
                        case .failure(let error) where !["inAppOnly", "schemeNotAllowed"].contains(caseName(error.reason)):
                            problems.append("t://x: \(caseName(error.reason))")
                        default: break
                        }
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(router.routeCount == 2 * schemes + 1)
        #expect(router.routes.filter(\.isInAppOnly).count == schemes + 1)
        #expect(!router.canOpen("t://x", from: .external))
        #expect(!router.canOpen("t://other", from: .external))
        router.setFallback { _ in "global" }
        #expect(caseName(routeErrorReason { () throws(RouteError) in try router.open("t://other", from: .external) }) == "schemeNotAllowed")
        #expect(try router.open("t://x", as: String.self) == "x")
    }

    /// A writer keeps replacing the scheme's fallback, by each of the `setFallback` forms,
    /// with ever newer versions, while another sets and removes the fallback of a second
    /// scheme, and readers open URLs that fall through to them (no route at all, and a route
    /// that declines). The scheme's fallback always answers, never the global one, with a
    /// version no older than one already published or than the reader's last.
    @Test func opensFallingThroughReachTheNewestSchemeFallback() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://maybe") { (_: any Greeter, _) -> RouteOutcome<Int> in .declined }
        router.setFallback { _ in -1 }
        router.setFallback(forScheme: "weread") { _ in 0 }
        let versions = 1_000, readers = 2
        let published = Progress()
        let finished = Progress()
        let problems = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                for version in 1...versions {
                    // Less often than readers: replacing a fallback is cheaper than an open.
                    if version.isMultiple(of: 8) { await Task.yield() }
                    switch version % 4 {
                    case 0: router.setFallback(forScheme: "WeRead") { _ in version }
                    case 1: router.setFallback(forScheme: "weread://") { _ -> RouteOutcome<Int> in .handled(version) }
                    case 2: router.setFallback(forScheme: "weread") { (_: any Greeter, _) in version }
                    default: router.setFallback(forScheme: "weread:") { (_: any Greeter, _) -> RouteOutcome<Int> in .handled(version) }
                    }
                    published.publish(version)
                }
                finished.advance()
                return []
            }
            group.addTask {
                for round in 0..<versions {
                    await Task.yield()
                    if round.isMultiple(of: 2) {
                        router.setFallback(forScheme: "other") { _ in -2 }
                    } else {
                        router.removeFallback(forScheme: "other")
                    }
                }
                finished.advance()
                return []
            }
            for reader in 0..<readers {
                group.addTask {
                    var problems: [String] = []
                    var last = 0
                    var done = false
                    var round = reader
                    while !done && !Task.isCancelled {
                        if round.isMultiple(of: 8) { await Task.yield() }
                        done = finished.value == 2
                        round += 1
                        let before = published.value
                        let url = round.isMultiple(of: 2) ? "weread://maybe" : "weread://nothing/\(round)"
                        let value = (try? router.open(url, as: Int.self)) ?? Int.min
                        if value < before || value < last {
                            problems.append("\(url) gave \(value) after \(before) was published and \(last) was opened")
                        }
                        last = max(last, value)
                        let other = try? router.open("other://x", as: Int.self)
                        if other != -2 && other != -1 { problems.append("other://x gave \(String(describing: other))") }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(try router.open("weread://maybe", as: Int.self) == versions)
        #expect(try router.open("other://x", as: Int.self) == -1)
    }
}

/// How far a writer has got, published after the call it counts has returned: a reader
/// that reads it before calling the router must see at least that much.
private final class Progress: Sendable {
    private let current: Atomic<Int>

    init(_ initial: Int = 0) { current = Atomic(initial) }

    /// Raises the published value to `value`, if it is higher.
    func publish(_ value: Int) { current.max(value, ordering: .releasing) }
    /// Adds one, for a writer that has finished.
    func advance() { current.add(1, ordering: .releasing) }
    var value: Int { current.load(ordering: .acquiring) }
}

/// What the listing must show for a route a writer registered.
private struct ExpectedRoute: Sendable {
    let pattern: String
    let service: String
    let priority: Int
    let isInAppOnly: Bool

    func describes(_ route: RouteDescription) -> Bool {
        route.pattern == pattern && route.serviceType == service && route.qualifiedServiceType == "ServiceRouterTests.\(service)"
            && route.serviceName == nil && route.priority == priority && route.isInAppOnly == isInAppOnly
    }
}

/// A service whose registrations are numbered, to tell which one a resolve used.
private protocol Versioned: Sendable {
    var version: Int { get }
}

private struct VersionedService: Versioned {
    let version: Int
}

extension RouterThreadsTests {
    /// The router resolves a route's service when the URL is opened, never earlier: while a
    /// thread keeps registering the service again in the registry, as a singleton and as a
    /// transient service in turn, opens get the version registered before they started (or
    /// a newer one), never an older one than the reader had, and `canOpen` stays true.
    @Test func opensResolveTheServiceRegisteredWhenTheyRun() async throws {
        let registry = makeRegistry()
        registry.register((any Versioned).self) { _ in VersionedService(version: 0) }
        let router = ServiceRouter(registry: registry)
        try router.register("weread://versioned") { (service: any Versioned, _) in service.version }
        try router.register("weread://versioned/:id(int)", argument: { try $0.parameters.int("id") }) {
            (profile: any Profile, _) in profile.userID
        }
        // Resolved once before the threads start: a router that kept what it resolved would
        // go on answering 0.
        #expect(try router.open("weread://versioned", as: Int.self) == 0)
        let versions = 400, readers = 2
        let published = Progress()
        let problems = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                for version in 1...versions {
                    await Task.yield()
                    registry.register((any Versioned).self, scope: version.isMultiple(of: 2) ? .singleton : .transient) { _ in
                        VersionedService(version: version)
                    }
                    registry.register(Profile.self) { (_, userID: Int) in UserProfile(userID: userID) }
                    published.publish(version)
                }
                return []
            }
            for reader in 0..<readers {
                group.addTask {
                    var problems: [String] = []
                    var last = 0
                    var round = reader
                    var done = false
                    while !done && !Task.isCancelled {
                        await Task.yield()
                        round += 1
                        let before = published.value
                        done = before == versions
                        let value = (try? router.open("weread://versioned", as: Int.self)) ?? Int.min
                        if value < before || value < last {
                            problems.append("opened version \(value) after \(before) was published and \(last) was opened")
                        }
                        last = max(last, value)
                        if !router.canOpen("weread://versioned") { problems.append("cannot open weread://versioned") }
                        if (try? router.open("weread://versioned/\(round)", as: Int.self)) != round {
                            problems.append("weread://versioned/\(round) did not open")
                        }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(try router.open("weread://versioned", as: Int.self) == versions)
    }

    /// A miss is explained with the route nearest to it as it is at that moment: while
    /// writers keep replacing a typed route with spellings that differ in the parameter's
    /// name, and add unrelated routes, in-app-only ones among them, a URL the typed route
    /// refuses is always explained by one whole spelling (the name it reports is the one in
    /// the pattern it names), from outside never by an in-app-only route, and a URL no route
    /// is near stays `noRoute`.
    @Test func aMissIsExplainedByOneWholeRoute() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id(int)") { (_: any Greeter, _) in 0 }
        try router.register("weread://secret/:id(int)", inAppOnly: true) { (_: any Greeter, _) in 0 }
        let writers = 2, rounds = 200, readers = 2
        let finished = Progress()
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        await Task.yield()
                        try router.register("weread://book/:w\(writer)r\(round)(int)") { (_: any Greeter, _) in 0 }
                        try router.register("weread://shelf/w\(writer)/\(round)/:id(int)", inAppOnly: round.isMultiple(of: 2)) {
                            (_: any Greeter, _) in 0
                        }
                    }
                    finished.advance()
                    return []
                }
            }
            for reader in 0..<readers {
                group.addTask {
                    var problems: [String] = []
                    var done = false
                    while !done && !Task.isCancelled {
                        await Task.yield()
                        done = finished.value == writers
                        let origin: URLOrigin = reader == 0 ? .inApp : .external
                        let reason = routeErrorReason { () throws(RouteError) in try router.open("weread://book/abc", from: origin) }
                        var whole = false
                        if case .invalidParameter(let name, "abc", "an int", let pattern?) = reason {
                            whole = pattern == "weread://book/:\(name)(int)"
                        }
                        if !whole { problems.append("weread://book/abc: \(String(describing: reason))") }
                        let secret = routeErrorReason { () throws(RouteError) in try router.open("weread://secret/abc", from: origin) }
                        if caseName(secret) != (origin == .inApp ? "invalidParameter" : "noRoute") {
                            problems.append("weread://secret/abc from \(origin): \(String(describing: secret))")
                        }
                        let far = routeErrorReason { () throws(RouteError) in try router.open("weread://nowhere/1/2/3", from: origin) }
                        if caseName(far) != "noRoute" { problems.append("weread://nowhere/1/2/3: \(String(describing: far))") }
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.count == 0, "\(problems.prefix(5))")
        #expect(router.routeCount == 2 + writers * rounds)
        let reason = routeErrorReason { () throws(RouteError) in try router.match("weread://book/abc") }
        guard case .invalidParameter(let name, _, _, _)? = reason else {
            Issue.record("expected invalidParameter, got \(String(describing: reason))")
            return
        }
        #expect(["w0r\(rounds - 1)", "w1r\(rounds - 1)"].contains(name))
    }
}

/// Set once a writer is done.
private final class Flag: Sendable {
    private let flag = Atomic(false)
    func set() { flag.store(true, ordering: .releasing) }
    var isSet: Bool { flag.load(ordering: .acquiring) }
}

/// A URL no route takes is decided from one reading of the router's state (`RouteMiss`):
/// whether its scheme is allowed, which in-app-only route refuses it, which fallbacks get
/// it. These found it read under three locks, where a change made in between mixed two
/// moments; each failed on every run before the fix. Each opens one URL from outside while
/// one writer changes what decides it.
extension RouterThreadsTests {
    /// Whether a writer that alternates between two states each round yields before `round`:
    /// every 64 rounds, once after an even round and once after an odd one, so that even a
    /// reader that runs only while the writer yields (one thread for both) meets both states.
    private static func yields(at round: Int) -> Bool {
        round % 64 == 0 || round % 64 == 33
    }

    /// Opens `url` from outside until `writer` is done, counting the outcomes: the handler's
    /// result, or the case of the error.
    private static func outcomes(
        of url: String, in router: ServiceRouter, while writer: @escaping @Sendable () async -> Void
    ) async -> [String: Int] {
        let done = Flag()
        return await withTaskGroup(of: [String: Int].self) { group in
            group.addTask {
                await writer()
                done.set()
                return [:]
            }
            group.addTask {
                var counts: [String: Int] = [:]
                var turn = 0
                while !done.isSet {
                    turn += 1
                    if turn.isMultiple(of: 64) { await Task.yield() }
                    let outcome: String
                    do throws(RouteError) {
                        outcome = try router.open(url, as: String.self, from: .external)
                    } catch {
                        outcome = caseName(error.reason)
                    }
                    counts[outcome, default: 0] += 1
                }
                return counts
            }
            return await group.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
        }
    }

    /// While the scheme's only route flips between in-app only and public, an external URL
    /// it matches is refused as in-app only or handled by it; the scheme's fallback must
    /// never receive it (it did when the route was in-app only as the open looked for a
    /// route and public as it looked for one refusing the URL).
    @Test func aFallbackNeverReceivesAnExternalURLARouteMatchedThroughout() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback(forScheme: "t") { _ in "fallback" }
        // Registered before the first open, which would otherwise rightly reach the fallback.
        try router.register("t://x", inAppOnly: true) { (_: any Greeter, _) in "x" }
        let counts = await Self.outcomes(of: "t://x", in: router) {
            for round in 0..<3_000 {
                if Self.yields(at: round) { await Task.yield() }
                do {
                    try router.register("t://x", inAppOnly: round.isMultiple(of: 2)) { (_: any Greeter, _) in "x" }
                } catch {
                    Issue.record("registering t://x threw \(error)")
                }
            }
        }
        #expect(Set(counts.keys).isSubset(of: ["x", "inAppOnly"]), "\(counts)")
        #expect(counts["x", default: 0] > 0 && counts["inAppOnly", default: 0] > 0, "opens met one form only: \(counts)")
    }

    /// While a scheme without routes gets a fallback and loses it again, an external URL of
    /// it is taken by that fallback or refused for its scheme; the global fallback must never
    /// receive it (it did when the scheme was allowed as the open looked for a route and its
    /// fallback gone as it read the fallbacks).
    @Test func theGlobalFallbackNeverReceivesAnExternalURLOfARefusedScheme() async {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback { _ in "global" }
        let counts = await Self.outcomes(of: "u://x", in: router) {
            for round in 0..<3_000 {
                if Self.yields(at: round) { await Task.yield() }
                if round.isMultiple(of: 2) {
                    router.setFallback(forScheme: "u") { _ in "scheme" }
                } else {
                    router.removeFallback(forScheme: "u")
                }
            }
        }
        #expect(Set(counts.keys).isSubset(of: ["scheme", "schemeNotAllowed"]), "\(counts)")
        #expect(
            counts["scheme", default: 0] > 0 && counts["schemeNotAllowed", default: 0] > 0,
            "opens met one state only: \(counts)")
    }

    /// While schemes get their first public route, an external URL of the newest is opened
    /// or refused for its scheme; a refusal must not list the scheme among the allowed ones,
    /// nor say its routes are all in-app only (it did when the route came between the
    /// refusal and its explanation).
    @Test func aSchemeRefusalIsExplainedByTheStateThatRefusedIt() async {
        let router = ServiceRouter(registry: makeRegistry())
        let newest = Progress()
        let done = Flag()
        let refusals = Progress()
        let contradictions = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                for scheme in 1...3_000 {
                    if scheme.isMultiple(of: 64) { await Task.yield() }
                    do {
                        try router.register("s\(scheme)://open") { (_: any Greeter, _) in "open" }
                    } catch {
                        Issue.record("registering s\(scheme)://open threw \(error)")
                    }
                    newest.publish(scheme)
                }
                done.set()
                return []
            }
            group.addTask {
                var contradictions: [String] = []
                var turn = 0
                while !done.isSet {
                    turn += 1
                    if turn.isMultiple(of: 64) { await Task.yield() }
                    let scheme = "s\(newest.value + 1)"
                    do throws(RouteError) {
                        try router.open("\(scheme)://open", from: .external)
                    } catch {
                        guard case .schemeNotAllowed(scheme, let allowed) = error.reason else { continue }
                        refusals.advance()
                        if allowed.contains(scheme) || error.description.contains("every route of it is in-app only") {
                            contradictions.append(error.description)
                        }
                    }
                }
                return contradictions
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(contradictions.count == 0, "\(contradictions.prefix(2))")
        #expect(refusals.value > 0, "no open was refused, so none could contradict its refusal")
    }
}
