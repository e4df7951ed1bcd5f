import ServiceRegistry
import ServiceRegistryTesting
import Testing

@Suite(
    "The .overriding trait on a suite",
    .overriding {
        $0.register(Greeter.self) { _ in FixedGreeter("suite") }
        $0.register(Farewell.self) { _ in FixedFarewell("suite") }
    }
)
struct OverridingSuiteTraitTests {
    @Test func reachesATestOfTheSuite() throws {
        #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "suite")
    }

    @Test func reachesAnotherTestOfTheSuite() throws {
        #expect(try ServiceRegistry.shared.resolve(Farewell.self).farewell == "suite")
    }

    @Test(arguments: 1...3)
    func reachesEachCaseOfAParameterizedTest(round: Int) throws {
        #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "suite")
    }

    @Test(.overriding { $0.register(Greeter.self) { _ in FixedGreeter("test") } })
    func aTestsOwnTraitWinsOverTheSuites() throws {
        #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "test")
        // What the test does not override still comes from the suite.
        #expect(try ServiceRegistry.shared.resolve(Farewell.self).farewell == "suite")
    }

    @Suite(.overriding { $0.register(Farewell.self) { _ in FixedFarewell("nested suite") } })
    struct NestedSuite {
        @Test func reachesTestsOfANestedSuiteUnderTheOuterOne() throws {
            #expect(try ServiceRegistry.shared.resolve(Greeter.self).greeting == "suite")
            #expect(try ServiceRegistry.shared.resolve(Farewell.self).farewell == "nested suite")
        }
    }
}

/// Numbers the singletons built by the suite below.
private let suiteSingletonBuilds = Counter()

@Suite(
    "A suite trait gives each test its own scope",
    .overriding(TestRegistries.app) {
        $0.register(Greeter.self, scope: .singleton) { _ in
            CountedGreeter("singleton \(suiteSingletonBuilds.increment())")
        }
    }
)
struct OverridingSuiteTraitScopeTests {
    /// The singletons the tests below saw; one scope shared by the tests would show one twice.
    static let seen = Recorded<String>()

    @Test(arguments: 0..<4)
    func singletonsAreNotSharedBetweenTests(index: Int) throws {
        let greeter = try TestRegistries.app.resolve(Greeter.self)
        #expect(try TestRegistries.app.resolve(Greeter.self).greeting == greeter.greeting)
        Self.seen.append(greeter.greeting)
        #expect(Self.seen.all.filter { $0 == greeter.greeting }.count == 1)
    }
}
