import ServiceRegistry
import ServiceRouter
import Testing

@Suite("Route listing")
struct RouteListingTests {
    @Test func listsPatternServiceNameAndInAppOnlyFlagSortedByPattern() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://user/:id", argument: { try $0.parameters.int("id") }) { (profile: any Profile, _) in profile.userID }
        try router.register("weread://debug", priority: 3, inAppOnly: true) { (_: any Greeter, _) in 0 }
        try router.register("weread://book/*") { (_: any Greeter, _) in 0 }
        try router.register("weread://book/*", priority: 1) { (_: any Greeter, _) in 0 }

        let routes = router.routes
        #expect(routes.map(\.pattern) == ["weread://book/*", "weread://book/*", "weread://debug", "weread://user/:id"])
        #expect(routes.map(\.priority) == [1, 0, 3, 0])
        #expect(routes.map(\.isInAppOnly) == [false, false, true, false])
        #expect(routes[0].serviceType == "Greeter")
        #expect(routes[0].qualifiedServiceType == "ServiceRouterTests.Greeter")
        #expect(routes[3].serviceType == "Profile")
        #expect(routes[3].qualifiedServiceType == "ServiceRouterTests.Profile")
        #expect(routes[2].description == "weread://debug → ServiceRouterTests.Greeter [priority 3] (in-app only)")
    }

    @Test func listsRoutesWithTheExtremePriorities() throws {
        let router = ServiceRouter(registry: makeRegistry())
        for priority in [0, Int.min, Int.max] {
            try router.register("weread://shelf", priority: priority) { (_: any Greeter, _) in 0 }
        }
        #expect(router.routes.map(\.priority) == [Int.max, 0, Int.min])
    }

    /// Only the default priority, 0, goes unwritten: a negative one ranks a route below its
    /// equals just as a positive one ranks it above, and the listing says so.
    @Test func describesEveryPriorityButTheDefaultNegativeOnesToo() throws {
        let router = ServiceRouter(registry: makeRegistry())
        for priority in [-1, 0, 1] {
            try router.register("weread://shelf", priority: priority) { (_: any Greeter, _) in 0 }
        }
        #expect(router.routes.map(\.description) == [
            "weread://shelf → ServiceRouterTests.Greeter [priority 1]",
            "weread://shelf → ServiceRouterTests.Greeter",
            "weread://shelf → ServiceRouterTests.Greeter [priority -1]",
        ])
    }

    /// A private type's full name carries the runtime's `(unknown context at $…)`, an
    /// address that differs from run to run; the listing leaves it out, as the registry's
    /// dependency graph does.
    @Test func listsAPrivateServiceTypeWithoutTheRuntimesAddress() throws {
        let registry = makeRegistry()
        registry.register(PrivateScreen.self) { _ in PrivateScreen() }
        let router = ServiceRouter(registry: registry)
        try router.register("weread://private") { (_: PrivateScreen, _) in 0 }
        #expect(router.routes.map(\.serviceType) == ["PrivateScreen"])
        #expect(router.routes.map(\.qualifiedServiceType) == ["ServiceRouterTests.PrivateScreen"])
    }

    /// A service name is written as the registry's errors write it: a Swift string literal
    /// with quotes escaped and invisible characters spelled out, so `"a\u{200B}"` and `"a"`
    /// never look alike in a listing.
    @Test func listsTheServiceNameAsTheRegistrysErrorsDo() throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://a", serviceName: "say \"hi\"\u{200B}") { (_: any Greeter, _) in 0 }
        #expect(router.routes.map(\.description) == [
            #"weread://a → ServiceRouterTests.Greeter (name: "say \"hi\"\u{200B}")"#
        ])
    }

    @Test func emptyRouterListsNothing() {
        #expect(ServiceRouter(registry: makeRegistry()).routes.isEmpty)
    }
}

/// A service type whose full name the runtime gives a context with an address.
private struct PrivateScreen: Sendable {}
