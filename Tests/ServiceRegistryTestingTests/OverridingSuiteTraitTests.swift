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

/// As the trait's documentation says: the inner trait wins only over one for the same
/// registry. A suite's override of a child shadows, in resolves on the child, a test's
/// override of its parent, as the child's own registrations shadow the parent's.
@Suite(
    "A child's override under its parent's",
    .overriding(TestRegistries.appChild) { $0.register(Greeter.self) { _ in FixedGreeter("suite, on the child") } }
)
struct OverridingChildAndParentTraitTests {
    @Test(.overriding(TestRegistries.app) { $0.register(Greeter.self) { _ in FixedGreeter("test, on the parent") } })
    func theChildsOverrideWinsOnTheChildThoughTheParentsIsInner() throws {
        #expect(try TestRegistries.appChild.resolve(Greeter.self).greeting == "suite, on the child")
        #expect(try TestRegistries.app.resolve(Greeter.self).greeting == "test, on the parent")
        // A transient service only the parent registers, resolved on the child, gets the child's greeter.
        #expect(try TestRegistries.appChild.resolve(WelcomeScreen.self).title == "Welcome: suite, on the child")
    }
}
