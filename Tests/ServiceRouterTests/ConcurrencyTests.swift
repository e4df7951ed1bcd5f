import ServiceRouter
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func routesMayBeRegisteredWhileOthersAreOpened() async throws {
        let counter = BuildCounter()
        let router = ServiceRouter(registry: makeRegistry(counter: counter))
        for index in 0..<50 {
            try router.register("weread://stable/\(index)/:id(int)") { (_: any Greeter, request) in
                "\(index):\(try request.parameters.int("id"))"
            }
        }
        let writers = 4, readers = 4, rounds = 200
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        try router.register("weread://added/\(writer)/\(round)") { (_: any Greeter, _) in "\(writer)/\(round)" }
                    }
                    return 0
                }
            }
            for reader in 0..<readers {
                group.addTask {
                    var wrong = 0
                    for round in 0..<rounds {
                        let index = (round + reader) % 50
                        if (try? router.open("weread://stable/\(index)/\(round)", as: String.self)) != "\(index):\(round)" {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(counter.value == readers * rounds)
        #expect(router.routeCount == 50 + writers * rounds)
        for writer in 0..<writers {
            for round in stride(from: 0, to: rounds, by: 37) {
                #expect(try router.open("weread://added/\(writer)/\(round)", as: String.self) == "\(writer)/\(round)")
            }
        }
    }

    /// Writers keep replacing one route with spellings that differ only in the parameter's
    /// name while readers open it: every open reaches one whole route, whose handler finds
    /// its own name, and one route is left.
    @Test func nameVariantsMayReplaceARouteWhileItIsOpened() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id(int)") { (_: any Greeter, request) in try request.parameters.int("id") }
        let writers = 4, readers = 4, rounds = 200
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        let name = "w\(writer)r\(round)"
                        try router.register("weread://book/:\(name)(int)") { (_: any Greeter, request) in
                            try request.parameters.int(name)
                        }
                    }
                    return 0
                }
            }
            for _ in 0..<readers {
                group.addTask {
                    var failures = 0
                    for round in 0..<rounds where (try? router.open("weread://book/\(round)", as: Int.self)) != round {
                        failures += 1
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(router.routeCount == 1)
        #expect(try router.open("weread://book/7", as: Int.self) == 7)
    }

    @Test func fallbacksMayBeReplacedWhileURLsAreOpened() async throws {
        let router = ServiceRouter(registry: makeRegistry())
        router.setFallback { _ in 0 }
        let failures = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for value in 1...500 { router.setFallback { _ in value } }
                return 0
            }
            group.addTask {
                var failures = 0
                for _ in 0..<500 where (try? router.open("weread://x", as: Int.self)) == nil { failures += 1 }
                return failures
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(try router.open("weread://x", as: Int.self) == 500)
    }
}

/// Uses the router it holds (weakly) when it goes away, as state captured by a handler may.
private final class UsesRouterWhenFreed: Sendable {
    weak let router: ServiceRouter?
    let freed: BuildCounter

    init(_ router: ServiceRouter, freed: BuildCounter) {
        self.router = router
        self.freed = freed
    }

    deinit {
        _ = router?.routeCount
        freed.increment()
    }
}

extension ConcurrencyTests {
    /// A replaced or removed handler is dropped after the router's lock is released: what it
    /// captured may use the router from its `deinit`, and taking the lock again there would
    /// stop the program ("Recursive call to lock Mutex").
    @Test func aReplacedHandlerIsFreedOutsideTheRoutersLock() throws {
        let router = ServiceRouter(registry: makeRegistry())
        let freed = BuildCounter()
        func captured() -> UsesRouterWhenFreed { UsesRouterWhenFreed(router, freed: freed) }

        let global = captured()
        router.setFallback { _ in _ = global }
        let scheme = captured()
        router.setFallback(forScheme: "weread") { _ in _ = scheme }
        let route = captured()
        try router.register("weread://book") { (_: any Greeter, _) in _ = route }
        _ = (consume global, consume scheme, consume route)

        router.setFallback { _ in 1 }                                      // replaces the global fallback
        router.removeFallback(forScheme: "weread")                         // removes the scheme's
        try router.register("weread://book") { (_: any Greeter, _) in 2 }  // same pattern and priority
        #expect(freed.value == 3)
        #expect(try router.open("weread://book", as: Int.self) == 2)
    }
}
