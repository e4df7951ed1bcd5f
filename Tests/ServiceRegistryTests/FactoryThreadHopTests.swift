import Dispatch
import Foundation
@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

// Factories that leave their thread, or seem to: `DispatchQueue.sync` (which runs the
// closure on the calling thread), work handed to another thread, and `Task.immediate`
// (which runs on the factory's thread until it first suspends), while several threads
// resolve the same shared services. What Docs/Design.md promises for these: a shared
// instance is built exactly once; a cycle met through the registry or a resolver on the
// factory's own thread and task, or entered from two threads at once, is a thrown
// `.circularDependency`; a task that runs beside a build waits for it. What it does not
// promise ("Known limits"): a factory that blocks until another thread resolves the
// service it builds deadlocks, and a `Task.immediate` that resolves it on the factory's
// thread stops the program; no test here waits on either.

private protocol Hub: Sendable {}
private protocol Spoke: Sendable {}
private protocol Rim: Sendable {}

private final class HubImpl: Hub {
    let spoke: any Spoke
    init(spoke: any Spoke) { self.spoke = spoke }
}

private final class SpokeImpl: Spoke {
    let rim: (any Rim)?
    init(rim: (any Rim)?) { self.rim = rim }
}

private final class RimImpl: Rim {}

/// What a resolve on some thread ended with, told by reason, or "resolved".
private func outcome(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "resolved"
    } catch let error as ResolutionError {
        return "\(error.reason)"
    } catch {
        return "\(error)"
    }
}

/// Registers `Rim` and a `Spoke` that needs it, counting their builds in `builds[2]` and
/// `builds[1]`.
private func registerRimAndSpoke(in registry: ServiceRegistry, scope: Scope, builds: [Counter]) {
    registry.register(Rim.self, scope: scope) { _ in
        builds[2].increment()
        return RimImpl()
    }
    registry.register(Spoke.self, scope: scope) { r in
        builds[1].increment()
        return SpokeImpl(rim: try r.resolve(Rim.self))
    }
}

/// Counts a build of `Hub` in `builds`, from its factory. The first build returns only once
/// another resolve waits for it, so the threads are sure to have met there; `waited` says
/// whether one did.
private func countHubBuild(_ builds: Counter, in registry: ServiceRegistry, waited: Guarded<Bool>) {
    guard builds.increment() == 1 else { return }
    let wait = waitUntilABuildIsAwaited(Hub.self, in: registry) { builds.value > 1 }
    waited.withLock { $0 = wait }
}

/// Resolves `Hub` on a thread of its own, up to 20 s: whether it finished, and the instance
/// it got.
private func resolveHubOnAThread(_ registry: ServiceRegistry) -> (finished: Bool, instance: AnyObject?) {
    let built = Guarded<AnyObject?>(nil)
    let finished = onThreads(1, within: 20) { _ in
        built.withLock { $0 = try? registry.resolve(Hub.self) as AnyObject }
    }
    return (finished, built.withLock { $0 })
}

/// What six threads resolving `Hub`, `Spoke` and `Rim` in turn saw.
private struct TurnsRun {
    /// Whether every thread finished in time.
    let finished: Bool
    /// Whether some thread started late (see ``Rendezvous/wasMissed``).
    let missedTheStart: Bool
    /// The errors the resolves threw.
    let failures: [String]
    /// How many different instances the resolves returned.
    let distinctInstances: Int
}

/// Has six threads, starting together, resolve `Hub`, `Spoke` and `Rim` in turn, `rounds`
/// times each, each thread starting at another service. Every instance is kept to the end,
/// so a `.weak` one is never let go and built again.
private func resolveInTurns(_ registry: ServiceRegistry, rounds: Int, within seconds: Double) -> TurnsRun {
    let kept = Guarded<[AnyObject]>([])
    let failures = Guarded<[String]>([])
    let rendezvous = Rendezvous(parties: 6)
    let finished = onThreads(6, within: seconds) { index in
        rendezvous.arriveAndWait()
        for round in 0..<rounds {
            do {
                let instance: AnyObject
                switch (index + round) % 3 {
                case 0: instance = try registry.resolve(Hub.self) as AnyObject
                case 1: instance = try registry.resolve(Spoke.self) as AnyObject
                default: instance = try registry.resolve(Rim.self) as AnyObject
                }
                kept.withLock { $0.append(instance) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
    }
    return TurnsRun(
        finished: finished, missedTheStart: rendezvous.wasMissed, failures: failures.withLock { $0 },
        distinctInstances: Set(kept.withLock { $0.map(ObjectIdentifier.init) }).count)
}

@Suite("Factories that hop threads")
struct FactoryThreadHopTests {
    /// `DispatchQueue.sync` runs its closure on the calling thread, so a factory may resolve
    /// a dependency inside one, through `r` or through the registry, while other threads
    /// resolve the same services: every shared instance is built once and nothing hangs. The
    /// first build of `Hub` finishes only once another thread waits for it, so the threads
    /// are sure to have met there.
    @Test(arguments: [Scope.singleton, .weak], [false, true])
    func aFactoryResolvingInsideQueueSyncBuildsEachSharedInstanceOnce(scope: Scope, throughRegistry: Bool) {
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let builds = (0..<3).map { _ in Counter() }
            let waited = Guarded(false)
            let serial = DispatchQueue(label: "a factory's serial queue")
            registry.register(Rim.self, scope: scope) { _ in
                builds[2].increment()
                return RimImpl()
            }
            registry.register(Spoke.self, scope: scope) { [registry] r in
                builds[1].increment()
                let rim: any Rim = try serial.sync {
                    try throughRegistry ? registry.resolve(Rim.self) : r.resolve(Rim.self)
                }
                return SpokeImpl(rim: rim)
            }
            registry.register(Hub.self, scope: scope) { [registry] r in
                countHubBuild(builds[0], in: registry, waited: waited)
                let spoke: any Spoke = try DispatchQueue.global().sync {
                    try throughRegistry ? registry.resolve(Spoke.self) : r.resolve(Spoke.self)
                }
                return HubImpl(spoke: spoke)
            }
            let run = resolveInTurns(registry, rounds: 30, within: 20)
            #expect(run.finished, "resolving through queue.sync in factories hung")
            guard run.finished else { return }
            #expect(!run.missedTheStart, "the threads did not start at once")
            #expect(waited.withLock { $0 }, "no thread waited for the Hub build")
            #expect(run.failures == [])
            #expect(builds.map(\.value) == [1, 1, 1])
            #expect(run.distinctInstances == 3)
        }
    }

    /// A factory that resolves its own service inside `queue.sync`, through the registry,
    /// is still on its own thread and task: the build's path is seen, and the cycle is
    /// thrown, never a wait on its own build lock. Also with several threads resolving it
    /// at once (each meets the cycle in turn).
    @Test(arguments: [Scope.singleton, .weak])
    func aFactoryResolvingItselfInsideQueueSyncIsACycle(scope: Scope) {
        let registry = ServiceRegistry()
        let attempts = Counter()
        registry.register(Hub.self, scope: scope) { [registry] _ in
            attempts.increment()
            let spoke: any Spoke = try DispatchQueue(label: "a factory's queue").sync {
                _ = try registry.resolve(Hub.self)
                return SpokeImpl(rim: nil)
            }
            return HubImpl(spoke: spoke)
        }
        let errors = Guarded<[ResolutionError]>([])
        let rendezvous = Rendezvous(parties: 4)
        let finished = onThreads(4, within: 20) { _ in
            rendezvous.arriveAndWait()
            do {
                _ = try registry.resolve(Hub.self)
                Issue.record("resolved a service that needs itself")
            } catch let error as ResolutionError {
                errors.withLock { $0.append(error) }
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(finished, "a cycle through queue.sync hung")
        guard finished else { return }
        let thrown = errors.withLock { $0 }
        #expect(thrown.map(\.reason) == Array(repeating: .circularDependency, count: 4))
        #expect(thrown.allSatisfy { $0.path == ["Hub", "Hub"] })
        // Each resolve built once, failing: none was retried into a second build of its own.
        #expect(attempts.value == 4)
    }

    /// Two threads entering a cycle from opposite ends, one of them through `queue.sync`
    /// (through `r` or the registry): the resolve inside the closure is still the factory's,
    /// so the coordinator follows the chain of waits back to it and both threads get
    /// `.circularDependency` instead of hanging.
    @Test(arguments: [false, true])
    func aCycleEnteredFromBothEndsThroughQueueSyncIsReportedNotAHang(throughRegistry: Bool) {
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let rendezvous = Rendezvous(parties: 2)
            registry.register(Hub.self, scope: .singleton) { [registry] r in
                rendezvous.arriveAndWait()
                let spoke: any Spoke = try DispatchQueue(label: "a factory's queue").sync {
                    try throughRegistry ? registry.resolve(Spoke.self) : r.resolve(Spoke.self)
                }
                return HubImpl(spoke: spoke)
            }
            registry.register(Spoke.self, scope: .singleton) { r in
                rendezvous.arriveAndWait()
                _ = try r.resolve(Hub.self)
                return SpokeImpl(rim: nil)
            }
            let outcomes = Guarded<[String]>([])
            let finished = onThreads(2, within: 20) { index in
                let result = outcome {
                    if index == 0 { _ = try registry.resolve(Hub.self) } else { _ = try registry.resolve(Spoke.self) }
                }
                outcomes.withLock { $0.append(result) }
            }
            #expect(finished, "a cycle entered from both ends through queue.sync hung")
            guard finished else { return }
            #expect(!rendezvous.wasMissed, "the two builds never ran at once")
            #expect(outcomes.withLock { $0 } == ["circularDependency", "circularDependency"])
        }
    }

    /// A factory that resolves another shared service (one that does not need the service
    /// being built) off its own task, while other threads resolve both services and the one
    /// below them at once: each is built once, and the resolve off the task is not taken for
    /// part of the build (no cycle, no error). The factory either hands the resolve to a
    /// thread of its own and waits for it, which the docs allow as long as that thread does
    /// not need the service being built, or starts a `Task.immediate` that runs it at once
    /// on the factory's thread (it builds the service there, or waits for another thread
    /// building it).
    @Test(arguments: [Scope.singleton, .weak], Hop.available)
    func aFactoryResolvingAnotherSharedServiceOffItsTaskBuildsEachOnce(scope: Scope, hop: Hop) {
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let builds = (0..<3).map { _ in Counter() }
            let hopOutcomes = Guarded<[String]>([])
            registerRimAndSpoke(in: registry, scope: scope, builds: builds)
            let waited = Guarded(false)
            registry.register(Hub.self, scope: scope) { [registry] _ in
                countHubBuild(builds[0], in: registry, waited: waited)
                let spoke = Guarded<(any Spoke)?>(nil)
                let finished = hop.run {
                    let result = outcome {
                        let resolved = try registry.resolve(Spoke.self)
                        spoke.withLock { $0 = resolved }
                    }
                    hopOutcomes.withLock { $0.append(result) }
                }
                if !finished { hopOutcomes.withLock { $0.append("the hopped resolve did not finish in time") } }
                guard let spoke = spoke.withLock({ $0 }) else { throw FactoryError(message: "no spoke") }
                return HubImpl(spoke: spoke)
            }
            let run = resolveInTurns(registry, rounds: 20, within: 60)
            #expect(run.finished, "a factory resolving off its task hung")
            guard run.finished else { return }
            #expect(!run.missedTheStart, "the threads did not start at once")
            #expect(waited.withLock { $0 }, "no thread waited for the Hub build")
            #expect(run.failures == [])
            #expect(hopOutcomes.withLock { $0 } == ["resolved"])
            #expect(builds.map(\.value) == [1, 1, 1])
            #expect(run.distinctInstances == 3)
        }
    }

    /// A factory that hands a resolve of its own service to another thread without waiting
    /// for it: that resolve is not part of the build (no task-locals reach the thread), so
    /// it waits for the build and gets the one instance — not a cycle, not a second build.
    /// The factory returns only once that resolve waits, so the race is sure to happen.
    /// (Had the factory waited for it, the two would deadlock: a documented limit.)
    @Test(arguments: [Scope.singleton, .weak])
    func aResolveOfTheServiceBeingBuiltHandedToAnotherThreadWaitsForTheBuild(scope: Scope) {
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let builds = Counter()
            let waited = Guarded(false)
            let hopped = Guarded<(outcome: String, instance: AnyObject?)?>(nil)
            let hopDone = DispatchSemaphore(value: 0)
            registry.register(Hub.self, scope: scope) { [registry] _ in
                if builds.increment() == 1 {
                    DispatchQueue.global().async {
                        var instance: AnyObject?
                        let result = outcome { instance = try registry.resolve(Hub.self) as AnyObject }
                        hopped.withLock { $0 = (result, instance) }
                        hopDone.signal()
                    }
                    let wait = waitUntilABuildIsAwaited(Hub.self, in: registry) {
                        builds.value > 1 || hopped.withLock { $0 != nil }
                    }
                    waited.withLock { $0 = wait }
                }
                return HubImpl(spoke: SpokeImpl(rim: nil))
            }
            let (finished, built) = resolveHubOnAThread(registry)
            #expect(finished)
            #expect(hopDone.wait(timeout: .now() + 20) == .success, "the hopped resolve hung")
            #expect(waited.withLock { $0 }, "the hopped resolve never waited for the build")
            let (result, instance) = hopped.withLock { $0 } ?? ("never ran", nil)
            #expect(result == "resolved")
            #expect(builds.value == 1)
            #expect(instance != nil && instance === built)
        }
    }

    /// A `Task.immediate` that suspends before it resolves the service being built runs on
    /// from then on beside the build, like any task: it inherits the build's task-locals,
    /// but must wait for the build and get its instance, not be told it is part of it.
    ///
    /// The task suspends on a continuation that the factory resumes only after
    /// `Task.immediate` has returned, so it goes on on its executor's thread (a thread of
    /// its own, not the cooperative pool that other tests may hold). Not `Task.yield()`:
    /// with an executor preference, an immediate task started on a thread outside any task
    /// was seen to resume from a yield on the starting thread before `Task.immediate`
    /// returned (9 times in 40), which on a factory's thread is the documented limit
    /// (a wait on the build's own lock), not what this test is about.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test(arguments: [Scope.singleton, .weak])
    func aTaskImmediateThatSuspendsBeforeResolvingTheServiceBeingBuiltWaitsForTheBuild(scope: Scope) async {
        let executor = ThreadExecutor(stackSize: 1 << 20)
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let builds = Counter()
            let waited = Guarded(false)
            let background = Guarded<Task<(String, (any Hub)?), Never>?>(nil)
            let taskDone = Guarded(false)
            registry.register(Hub.self, scope: scope) { [registry] _ in
                if builds.increment() == 1 {
                    let gate = Guarded<CheckedContinuation<Void, Never>?>(nil)
                    let task = Task.immediate(executorPreference: executor) {
                        await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
                        var instance: (any Hub)?
                        let result = outcome { instance = try registry.resolve(Hub.self) }
                        taskDone.withLock { $0 = true }
                        return (result, instance)
                    }
                    background.withLock { $0 = task }
                    guard let continuation = gate.withLock({ $0 }) else {
                        throw FactoryError(message: "the immediate task did not run at once")
                    }
                    continuation.resume()
                    let wait = waitUntilABuildIsAwaited(Hub.self, in: registry) {
                        builds.value > 1 || taskDone.withLock { $0 }
                    }
                    waited.withLock { $0 = wait }
                }
                return HubImpl(spoke: SpokeImpl(rim: nil))
            }
            let (finished, built) = resolveHubOnAThread(registry)
            #expect(finished)
            guard finished, let task = background.withLock({ $0 }) else {
                Issue.record("the factory started no task")
                return
            }
            let (result, instance) = await task.value
            #expect(waited.withLock { $0 }, "the task never waited for the build")
            #expect(result == "resolved")
            #expect(builds.value == 1)
            #expect(instance != nil && (instance as AnyObject) === built)
        }
    }
}

extension FactoryThreadHopTests {
    /// How a factory runs a resolve off its own task.
    enum Hop: CustomTestStringConvertible, Sendable {
        /// On a thread of its own, waited for up to 20 s.
        case waitedForThread
        /// In a `Task.immediate` that does not suspend, so it has finished when
        /// `Task.immediate` returns.
        case immediateTask

        /// Runs `body` as the hop says; returns `false` when it had not finished by the time
        /// it should have (the thread's time limit, or the immediate task's first suspension).
        func run(_ body: @escaping @Sendable () -> Void) -> Bool {
            switch self {
            case .waitedForThread:
                return onThreads(1, within: 20) { _ in body() }
            case .immediateTask:
                // Never listed where it is not available (see `available`).
                guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return false }
                let done = Guarded(false)
                Task.immediate {
                    body()
                    done.withLock { $0 = true }
                }
                return done.withLock { $0 }
            }
        }

        /// The hops this system can make: `Task.immediate` is new in macOS 26 and its peers.
        static var available: [Hop] {
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                [.waitedForThread, .immediateTask]
            } else {
                [.waitedForThread]
            }
        }

        var testDescription: String {
            switch self {
            case .waitedForThread: "a thread waited for"
            case .immediateTask: "Task.immediate"
            }
        }
    }
}
