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
