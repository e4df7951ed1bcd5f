import Foundation
@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

// TypeZooTests.swift sends the zoo down every path on one thread. These tests send some of
// it through threads, where the raw-memory moves race each other: a singleton's first
// build with every thread asking for it at once, and resolves that meet a registration
// being replaced under them (directly, through a child, in an override scope). A type of
// each layout the engine copies differently: zero bytes, one byte, a struct too large for
// an existential's inline buffer with a class reference inside, a class, an existential
// holding a class, `any Error` (boxed its own way), an optional. Each check counts the
// trackers inside the instances, so a copy that loses or doubles a reference shows up as
// a tracker alive at the end, or one destroyed twice (the count goes below zero).
//
// Threads report failures into counters the test reads afterwards: an expectation recorded
// on a thread of its own is not attributed to the test.

/// An exhibit sent through threads; each requirement is one race.
protocol ThreadedZooSpecimen: Sendable, CustomTestStringConvertible {
    /// Whether an instance is a class instance, which `.weak` shares while it is held.
    var isObject: Bool { get }
    func racesFirstUse(_ scope: Scope)
    func survivesReRegistration(_ path: ReRegistration)
}

/// Where one thread registers a key again and again while three resolve it.
enum ReRegistration: CaseIterable, Sendable, CustomTestStringConvertible {
    /// Registered and resolved on one registry: the table's lookup, which copies a built
    /// singleton out under its stripe lock.
    case onTheRegistry
    /// Registered on the parent, resolved through a child, whose lookup misses and then
    /// retains the parent's registration.
    case throughAChild
    /// Registered and resolved inside one override scope, which caches the instances: the
    /// registering thread drops the replaced registration's instance from the scope at once.
    case insideAScope
    /// Resolved inside an override scope, registered outside it: the scope drops the
    /// instance once the replaced registration is gone.
    case resolvedInAScopeRegisteredOutside

    var testDescription: String {
        switch self {
        case .onTheRegistry: "on the registry"
        case .throughAChild: "through a child"
        case .insideAScope: "inside a scope"
        case .resolvedInAScopeRegisteredOutside: "resolved in a scope, registered outside"
        }
    }
}

/// The exhibits sent through threads, one of each layout.
private let threadedZoo: [any ThreadedZooSpecimen] = [
    Zoo.zeroSizeStruct,
    Zoo.oneByteEnum,
    Zoo.sixWordStruct,
    Zoo.subclassAsSuperclass,
    Zoo.classBoundExistential,
    Zoo.anyError,
    Zoo.optional,
    Zoo.optionalHoldingAClass,
]

/// The class instances among them, which `.weak` shares.
private let threadedObjects = threadedZoo.filter(\.isObject)

/// Rounds of the first-use race per case: in each, the threads are sure to meet at the
/// build (see `racesFirstUse`), so a few cover who builds and who waits.
private let firstUseRounds = 5

/// Generations a key is registered in, per round of a re-registration race.
private let generations = 300

/// How long each case of a re-registration race runs rounds for, after its first two. The
/// window b22888f closed (a resolve between its lookup and its look into the scope's cache,
/// while the scope drops the instance) is a few instructions wide, so a case runs rounds
/// for a while rather than one: with that fix reverted, 3 to 6 of the 7 cases inside a
/// scope failed in each of four runs of this file.
private let reRegistrationTime = Duration.milliseconds(100)

extension Exhibit: ThreadedZooSpecimen {
    /// Several threads resolve the key at the same moment, the first time; the build
    /// returns only once another resolve waits for it (or has built one of its own, the
    /// failure), so every round is sure to race.
    func racesFirstUse(_ scope: Scope) {
        let threads = 4
        for round in 1...firstUseRounds {
            let tally = LifetimeTally()
            let builds = Counter()
            let waited = Guarded(false)
            let failures = Counter()
            let held = Guarded<[Service]>([])
            let rendezvous = Rendezvous(parties: threads)
            do {
                let registry = ServiceRegistry()
                // Weak: the registration must not keep its registry alive.
                registry.register(Service.self, scope: scope) { [make, weak registry] _ in
                    let serial = builds.increment()
                    if serial == 1, let registry {
                        let wait = waitUntilABuildIsAwaited(Service.self, in: registry) { builds.value > 1 }
                        waited.withLock { $0 = wait }
                    }
                    return make(serial, tally)
                }
                let finished = onThreads(threads) { _ in
                    rendezvous.arriveAndWait()
                    guard let first = try? registry.resolve(Service.self) else {
                        failures.increment()
                        return
                    }
                    held.withLock { $0.append(first) }
                    // Later resolves copy the built instance out while other threads do.
                    for _ in 0..<20 {
                        guard let again = try? registry.resolve(Service.self), isBuild(again, 1),
                            !isObject || identity(of: again) == identity(of: first)
                        else {
                            failures.increment()
                            return
                        }
                    }
                    withExtendedLifetime(first) {}
                }
                #expect(finished)
                #expect(!rendezvous.wasMissed, "\(name): the threads did not resolve at once")
                #expect(waited.withLock { $0 }, "\(name): no thread waited for the build")
                #expect(builds.value == 1, "\(name), round \(round): builds")
                #expect(failures.value == 0, "\(name), round \(round): resolves failed or were not build 1")
                do {
                    let instances = held.withLock { $0 }
                    held.withLock { $0 = [] }
                    // While the threads' instances are held, a resolve here gets the same
                    // build, `.weak` too.
                    let later = try? registry.resolve(Service.self)
                    expect(instances + [later].compactMap { $0 }, are: Array(repeating: 1, count: threads + 1))
                    #expect(builds.value == 1)
                    expectLive(tally, 1)
                    withExtendedLifetime((instances, later)) {}
                }
                // A `.weak` instance went with its last holder; the registry keeps its singleton.
                expectLive(tally, scope == .singleton ? 1 : 0)
            }
            // The registry went with its singleton.
            expectLive(tally, 0)
            if builds.value != 1 || failures.value != 0 || tally.live != 0 { return }
        }
    }

    /// Three threads resolve a `.singleton` while a fourth registers its key again, in a new
    /// generation each time, ``generations`` times. A resolve that found a registration
    /// just before it was replaced may hand out that generation's instance, but no
    /// generation may be built twice (each generation's factory counts its builds). Every
    /// instance must be intact, and no thread may get a generation older than one it got
    /// before, since each of its lookups comes after the last (the instance carries its
    /// generation as its serial).
    func survivesReRegistration(_ path: ReRegistration) {
        let deadline = ContinuousClock.now + reRegistrationTime
        var round = 0
        while round < 2 || ContinuousClock.now < deadline {
            round += 1
            let tally = LifetimeTally()
            let builds = (0...generations).map { _ in Counter() }
            let failures = Guarded<[String]>([])
            let rendezvous = Rendezvous(parties: 4)
            let finished: Bool
            do {
                let registry = ServiceRegistry()
                register(generation: 0, in: registry, tally: tally, builds: builds)
                let race = Race(
                    registering: registry, resolving: path == .throughAChild ? registry.makeChild() : registry,
                    scope: nil, registersInTheScope: path == .insideAScope)
                switch path {
                case .onTheRegistry, .throughAChild:
                    finished = run(race, rendezvous, tally, builds, failures)
                case .insideAScope, .resolvedInAScopeRegisteredOutside:
                    finished = registry.withOverrides { _ in } operation: {
                        run(race.inside(OverrideScope.current), rendezvous, tally, builds, failures)
                    }
                }
            }
            #expect(finished)
            #expect(!rendezvous.wasMissed, "\(name): the threads did not start at once")
            let builtTwice = builds.indices.filter { builds[$0].value > 1 }
            #expect(builtTwice.isEmpty, "\(name), round \(round): generations built more than once: \(builtTwice)")
            #expect(failures.withLock { $0 } == [], "\(name), round \(round)")
            // The registry and the scope went, with every instance they cached.
            expectLive(tally, 0)
            if !finished || !builtTwice.isEmpty || !failures.withLock({ $0.isEmpty }) || tally.live != 0 { return }
        }
    }

    /// Registers the `.singleton` of `generation`, whose instance is numbered `generation`.
    private func register(generation: Int, in registry: ServiceRegistry, tally: LifetimeTally, builds: [Counter]) {
        registry.register(Service.self, scope: .singleton) { [make] _ in
            builds[generation].increment()
            return make(generation, tally)
        }
    }

    /// Runs one round of `race`: thread 0 registers generations 1 to ``generations``, the
    /// others resolve until it has finished (at least once each).
    private func run(
        _ race: Race, _ rendezvous: Rendezvous, _ tally: LifetimeTally, _ builds: [Counter],
        _ failures: Guarded<[String]>
    ) -> Bool {
        onThreads(4) { index in
            rendezvous.arriveAndWait()
            if index == 0 {
                let reRegister = {
                    for generation in 1...generations {
                        register(generation: generation, in: race.registering, tally: tally, builds: builds)
                    }
                }
                if race.registersInTheScope, let scope = race.scope { scope.run(reRegister) } else { reRegister() }
                race.reRegistered.increment()
                return
            }
            let resolve = {
                var last = 0
                var held: Service?
                repeat {
                    guard let instance = try? race.resolving.resolve(Service.self) else {
                        return failures.withLock { $0.append("thread \(index): a resolve failed") }
                    }
                    // The first generation from the last one on that the instance is: the
                    // right one for a type whose instances tell every generation apart.
                    guard let generation = (last...generations).first(where: { isBuild(instance, $0) }) else {
                        return failures.withLock {
                            $0.append("thread \(index): an instance is not intact, or of a generation before \(last)")
                        }
                    }
                    last = generation
                    // Held past its registration's replacement, as a caller would.
                    held = instance
                } while race.reRegistered.value == 0
                withExtendedLifetime(held) {}
            }
            if let scope = race.scope { scope.run(resolve) } else { resolve() }
        }
    }
}

/// Where one round of a re-registration race registers and resolves.
private struct Race: Sendable {
    let registering: ServiceRegistry
    let resolving: ServiceRegistry
    /// The scope the resolving threads run in, if any.
    let scope: OverrideScope?
    /// Whether the registering thread runs in `scope` too.
    let registersInTheScope: Bool
    /// Counts the registering thread's finish, which ends the resolving threads' loops.
    let reRegistered = Counter()

    /// The race with the resolving threads in `scope`.
    func inside(_ scope: OverrideScope) -> Race {
        Race(registering: registering, resolving: resolving, scope: scope, registersInTheScope: registersInTheScope)
    }
}

@Suite("Type zoo across threads")
struct TypeZooConcurrencyTests {
    /// The first resolves of a `.singleton`, from several threads at the same moment: the
    /// factory runs once, every thread gets that build, intact, and the one instance is
    /// destroyed once, when the registry goes.
    @Test(arguments: threadedZoo)
    func aSingletonFirstResolvedOnManyThreadsAtOnceIsBuiltOnce(_ specimen: any ThreadedZooSpecimen) {
        specimen.racesFirstUse(.singleton)
    }

    /// The same for a `.weak` class instance, which threads share while they hold it: it
    /// goes when the last of them lets go, with the registry still alive.
    @Test(arguments: threadedObjects)
    func aWeakObjectFirstResolvedOnManyThreadsAtOnceIsBuiltOnce(_ specimen: any ThreadedZooSpecimen) {
        specimen.racesFirstUse(.weak)
    }

    /// Resolves that race a registration of their key: no generation of a `.singleton` is
    /// built twice, every instance handed out is intact, and once everything has gone no
    /// instance is alive and none was destroyed twice. The case inside a scope is the one
    /// b22888f fixed (a resolve rebuilt the generation the scope had just dropped).
    @Test(arguments: threadedZoo, ReRegistration.allCases)
    func resolvesRacingAReRegistrationNeverBuildAGenerationTwice(
        _ specimen: any ThreadedZooSpecimen, path: ReRegistration
    ) {
        specimen.survivesReRegistration(path)
    }
}
