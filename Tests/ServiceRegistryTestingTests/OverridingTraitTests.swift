import Dispatch
import Foundation
import ServiceRegistry
import ServiceRegistryTesting
import Testing

@Suite("The .overriding trait on a test")
struct OverridingTraitTests {
    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("mock on shared") } })
    func overridesTheSharedRegistry() throws {
        let greeter = try ServiceRegistry.shared.resolve(Greeter.self)
        #expect(greeter.greeting == "mock on shared")
    }

    @Test(.overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("mock on app") } })
    func overridesTheRegistryItNames() throws {
        #expect(try TestRegistries.app.resolve(Greeter.self).greeting == "mock on app")
        // The trait named `app`, so the shared registry is left alone.
        #expect(!ServiceRegistry.shared.isRegistered(Greeter.self))
    }

    /// The usual slip: `.overriding { }` (the shared registry) around code that resolves
    /// from a registry of its own. The miss says which registry the override is for.
    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("mock on shared") } })
    func aMissOnAnotherRegistryNamesTheSharedRegistryTheTraitOverrides() throws {
        let own = ServiceRegistry()
        let error = try #require(throws: ResolutionError.self) { try own.resolve(Greeter.self) }
        #expect(error.reason == .notRegistered)
        #expect(error.note?.contains("registers `Greeter` for `ServiceRegistry.shared`") == true)
    }

    @Test(.overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("mock") } })
    func realServicesBuiltInTheTestGetTheMockAsTheirDependency() throws {
        let screen = try TestRegistries.app.resolve(WelcomeScreen.self)
        #expect(screen.title == "Welcome: mock")
    }

    @Test(.overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("mock") } })
    func reachesResolvesThroughAChildOfTheNamedRegistry() throws {
        #expect(try TestRegistries.appChild.resolve(WelcomeScreen.self).title == "Welcome: mock")
    }

    @Test(.overriding {
        $0.register(Greeter.self, name: "formal") { _ in FixedGreeter("Good evening") }
        $0.register(Greeter.self) { (_, name: String) in FixedGreeter("Hello, \(name)") }
    })
    func acceptsNamesAndArguments() throws {
        #expect(try ServiceRegistry.shared.resolve(Greeter.self, name: "formal").greeting == "Good evening")
        #expect(try ServiceRegistry.shared.resolve(Greeter.self, argument: "Ada").greeting == "Hello, Ada")
    }

    @Test(.overriding { $0.register(Greeter.self, scope: .singleton) { _ in CountedGreeter("one per test") } })
    func singletonOverrideIsSharedWithinTheTest() throws {
        let first = try ServiceRegistry.shared.resolve(Greeter.self)
        let second = try ServiceRegistry.shared.resolve(Greeter.self)
        #expect((first as? CountedGreeter) === (second as? CountedGreeter))
    }

    /// As the trait's documentation says: a `withOverrides` the test opens is a scope of its
    /// own, which builds its own `.singleton` (the trait's included); the test's is back after it.
    @Test(.overriding { $0.register(Greeter.self, scope: .singleton) { _ in CountedGreeter("trait") } })
    func scopeTheTestOpensBuildsItsOwnSingleton() throws {
        let before = try #require(try ServiceRegistry.shared.resolve(Greeter.self) as? CountedGreeter)
        let inner = try ServiceRegistry.shared.withOverrides {
            $0.register(Farewell.self) { _ in FixedFarewell("inner") }
        } operation: {
            try ServiceRegistry.shared.resolve(Greeter.self) as? CountedGreeter
        }
        let after = try ServiceRegistry.shared.resolve(Greeter.self) as? CountedGreeter
        #expect(inner?.greeting == "trait")
        #expect(inner !== before)
        #expect(after === before)
    }

    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("mock") } })
    func reachesChildTasksTheTestStarts() async throws {
        async let fromAsyncLet = ServiceRegistry.shared.resolve(Greeter.self).greeting
        let fromTask = try await Task { try ServiceRegistry.shared.resolve(Greeter.self).greeting }.value
        let fromGroup = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask { try ServiceRegistry.shared.resolve(Greeter.self).greeting }
            return try await group.next()
        }
        #expect(try await fromAsyncLet == "mock")
        #expect(fromTask == "mock")
        #expect(fromGroup == "mock")
    }

    @Test(
        .overriding { $0.register(Greeter.self) { _ in FixedGreeter("earlier") } },
        .overriding {
            $0.register(Greeter.self) { _ in FixedGreeter("later") }
            $0.register(Farewell.self) { _ in FixedFarewell("only in the later trait") }
        }
    )
    func laterTraitInOneAttributeWins() throws {
        #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "later")
        #expect(try ServiceRegistry.shared.resolve(Farewell.self).farewell == "only in the later trait")
    }

    /// Stacked traits replace one key each: type, name and argument type. An override that
    /// takes an argument does not hide one that takes none.
    @Test(
        .overriding { $0.register(Greeter.self) { _ in FixedGreeter("earlier, no argument") } },
        .overriding { $0.register(Greeter.self) { (_, name: String) in FixedGreeter("later, \(name)") } }
    )
    func traitsOverridingAServiceWithDifferentArgumentTypesEachApply() throws {
        #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "earlier, no argument")
        #expect(try ServiceRegistry.shared.resolve(Greeter.self, argument: "Ada").greeting == "later, Ada")
    }

    /// As the trait's documentation says: a thread or a dispatch queue does not inherit
    /// task-locals, even when the test itself starts it; a scope carried there applies.
    @Test(.overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("mock") } })
    func threadsAndQueuesTheTestStartsSeeTheTraitOnlyWhenItIsCarriedThere() async throws {
        let scope = OverrideScope.current
        @Sendable func greetings() -> [String] {
            let plain = (try? TestRegistries.app.resolve(Greeter.self).greeting) ?? "no greeter"
            let carried = scope.run { (try? TestRegistries.app.resolve(Greeter.self).greeting) ?? "no greeter" }
            return [plain, carried]
        }
        let onThread = await withCheckedContinuation { done in
            Thread { done.resume(returning: greetings()) }.start()
        }
        let onQueue = await withCheckedContinuation { done in
            DispatchQueue(label: "a queue the test starts").async { done.resume(returning: greetings()) }
        }
        #expect(onThread == ["real", "mock"])
        #expect(onQueue == ["real", "mock"])
    }

    /// As the trait's documentation says: an exit test's body runs in a process of its own,
    /// where Swift Testing applies none of the test's traits.
    @Test(.overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("mock") } })
    func anExitTestsBodyRunsOutsideTheTraitsScope() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let inBody = try TestRegistries.app.resolve(Greeter.self).greeting
            let inOwnScope = try TestRegistries.app.withOverrides {
                $0.register(Greeter.self) { _ in FixedGreeter("mock") }
            } operation: {
                try TestRegistries.app.resolve(Greeter.self).greeting
            }
            print(inBody, inOwnScope, terminator: "")
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "real mock")
    }

    @Test(
        .overriding { $0.register(Farewell.self) { _ in FixedFarewell("from the earlier trait") } },
        .overriding { $0.register(Greeter.self) { _ in FixedGreeter("from the later trait") } }
    )
    func stackedTraitsEachSupplyTheirOwnServices() throws {
        #expect(try ServiceRegistry.shared.resolve(Farewell.self).farewell == "from the earlier trait")
        #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "from the later trait")
    }

    @Test func configureThatThrowsFailsTheTestWithoutRunningIt() async throws {
        struct BrokenFixture: Error {}
        let trait: OverridingTrait = .overriding { _ in throw BrokenFixture() }
        let ran = Counter()
        await #expect(throws: BrokenFixture.self) {
            try await trait.provideScope(for: Test.current!, testCase: nil) { ran.increment() }
        }
        #expect(ran.count == 0)
    }

    @Test func configureRunsOncePerScope() async throws {
        let configured = Counter()
        let trait: OverridingTrait = .overriding(TestRegistries.app) { registrar in
            configured.increment()
            registrar.register(Greeter.self) { _ in FixedGreeter("mock") }
        }
        for _ in 0..<3 {
            try await trait.provideScope(for: Test.current!, testCase: nil) {
                _ = try TestRegistries.app.resolve(Greeter.self)
                _ = try TestRegistries.app.resolve(WelcomeScreen.self)
            }
        }
        #expect(configured.count == 3)
    }

    @Test func eachScopeBuildsItsOwnSingleton() async throws {
        let builds = Counter()
        let trait: OverridingTrait = .overriding(TestRegistries.app) {
            $0.register(Greeter.self, scope: .singleton) { _ in
                CountedGreeter("build \(builds.increment())")
            }
        }
        let greetings = Recorded<String>()
        for _ in 0..<2 {
            try await trait.provideScope(for: Test.current!, testCase: nil) {
                let first = try TestRegistries.app.resolve(Greeter.self)
                let second = try TestRegistries.app.resolve(Greeter.self)
                #expect((first as? CountedGreeter) === (second as? CountedGreeter))
                greetings.append(first.greeting)
            }
        }
        #expect(greetings.all == ["build 1", "build 2"])
        #expect(try TestRegistries.app.resolve(Greeter.self).greeting == "real")
    }
}
