import Foundation
@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

// Features used together from several threads at once: validation beside registration,
// override scopes and resolves; observers that come and go; child registries made and
// dropped while their parent registers again; captured scopes run after their
// `withOverrides` has returned; shared builds that fail now and then.

/// A shared service that knows which registration built it, and for which cache (see
/// ``BuildSite``), and counts the instances alive.
private final class Tagged: Sendable {
    let generation: Int
    let site = BuildSite.current
    let live: LiveCount
    init(generation: Int, live: LiveCount) {
        self.generation = generation
        self.live = live
        live.increment()
    }
    deinit { live.decrement() }
}

/// Which cache a build is for, as the test sees it: set by the test around the code that
/// resolves, so a factory can say whose build it is.
private enum BuildSite {
    @TaskLocal static var current: String = "registry"
}

/// Counts the builds of each registration generation in each cache.
private final class BuildLedger: Sendable {
    private let builds = Guarded<[String: Int]>([:])

    func record(_ key: String, generation: Int) {
        let site = BuildSite.current
        builds.withLock { $0["\(key)#\(generation)@\(site)", default: 0] += 1 }
    }

    /// The (registration, cache) pairs built more than once, excluding validation's.
    var builtTwice: [String: Int] {
        builds.withLock { $0.filter { $0.value > 1 && !$0.key.hasSuffix("@validation") } }
    }

    func count(_ key: String, generation: Int, site: String = "registry") -> Int {
        builds.withLock { $0["\(key)#\(generation)@\(site)"] ?? 0 }
    }
}

@Suite("Features mixed across threads")
struct ConcurrentMixTests {
    /// `validate()` and `dependencyGraph()` build every registration in a private scope,
    /// so running them while other threads register keys again, resolve singletons and run
    /// override scopes must leave the registry's caches as they were: the registry's
    /// singleton is the one resolved before, a resolve outside any scope never gets an
    /// instance validation or a scope built (nor a scope one built outside it), a singleton
    /// only validation met is still unbuilt afterwards, each registration is built at most
    /// once per cache, and everything validation built is freed.
    @Test func validationBesideRegistrationScopesAndResolvesLeavesTheCachesAlone() throws {
        let live = LiveCount()
        let ledger = BuildLedger()
        let generation = Atomic<Int>(0)
        do {
            let shared = ServiceRegistry()
            shared.register(Tagged.self, name: "stable", scope: .singleton) { _ in
                ledger.record("stable", generation: 0)
                return Tagged(generation: 0, live: live)
            }
            @Sendable func registerChurn(_ gen: Int) {
                shared.register(Tagged.self, name: "churn", scope: .singleton) { r in
                    ledger.record("churn", generation: gen)
                    _ = try r.resolve(Tagged.self, name: "stable")
                    return Tagged(generation: gen, live: live)
                }
            }
            registerChurn(0)
            shared.register(Tagged.self, name: "untouched", scope: .singleton) { _ in
                ledger.record("untouched", generation: 0)
                return Tagged(generation: 0, live: live)
            }
            shared.register(Int.self, name: "depth") { _ in 1 }
            let stable = ObjectIdentifier(try shared.resolve(Tagged.self, name: "stable"))
            let wrongStable = Counter()
            let wrongSite = Guarded<[String]>([])
            let failures = Guarded<[String]>([])

            let finished = onThreads(4) { index in
                for round in 0..<200 {
                    do {
                        switch index {
                        case 0:
                            try BuildSite.$current.withValue("validation") {
                                if round.isMultiple(of: 2) {
                                    try shared.validate()
                                } else {
                                    _ = shared.dependencyGraph()
                                }
                            }
                        case 1:
                            registerChurn(generation.wrappingAdd(1, ordering: .relaxed).newValue)
                        case 2:
                            let instance = try shared.resolve(Tagged.self, name: "stable")
                            if ObjectIdentifier(instance) != stable { wrongStable.increment() }
                            let churn = try shared.resolve(Tagged.self, name: "churn")
                            if churn.site != "registry" { wrongSite.withLock { $0.append("outside: \(churn.site)") } }
                        default:
                            try BuildSite.$current.withValue("scope\(round)") {
                                try shared.withOverrides {
                                    $0.register(Int.self, name: "depth") { _ in 2 }
                                } operation: {
                                    for name in ["churn", "stable"] {
                                        let instance = try shared.resolve(Tagged.self, name: name)
                                        if instance.site != BuildSite.current {
                                            wrongSite.withLock { $0.append("in \(BuildSite.current): \(instance.site)") }
                                        }
                                    }
                                }
                            }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(failures.withLock { $0 } == [])
            #expect(wrongStable.value == 0, "a resolve outside any scope got another `stable` than the registry's")
            #expect(ledger.builtTwice == [:])
            #expect(wrongSite.withLock { $0 } == [])
            #expect(ledger.count("stable", generation: 0) == 1)
            #expect(ObjectIdentifier(try shared.resolve(Tagged.self, name: "stable")) == stable)
            #expect(ledger.count("untouched", generation: 0) == 0)
            #expect(try shared.resolve(Tagged.self, name: "untouched").site == "registry")
            #expect(ledger.count("untouched", generation: 0) == 1)
        }
        #expect(live.value == 0, "instances outlived the registry and every scope")
    }

    /// Observers added and removed on several threads while others resolve, each observer
    /// resolving a singleton and a transient of its own: no deadlock, no crash, the
    /// singleton is built once, and once every observer is removed the registry keeps none.
    @Test func observersThatResolveComeAndGoWhileOthersResolve() throws {
        let live = LiveCount()
        let builds = Counter()
        do {
            let shared = ServiceRegistry()
            shared.register(Tagged.self, scope: .singleton) { _ in
                builds.increment()
                return Tagged(generation: 0, live: live)
            }
            shared.register(Tagged.self, name: "weak", scope: .weak) { r in
                _ = try r.resolve(Tagged.self)
                return Tagged(generation: 1, live: live)
            }
            shared.register(Tagged.self, name: "transient") { _ in Tagged(generation: 2, live: live) }
            let heard = Counter()
            let failures = Guarded<[String]>([])
            let finished = onThreads(4) { index in
                for _ in 0..<400 {
                    do {
                        if index < 2 {
                            let child = index == 0 ? shared : shared.makeChild()
                            let token = child.addResolutionObserver { _ in
                                heard.increment()
                                _ = try? shared.resolve(Tagged.self)
                                _ = try? shared.resolve(Tagged.self, name: "transient")
                            }
                            _ = try child.resolve(Tagged.self, name: "weak")
                            child.removeResolutionObserver(token)
                        } else {
                            _ = try shared.resolve(Tagged.self, name: "weak")
                            _ = try shared.resolve(Tagged.self, name: "transient")
                            _ = try shared.resolve(Tagged.self)
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(failures.withLock { $0 } == [])
            #expect(heard.value > 0)
            #expect(builds.value == 1)
            #expect(shared.observers.withLock { $0.count } == 0)
        }
        #expect(live.value == 0)
    }

    /// Child registries made, used and dropped on some threads while another registers the
    /// parent's singleton again: each parent registration is built at most once, a child's
    /// own singletons go with the child, and nothing outlives the parent.
    @Test func childrenMadeAndDroppedWhileTheParentRegistersAgain() throws {
        let live = LiveCount()
        let ledger = BuildLedger()
        let generation = Atomic<Int>(0)
        do {
            let parent = ServiceRegistry()
            @Sendable func registerParent(_ gen: Int) {
                parent.register(Tagged.self, scope: .singleton) { _ in
                    ledger.record("parent", generation: gen)
                    return Tagged(generation: gen, live: live)
                }
            }
            registerParent(0)
            let failures = Guarded<[String]>([])
            let finished = onThreads(4) { index in
                for round in 0..<400 {
                    do {
                        if index == 0 {
                            registerParent(generation.wrappingAdd(1, ordering: .relaxed).newValue)
                            continue
                        }
                        let child = parent.makeChild()
                        child.register(Tagged.self, name: "own", scope: .singleton) { r in
                            let fromParent = try r.resolve(Tagged.self)
                            return Tagged(generation: fromParent.generation, live: live)
                        }
                        child.register(Tagged.self, name: "held", scope: .weak) { r in
                            Tagged(generation: try r.resolve(Tagged.self, name: "own").generation, live: live)
                        }
                        let held = try child.resolve(Tagged.self, name: "held")
                        let again = try child.resolve(Tagged.self, name: "held")
                        if held !== again { failures.withLock { $0.append("a held .weak instance was built again") } }
                        if round.isMultiple(of: 3) {
                            try BuildSite.$current.withValue("scope\(index).\(round)") {
                                try child.withOverrides { _ in } operation: {
                                    _ = try child.resolve(Tagged.self, name: "own")
                                    _ = try child.resolve(Tagged.self)
                                }
                            }
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(failures.withLock { $0 } == [])
            #expect(ledger.builtTwice == [:])
        }
        #expect(live.value == 0)
    }

    /// A scope captured with `OverrideScope.current` and run on several threads after its
    /// `withOverrides` has returned is one cache: while another thread, running in it too,
    /// registers the singleton again, each registration is built at most once in it, and
    /// whatever it built goes with the last copy of the scope.
    @Test func aCapturedScopeRunOnThreadsAfterItsScopeReturnedBuildsEachRegistrationOnce() throws {
        let live = LiveCount()
        let ledger = BuildLedger()
        let generation = Atomic<Int>(0)
        do {
            let shared = ServiceRegistry()
            @Sendable func register(_ gen: Int) {
                shared.register(Tagged.self, scope: .singleton) { r in
                    ledger.record("service", generation: gen)
                    _ = try r.resolve(String.self)
                    return Tagged(generation: gen, live: live)
                }
            }
            register(0)
            shared.register(String.self) { _ in "real" }
            let scope = shared.withOverrides {
                $0.register(String.self) { _ in "mock" }
            } operation: {
                OverrideScope.current
            }
            let failures = Guarded<[String]>([])
            let finished = onThreads(4) { index in
                BuildSite.$current.withValue("captured") {
                    scope.run {
                        for _ in 0..<400 {
                            do {
                                if index == 0 {
                                    register(generation.wrappingAdd(1, ordering: .relaxed).newValue)
                                } else {
                                    let first = try shared.resolve(Tagged.self)
                                    if try shared.resolve(String.self) != "mock" {
                                        failures.withLock { $0.append("the captured scope lost its override") }
                                    }
                                    _ = first
                                }
                            } catch {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                }
            }
            #expect(finished)
            #expect(failures.withLock { $0 } == [])
            #expect(ledger.builtTwice == [:])
        }
        #expect(live.value == 0)
    }

    /// A singleton or `.weak` factory that throws now and then, resolved by threads inside
    /// and outside their own scopes while the key is registered again: every failure is the
    /// documented `.factoryFailed` with the factory's error, a failed build caches nothing,
    /// each failure reaches only the resolve whose factory call threw (a resolve that waited
    /// for a build that failed tries again rather than take its error), and no singleton
    /// registration is built twice in one cache.
    @Test(arguments: [Scope.singleton, .weak])
    func sharedFactoriesThatThrowNowAndThenUnderContention(scope: Scope) throws {
        let live = LiveCount()
        let ledger = BuildLedger()
        let attempts = Counter()
        let thrown = Counter()
        let caught = Counter()
        let generation = Atomic<Int>(0)
        do {
            let shared = ServiceRegistry()
            @Sendable func register(_ gen: Int) {
                shared.register(Tagged.self, scope: scope) { _ in
                    if attempts.increment().isMultiple(of: 3) {
                        thrown.increment()
                        throw FactoryError(message: "flaky")
                    }
                    ledger.record("service", generation: gen)
                    return Tagged(generation: gen, live: live)
                }
            }
            register(0)
            let failures = Guarded<[String]>([])
            let holders = Guarded<[Tagged]>([])
            let finished = onThreads(4) { index in
                for round in 0..<400 {
                    func resolve() {
                        do {
                            let instance = try shared.resolve(Tagged.self)
                            if round.isMultiple(of: 5) { holders.withLock { $0.append(instance) } }
                        } catch {
                            caught.increment()
                            if error.reason != .factoryFailed || !(error.underlyingError is FactoryError) {
                                failures.withLock { $0.append("\(error)") }
                            }
                        }
                    }
                    switch index {
                    case 0:
                        if round.isMultiple(of: 10) { register(generation.wrappingAdd(1, ordering: .relaxed).newValue) }
                        resolve()
                    case 1:
                        BuildSite.$current.withValue("scope\(round)") {
                            shared.withOverrides { _ in } operation: {
                                resolve()
                                resolve()
                            }
                        }
                    case 2:
                        if round.isMultiple(of: 7) { holders.withLock { $0.removeAll() } }
                        resolve()
                    default:
                        resolve()
                    }
                }
            }
            #expect(finished)
            #expect(failures.withLock { $0 } == [])
            #expect(thrown.value > 0)
            #expect(caught.value == thrown.value)
            if scope == .singleton {
                #expect(ledger.builtTwice == [:])
            }
            holders.withLock { $0.removeAll() }
        }
        #expect(live.value == 0)
    }

    /// While a thread holds a `.weak` instance, every resolve of it returns that instance,
    /// however many other holders drop theirs and resolve again around it.
    @Test func aHeldWeakInstanceIsTheOneEveryResolveGetsWhileOthersDropTheirs() throws {
        let live = LiveCount()
        do {
            let shared = ServiceRegistry()
            shared.register(Tagged.self, scope: .weak) { _ in Tagged(generation: 0, live: live) }
            let mismatches = Counter()
            let finished = onThreads(4) { _ in
                for _ in 0..<800 {
                    guard let held = try? shared.resolve(Tagged.self),
                        let again = try? shared.resolve(Tagged.self)
                    else {
                        mismatches.increment()
                        continue
                    }
                    if held !== again { mismatches.increment() }
                }
            }
            #expect(finished)
            #expect(mismatches.value == 0)
        }
        #expect(live.value == 0)
    }

    /// `@Injected` read for the first time on several threads at once: every reader of one
    /// property gets the same instance, the one it keeps, though a `.transient` service may
    /// be built by more than one of them.
    @Test func injectedReadForTheFirstTimeOnManyThreadsKeepsOneInstance() throws {
        let live = LiveCount()
        let shared = ServiceRegistry()
        shared.register(Tagged.self) { _ in Tagged(generation: 0, live: live) }
        for _ in 0..<40 {
            let property = Injected<Tagged>(registry: shared)
            let seen = Guarded<Set<ObjectIdentifier>>([])
            let rendezvous = Rendezvous(parties: 4)
            let finished = onThreads(4) { _ in
                rendezvous.arriveAndWait()
                let value = property.wrappedValue
                seen.withLock { _ = $0.insert(ObjectIdentifier(value)) }
            }
            #expect(finished)
            #expect(!rendezvous.wasMissed)
            #expect(seen.withLock { $0.count } == 1)
            #expect(seen.withLock { $0 } == [ObjectIdentifier(property.wrappedValue)])
        }
        #expect(live.value == 0)
    }

    /// Every feature at once, in an order a seeded generator picks on each of four threads:
    /// registering again (in any scope kind), resolving in and out of override scopes (some
    /// re-registering inside them, some captured and run later on other threads),
    /// validation and the dependency graph, observers that resolve, children made and
    /// dropped, `@Injected`, and factories that throw now and then, resolve through their
    /// resolver or through the registry directly. Whatever the order: only the documented
    /// errors, no singleton registration built twice in one cache, no instance built in a
    /// scope or by validation handed to a resolve outside it, and nothing alive at the end.
    @Test(arguments: [1, 2])
    func everyFeatureAtOnceInASeededOrder(seed: UInt64) throws {
        let live = LiveCount()
        let ledger = BuildLedger()
        let wrongSite = Guarded<[String]>([])
        let failures = Guarded<[String]>([])
        let generation = Atomic<Int>(0)
        let attempts = Counter()
        do {
            let root = ServiceRegistry()
            // A factory that captured `root` would keep it alive for good; this lets go of it.
            let rootBox = Guarded<ServiceRegistry?>(root)
            defer { rootBox.withLock { $0 = nil } }
            let names = ["a", "b", "c", "d"]
            let scopes: [Scope] = [.singleton, .weak, .transient, .graph]
            @Sendable func register(_ name: String, in registry: ServiceRegistry, scope: Scope) {
                let gen = generation.wrappingAdd(1, ordering: .relaxed).newValue
                registry.register(Tagged.self, name: name, scope: scope) { r in
                    // `d` never fails: observers and `@Injected` resolve it.
                    if name != "d", attempts.increment().isMultiple(of: 11) {
                        throw FactoryError(message: "flaky")
                    }
                    switch name {
                    case "a": _ = try r.resolve(Tagged.self, name: "b")
                    case "c": _ = try rootBox.withLock { $0 }?.resolve(Tagged.self, name: "a")
                    default: break
                    }
                    if scope == .singleton { ledger.record(name, generation: gen) }
                    return Tagged(generation: gen, live: live)
                }
            }
            for (name, scope) in zip(names, scopes) { register(name, in: root, scope: scope) }
            let captured = Guarded<(scope: OverrideScope, site: String)?>(nil)
            @Sendable func expectBuiltOutsideAnyScope(_ instance: Tagged) {
                if instance.site != "registry" { wrongSite.withLock { $0.append("outside: \(instance.site)") } }
            }

            let finished = onThreads(4) { index in
                var random = SeededGenerator(seed: seed &* 31 &+ UInt64(index))
                for round in 0..<500 {
                    let name = names[Int.random(in: 0..<names.count, using: &random)]
                    let otherName = names[Int.random(in: 0..<names.count, using: &random)]
                    let scope = scopes[Int.random(in: 0..<scopes.count, using: &random)]
                    do {
                        switch Int.random(in: 0..<11, using: &random) {
                        case 0:
                            register(name, in: root, scope: scope)
                        case 1, 2, 3:
                            expectBuiltOutsideAnyScope(try root.resolve(Tagged.self, name: name))
                        case 4:
                            try BuildSite.$current.withValue("scope\(index).\(round)") {
                                try root.withOverrides { overrides in
                                    if round.isMultiple(of: 2) {
                                        overrides.register(Tagged.self, name: "d") { _ in Tagged(generation: -1, live: live) }
                                    }
                                } operation: {
                                    let instance = try root.resolve(Tagged.self, name: name)
                                    if instance.site != BuildSite.current {
                                        wrongSite.withLock { $0.append("in \(BuildSite.current): \(instance.site)") }
                                    }
                                    if round.isMultiple(of: 5) { register(name, in: root, scope: .singleton) }
                                    _ = try root.resolve(Tagged.self, name: otherName)
                                    if round.isMultiple(of: 7) {
                                        captured.withLock { $0 = (OverrideScope.current, BuildSite.current) }
                                    }
                                }
                            }
                        case 5:
                            if let (scope, site) = captured.withLock({ $0 }) {
                                let instance = try BuildSite.$current.withValue(site) {
                                    try scope.run { try root.resolve(Tagged.self, name: name) }
                                }
                                if instance.site != site { wrongSite.withLock { $0.append("in \(site): \(instance.site)") } }
                            }
                        case 6:
                            BuildSite.$current.withValue("validation") {
                                if round.isMultiple(of: 2) { _ = root.dependencyGraph() } else { _ = try? root.validate() }
                            }
                        case 7:
                            let token = root.addResolutionObserver { _ in _ = try? root.resolve(Tagged.self, name: "d") }
                            defer { root.removeResolutionObserver(token) }
                            expectBuiltOutsideAnyScope(try root.resolve(Tagged.self, name: name))
                        case 8:
                            let child = root.makeChild()
                            register(name, in: child, scope: scope)
                            expectBuiltOutsideAnyScope(try child.resolve(Tagged.self, name: otherName))
                            expectBuiltOutsideAnyScope(try child.resolve(Tagged.self, name: name))
                        case 9:
                            expectBuiltOutsideAnyScope(Injected<Tagged>(registry: root, name: "d").wrappedValue)
                        default:
                            captured.withLock { $0 = nil }
                        }
                    } catch {
                        if !Self.isAFlakyFactorysFailure(error) { failures.withLock { $0.append("\(error)") } }
                    }
                }
            }
            captured.withLock { $0 = nil }
            #expect(finished)
            #expect(failures.withLock { $0 } == [])
            #expect(wrongSite.withLock { $0 } == [])
            #expect(ledger.builtTwice == [:])
        }
        #expect(live.value == 0)
    }

    /// Whether `error` is `.factoryFailed` because a flaky factory threw, perhaps through
    /// the resolve of another service (a factory that resolves through the registry wraps
    /// that resolve's error in its own).
    private static func isAFlakyFactorysFailure(_ error: any Error) -> Bool {
        guard let failure = error as? ResolutionError else { return error is FactoryError }
        guard failure.reason == .factoryFailed, let underlying = failure.underlyingError else { return false }
        return isAFlakyFactorysFailure(underlying)
    }
}

/// SplitMix64: the same sequence for the same seed, so a failing order can be replayed.
private struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
