import ServiceRegistry
import ServiceRegistryTesting
import Testing

/// Tests that run in parallel, each with its own trait overriding the same service of the
/// same registry. Swift Testing runs them concurrently (unless told not to); each yields
/// often, so their resolves interleave, and each must only ever see its own mock.
@Suite("Parallel tests with the .overriding trait")
struct OverridingTraitParallelTests {
    static let rounds = 200

    /// Resolves often, yielding between resolves, and checks every answer.
    static func expectOnly(_ greeting: String) async throws {
        for _ in 0..<rounds {
            #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == greeting)
            #expect(try TestRegistries.app.resolve(WelcomeScreen.self).title == "Welcome: \(greeting)")
            await Task.yield()
        }
    }

    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("A") } },
          .overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("A") } })
    func testASeesOnlyItsMock() async throws { try await Self.expectOnly("A") }

    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("B") } },
          .overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("B") } })
    func testBSeesOnlyItsMock() async throws { try await Self.expectOnly("B") }

    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("C") } },
          .overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("C") } })
    func testCSeesOnlyItsMock() async throws { try await Self.expectOnly("C") }

    @Test(.overriding { $0.register(Greeter.self, scope: .singleton) { _ in FixedGreeter("D") } },
          .overriding(TestRegistries.app) { $0.register(Greeter.self, scope: .singleton) { _ in FixedGreeter("D") } })
    func testDSeesOnlyItsSingletonMock() async throws { try await Self.expectOnly("D") }
}

@Suite("The .overriding trait under load")
struct OverridingTraitLoadTests {
    /// Many scopes of the trait at once, each with its own mock of the same service of
    /// the same registry, run the way Swift Testing runs a test with the trait.
    @Test func concurrentScopesEachSeeOnlyTheirOwnMock() async throws {
        let scopes = 64
        let rounds = 50
        let test = try #require(Test.current)
        let mismatches = Counter()
        let checks = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<scopes {
                let mine = "mock \(index)"
                let trait: OverridingTrait = .overriding(TestRegistries.app) {
                    $0.register(Greeter.self) { _ in FixedGreeter(mine) }
                }
                group.addTask {
                    try await trait.provideScope(for: test, testCase: nil) {
                        for _ in 0..<rounds {
                            let title = try TestRegistries.app.resolve(WelcomeScreen.self).title
                            if title != "Welcome: \(mine)" { mismatches.increment() }
                            checks.increment()
                            await Task.yield()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(checks.count == scopes * rounds)
        #expect(mismatches.count == 0)
        #expect(try TestRegistries.app.resolve(WelcomeScreen.self).title == "Welcome: real")
    }

    @Test func registriesAreUnchangedAfterTheTraitsScope() async throws {
        let trait: OverridingTrait = .overriding {
            $0.register(Farewell.self, scope: .singleton) { _ in FixedFarewell("mock") }
        }
        let appTrait: OverridingTrait = .overriding(TestRegistries.app) {
            $0.register(Greeter.self, scope: .singleton) { _ in FixedGreeter("mock") }
            $0.register(Farewell.self) { _ in FixedFarewell("added") }
        }
        try await trait.provideScope(for: Test.current!, testCase: nil) {
            try await appTrait.provideScope(for: Test.current!, testCase: nil) {
                let sharedFarewell = try ServiceRegistry.shared.resolve(Farewell.self)
                let appGreeter = try TestRegistries.app.resolve(Greeter.self)
                let appFarewell = try TestRegistries.app.resolve(Farewell.self)
                #expect(sharedFarewell.farewell == "mock")
                #expect(appGreeter.greeting == "mock")
                #expect(appFarewell.farewell == "added")
            }
        }
        #expect(!ServiceRegistry.shared.isRegistered(Farewell.self))
        #expect(!TestRegistries.app.isRegistered(Farewell.self))
        #expect(try TestRegistries.app.resolve(Greeter.self).greeting == "real")
        #expect(OverrideScope.current.isEmpty)
    }
}
