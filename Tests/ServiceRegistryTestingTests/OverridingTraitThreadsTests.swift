import Dispatch
import Foundation
import ServiceRegistry
import ServiceRegistryTesting
import Synchronization
import Testing
import ThreadTestSupport

// The `.overriding` trait where the test's work leaves its task: threads and detached
// tasks inside the trait, scopes of the trait running at once with their work spread
// over threads, a suite's trait under a test's, and the base registry registering again
// while a test with the trait resolves. What the docs promise (Docs/Testing.md, the
// trait's documentation): each test (each case) gets a scope of its own, which its task
// and the tasks it starts see, and nothing else; a `Thread`, work sent to a queue with
// `async` and `Task.detached` see the registry without the overrides unless the test
// carries the scope there with `OverrideScope`; the inner trait wins; nothing built in a
// scope is seen outside it; an instance a scope built from a registration replaced
// meanwhile is dropped at the scope's next resolve of a shared service.

private protocol Lamp: Sendable {
    var owner: String { get }
}

/// Depends on ``Lamp``: shows whose lamp a shared service built somewhere got.
private protocol Shade: Sendable {
    var lamp: any Lamp { get }
}

/// Only the traits register it: the base registries do not.
private protocol Bulb: Sendable {
    var owner: String { get }
}

private final class NamedLamp: Lamp {
    let owner: String
    init(_ owner: String) { self.owner = owner }
}

private final class ShadeImpl: Shade {
    let lamp: any Lamp
    init(lamp: any Lamp) { self.lamp = lamp }
}

private struct NamedBulb: Bulb {
    let owner: String
}

/// A shared service that says which registration built it, and counts the instances alive.
private final class Tally: Sendable {
    let generation: Int
    let live: LiveCount
    init(generation: Int, live: LiveCount) {
        self.generation = generation
        self.live = live
        live.increment()
    }
    deinit { live.decrement() }
}

/// Base registries, one per test that needs one, built once; only
/// ``OverridingTraitThreadsTests/registeringInTheBaseRegistryWhileTheTestResolvesOnThreads()``
/// changes its own.
private enum ThreadRegistries {
    /// A real lamp, a shared shade over it, counted.
    static func withLampAndShade(shadeBuilds: Counter? = nil) -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(Lamp.self, scope: .singleton) { _ in NamedLamp("real") }
        registry.register(Shade.self, scope: .singleton) { r in
            shadeBuilds?.increment()
            return ShadeImpl(lamp: try r.resolve(Lamp.self))
        }
        return registry
    }

    static let parallel = withLampAndShade()
    static let stacked = withLampAndShade()
    static let detachedShadeBuilds = Counter()
    static let detached = withLampAndShade(shadeBuilds: detachedShadeBuilds)

    static let registering: ServiceRegistry = {
        let registry = ServiceRegistry()
        registry.register(Lamp.self) { _ in NamedLamp("real") }
        return registry
    }()
}

/// Runs `body(index)` on `count` threads of their own and waits for them without holding a
/// thread of the cooperative pool, up to `seconds`. Returns `false` when they did not all
/// finish in time.
private func onOwnThreads(
    _ count: Int, within seconds: Double = 20, _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
    await withCheckedContinuation { (finished: CheckedContinuation<Bool, Never>) in
        let left = Guarded((threads: count, resumed: false))
        let resume: @Sendable (Bool) -> Void = { value in
            let first = left.withLock { state -> Bool in
                defer { state.resumed = true }
                return !state.resumed
            }
            if first { finished.resume(returning: value) }
        }
        for index in 0..<count {
            Thread {
                body(index)
                if left.withLock({ state -> Bool in
                    state.threads -= 1
                    return state.threads == 0
                }) {
                    resume(true)
                }
            }.start()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(false) }
    }
}

/// What one resolve of the lamp and the shade saw: whose lamp, whose lamp the shade got, and
/// which instances.
private struct Sighting: Hashable, Sendable {
    let lamp: String
    let shadesLamp: String
    let lampID: ObjectIdentifier
    let shadeID: ObjectIdentifier
}

private func sighting(in registry: ServiceRegistry) throws -> Sighting {
    let lamp = try registry.resolve(Lamp.self)
    let shade = try registry.resolve(Shade.self)
    return Sighting(
        lamp: lamp.owner, shadesLamp: shade.lamp.owner, lampID: ObjectIdentifier(lamp as AnyObject),
        shadeID: ObjectIdentifier(shade as AnyObject))
}

/// Numbers the lamps the stacked suite's trait builds, across its tests.
private let stackedSuiteLampBuilds = Counter()
/// Numbers the lamps the stacked suite's tests build with a trait of their own.
private let stackedTestLampBuilds = Counter()

@Suite("The .overriding trait and threads")
struct OverridingTraitThreadsTests {
    /// Four scopes of the trait at once, each with its own `.singleton` mock of the same
    /// service, each spreading its resolves over three threads of its own that carry its
    /// scope, all twelve threads resolving at the same moment: every thread sees only its
    /// own scope's mock, one instance per scope (and one shade built from it), and a
    /// resolve on those threads that does not carry the scope sees the real registry.
    @Test func traitScopesRunningAtOnceCarriedOntoThreadsEachSeeOnlyTheirOwn() async throws {
        let registry = ThreadRegistries.parallel
        let test = try #require(Test.current)
        let scopes = 4
        let threadsPerScope = 3
        let meeting = Rendezvous(parties: scopes * threadsPerScope)
        let builds = (0..<scopes).map { _ in Counter() }
        let seen = (0..<scopes).map { _ in Guarded<Set<Sighting>>([]) }
        let uncarried = Guarded<Set<String>>([])
        // Each scope stays open in a task of its own until the threads are done, and the
        // twelve threads all start here once the four scopes are open: on a pool that other
        // tests keep busy the tasks can start seconds apart, and threads each task started
        // would then wait out the meeting's clock for the others'.
        let (opened, opening) = AsyncStream.makeStream(of: (index: Int, scope: OverrideScope).self)
        let closing = (0..<scopes).map { _ in AsyncStream.makeStream(of: Void.self) }
        let finished = try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<scopes {
                let trait: OverridingTrait = .overriding(registry) {
                    $0.register(Lamp.self, scope: .singleton) { _ in
                        builds[index].increment()
                        return NamedLamp("scope \(index)")
                    }
                }
                group.addTask {
                    do {
                        try await trait.provideScope(for: test, testCase: nil) {
                            opening.yield((index, OverrideScope.current))
                            for await _ in closing[index].stream {}
                        }
                    } catch {
                        opening.finish()  // so the wait for the scopes below ends
                        throw error
                    }
                }
            }
            var open = [Int: OverrideScope]()
            for await (index, scope) in opened.prefix(scopes) { open[index] = scope }
            let carried = try (0..<scopes).map { try #require(open[$0], "scope \($0) did not open") }
            let done = await onOwnThreads(scopes * threadsPerScope) { thread in
                let index = thread / threadsPerScope
                meeting.arriveAndWait()
                for _ in 0..<30 {
                    let sighted = carried[index].run { try? sighting(in: registry) }
                    if let sighted { seen[index].withLock { _ = $0.insert(sighted) } }
                }
                let plain = (try? registry.resolve(Lamp.self).owner) ?? "no lamp"
                uncarried.withLock { _ = $0.insert(plain) }
            }
            for scope in closing { scope.continuation.finish() }
            try await group.waitForAll()
            return done
        }
        #expect(finished, "threads hung")
        #expect(!meeting.wasMissed, "the scopes' threads did not all resolve at once")
        for index in 0..<scopes {
            let sightings = seen[index].withLock { $0 }
            #expect(sightings.count == 1, "scope \(index) saw \(sightings.count) different answers")
            #expect(sightings.first?.lamp == "scope \(index)")
            #expect(sightings.first?.shadesLamp == "scope \(index)")
            #expect(builds[index].count == 1)
        }
        #expect(uncarried.withLock { $0 } == ["real"])
        #expect(try sighting(in: registry).shadesLamp == "real")
    }

    /// Inside one test's trait, work the test starts side by side: threads of its own that
    /// carry the scope, and threads and `Task.detached` tasks that do not. The
    /// uncarried ones get the registry's own lamp and shade (one shade, built once in the
    /// registry, whoever came first); the carried ones get the test's shade, built from the
    /// mock in the scope: nothing built in the scope reaches the uncarried work, nor the
    /// other way round.
    @Test(.overriding(ThreadRegistries.detached) { $0.register(Lamp.self) { _ in NamedLamp("mock") } })
    func detachedWorkAndThreadsInsideTheTraitSeeTheRegistryWhileCarriedWorkSeesTheMock() async throws {
        let registry = ThreadRegistries.detached
        let buildsBefore = ThreadRegistries.detachedShadeBuilds.count
        let inTest = try sighting(in: registry)
        #expect(inTest.lamp == "mock" && inTest.shadesLamp == "mock")
        let scope = OverrideScope.current
        let meeting = Rendezvous(parties: 4)
        let carried = Guarded<Set<ObjectIdentifier>>([])
        let wrong = Guarded<[String]>([])
        let plain = Guarded<Set<Sighting>>([])
        let detached = (0..<4).map { _ in
            Task.detached { (try? sighting(in: registry)).map { [$0] } ?? [] }
        }
        let finished = await onOwnThreads(4) { index in
            meeting.arriveAndWait()
            for _ in 0..<30 {
                if index < 2 {
                    if let seen = scope.run({ try? sighting(in: registry) }), seen.shadesLamp == "mock" {
                        carried.withLock { _ = $0.insert(seen.shadeID) }
                    } else {
                        wrong.withLock { $0.append("a carried resolve did not see the mock") }
                    }
                } else if let seen = try? sighting(in: registry) {
                    plain.withLock { _ = $0.insert(seen) }
                }
            }
        }
        var fromDetached = Set<Sighting>()
        for task in detached { fromDetached.formUnion(await task.value) }
        #expect(finished, "threads hung")
        #expect(!meeting.wasMissed, "the threads did not resolve at once")
        #expect(wrong.withLock { $0 } == [])
        #expect(carried.withLock { $0 } == [inTest.shadeID])
        let uncarried = plain.withLock { $0 }.union(fromDetached)
        #expect(uncarried.count == 1, "uncarried work saw \(uncarried.count) different answers")
        #expect(uncarried.first?.lamp == "real" && uncarried.first?.shadesLamp == "real")
        #expect(uncarried.first?.shadeID != inTest.shadeID)
        // One in the scope, and one in the registry unless an earlier run in this process built it.
        #expect(ThreadRegistries.detachedShadeBuilds.count - buildsBefore <= 2)
        // The registry's shade stays the registry's: a detached resolve after all this gets it.
        let later = try await Task.detached { try sighting(in: registry) }.value
        #expect(later.shadeID == uncarried.first?.shadeID)
    }

    /// While a test with the trait resolves on threads that carry its scope, another
    /// thread registers the overridden key and a shared service again and again in the
    /// base registry. The override always wins; the shared service resolves to some
    /// registration's instance, never fails; and once the registering stops, the scope's
    /// next resolve gets the last registration's instance and drops those it cached for
    /// the replaced ones, though the scope lives on.
    @Test(.overriding(ThreadRegistries.registering) { $0.register(Lamp.self) { _ in NamedLamp("mock") } })
    func registeringInTheBaseRegistryWhileTheTestResolvesOnThreads() async throws {
        let registry = ThreadRegistries.registering
        let live = LiveCount()
        let generations = 200
        registry.register(Tally.self, scope: .singleton) { _ in Tally(generation: 0, live: live) }
        let scope = OverrideScope.current
        let registeringDone = Atomic<Bool>(false)
        let meeting = Rendezvous(parties: 4)
        let lamps = Guarded<Set<String>>([])
        let failures = Guarded<[String]>([])
        let finished = await onOwnThreads(4) { index in
            meeting.arriveAndWait()
            if index == 0 {
                for generation in 1...generations {
                    registry.register(Lamp.self) { _ in NamedLamp("real \(generation)") }
                    registry.register(Tally.self, scope: .singleton) { _ in Tally(generation: generation, live: live) }
                }
                registeringDone.store(true, ordering: .releasing)
                return
            }
            scope.run {
                repeat {
                    do {
                        let lamp = try registry.resolve(Lamp.self).owner
                        lamps.withLock { _ = $0.insert(lamp) }
                        _ = try registry.resolve(Tally.self)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                } while !registeringDone.load(ordering: .acquiring)
            }
        }
        #expect(finished, "threads hung")
        #expect(!meeting.wasMissed, "the threads did not start at once")
        #expect(failures.withLock { $0 } == [])
        #expect(lamps.withLock { $0 } == ["mock"])
        let last = try registry.resolve(Tally.self)
        #expect(last.generation == generations)
        #expect(live.value == 1, "the scope keeps \(live.value - 1) instances of replaced registrations")
        #expect(try registry.resolve(Lamp.self).owner == "mock")
    }
}

/// A suite's trait under each test's, with the work of each test spread over threads
/// that carry its scope. Every thread of a test sees the same stack of overrides as the
/// test, one `.singleton` per test (the suite's included), never another test's.
@Suite(
    "Suite and test .overriding traits on threads",
    .overriding(ThreadRegistries.stacked) {
        $0.register(Lamp.self, scope: .singleton) { _ in NamedLamp("suite \(stackedSuiteLampBuilds.increment())") }
        $0.register(Bulb.self) { _ in NamedBulb(owner: "suite") }
    }
)
struct OverridingTraitStackedThreadsTests {
    /// The lamps the tests below saw, one per test: a lamp seen by two would be shared.
    static let lampsSeen = Recorded<String>()

    /// What every carried thread of the calling test saw, and what an uncarried one saw.
    static func seenOnThreads() async -> (carried: Set<String>, uncarried: Set<String>, finished: Bool) {
        let registry = ThreadRegistries.stacked
        let scope = OverrideScope.current
        let carried = Guarded<Set<String>>([])
        let uncarried = Guarded<Set<String>>([])
        let finished = await onOwnThreads(3) { index in
            @Sendable func look() -> String {
                let lamp = (try? registry.resolve(Lamp.self)).map { "\($0.owner)#\(ObjectIdentifier($0 as AnyObject).hashValue)" }
                let shade = (try? registry.resolve(Shade.self))?.lamp.owner
                let bulb = (try? registry.resolve(Bulb.self))?.owner
                return "\(lamp ?? "no lamp") / \(shade ?? "no shade") / \(bulb ?? "no bulb")"
            }
            for _ in 0..<20 {
                let seen = scope.run { look() }
                carried.withLock { _ = $0.insert(seen) }
            }
            let plain = look()
            uncarried.withLock { _ = $0.insert(plain) }
        }
        return (carried.withLock { $0 }, uncarried.withLock { $0 }, finished)
    }

    /// The lamp's owner in a line that `seenOnThreads` returned.
    static func owner(in line: String) -> String {
        String(line.prefix { $0 != "#" })
    }

    static let real = "real#"

    /// Checks that the calling test's carried threads all saw one lamp, a singleton of the
    /// trait whose builds are named `prefix…`, under the suite's bulb; that no other test saw
    /// that lamp; and that uncarried threads saw the real registry.
    static func expectOneLampOnEveryThread(
        ownedBy prefix: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let seen = await seenOnThreads()
        #expect(seen.finished, "threads hung", sourceLocation: sourceLocation)
        #expect(seen.carried.count == 1, sourceLocation: sourceLocation)
        let line = try #require(seen.carried.first, sourceLocation: sourceLocation)
        let lampOwner = owner(in: line)
        #expect(lampOwner.hasPrefix(prefix), sourceLocation: sourceLocation)
        #expect(line.hasSuffix(" / \(lampOwner) / suite"), sourceLocation: sourceLocation)
        #expect(
            seen.uncarried.allSatisfy { $0.hasPrefix(real) && $0.hasSuffix(" / real / no bulb") },
            sourceLocation: sourceLocation)
        lampsSeen.append(lampOwner)
        #expect(lampsSeen.all.filter { $0 == lampOwner }.count == 1, sourceLocation: sourceLocation)
    }

    @Test(.overriding(ThreadRegistries.stacked) {
        $0.register(Lamp.self, scope: .singleton) { _ in NamedLamp("test \(stackedTestLampBuilds.increment())") }
    })
    func aTestsTraitWinsOverTheSuitesOnEveryThread() async throws {
        try await Self.expectOneLampOnEveryThread(ownedBy: "test ")
    }

    @Test func theSuitesTraitReachesEveryThreadOfATestWithoutOne() async throws {
        try await Self.expectOneLampOnEveryThread(ownedBy: "suite ")
    }

    @Test(arguments: 0..<3)
    func eachCaseGetsItsOwnSuiteSingletonOnItsThreads(index: Int) async throws {
        try await Self.expectOneLampOnEveryThread(ownedBy: "suite ")
    }
}
