import Foundation
@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

/// Runs `body(index)` on `count` OS threads at once, each with a stack of `stackSize`
/// bytes, and waits for all of them, up to `seconds`. Returns `false` when they did not all
/// finish in time (a deadlock). The default is generous because CI runs every test under
/// the thread sanitizer too, which slows such tests several times over on busy cores:
/// 2,000 rounds of four threads registering and resolving took 4.5 s of a 20 s limit
/// without it; only a deadlock should reach the limit.
///
/// `body`, with what it captures, is released before this returns (unless a thread is
/// still running it): a thread lets go of its own closure only some time after it has
/// finished, so the threads reach `body` through a box this empties, and a test may count
/// the instances alive right after.
func onThreads(
    _ count: Int, within seconds: Double = 120, stackSize: Int = 8 << 20, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let start = DispatchSemaphore(value: 0)
    let box = Guarded<(@Sendable (Int) -> Void)?>(body)
    defer { box.withLock { $0 = nil } }
    for index in 0..<count {
        let thread = Thread {
            start.wait()
            do {
                // Held only in this scope, which ends before the thread says it is done.
                let body = box.withLock { $0 }
                body?(index)
            }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    for _ in 0..<count where done.wait(timeout: .now() + seconds) == .timedOut {
        return false
    }
    return true
}

/// Polls, for up to `seconds`, until some resolve is blocked waiting for another to finish
/// building the shared `Service` that `registry` registers (unnamed, no argument), or until
/// `stop` says to give up (the resolve expected to wait failed, or built the instance
/// itself). Returns whether a resolve is waiting.
///
/// A factory calls this before it returns, so that the race a test sets up is sure to have
/// happened: a sleep could only make it likely, and a test whose other side came late would
/// find the instance built, never wait, and pass without testing anything.
func waitUntilABuildIsAwaited<Service>(
    _ type: Service.Type, in registry: ServiceRegistry, within seconds: Double = 10,
    unless stop: () -> Bool = { false }
) -> Bool {
    let cell = ObjectIdentifier(registry.table.registration(for: ServiceKey(Service.self, name: nil))!.cell)
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !BuildCoordinator.isAwaited(cell) {
        if stop() || ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

/// Registers a `.singleton` `ReviewService` in `registry` whose build finishes only once
/// another resolve waits for it, and resolves it on two threads at once. Returns whether
/// both threads finished and whether one waited for the other's build.
func resolveASingletonOnTwoThreadsOneWaitingForTheOthersBuild(in registry: ServiceRegistry) -> (
    finished: Bool, waited: Bool
) {
    let waited = Guarded(false)
    registry.register(ReviewService.self, scope: .singleton) { _ in
        let wait = waitUntilABuildIsAwaited(ReviewService.self, in: registry)
        waited.withLock { $0 = $0 || wait }
        return ReviewServiceImpl()
    }
    let rendezvous = Rendezvous(parties: 2)
    let finished = onThreads(2) { _ in
        rendezvous.arriveAndWait()
        _ = try? registry.resolve(ReviewService.self)
    }
    return (finished, waited.withLock { $0 })
}

@Suite("Concurrency")
struct ConcurrencyTests {
    /// The first build finishes only once another thread waits for it (or has started a
    /// build of its own, the failure this test is for), so the threads are sure to have
    /// met at the build: without that, a thread that came late found the instance built,
    /// and a registry that let every thread build passed in one run of three.
    @Test func singletonIsBuiltExactlyOnceUnderContention() {
        for _ in 0..<20 {
            let registry = ServiceRegistry()
            let built = Counter()
            let waited = Guarded(false)
            let rendezvous = Rendezvous(parties: 8)
            registry.register(ReviewService.self, scope: .singleton) { _ in
                if built.increment() == 1 {
                    let wait = waitUntilABuildIsAwaited(ReviewService.self, in: registry) { built.value > 1 }
                    waited.withLock { $0 = wait }
                }
                return ReviewServiceImpl()
            }
            let seen = Guarded<Set<ObjectIdentifier>>([])
            let finished = onThreads(8) { _ in
                rendezvous.arriveAndWait()
                for _ in 0..<200 {
                    let instance = try! registry.resolve(ReviewService.self) as AnyObject
                    seen.withLock { _ = $0.insert(ObjectIdentifier(instance)) }
                }
            }
            #expect(finished)
            #expect(waited.withLock { $0 }, "no thread waited for the build")
            #expect(built.value == 1)
            #expect(seen.withLock { $0.count } == 1)
        }
    }

    /// A resolve that waited for another's build stops counting as waiting once it has the
    /// instance: a wait left behind would stay in the coordinator for good, and a later
    /// build could be taken for one that waits for whoever builds it.
    @Test func aResolveThatWaitedForABuildLeavesNoWaitBehind() {
        let registry = ServiceRegistry()
        let (finished, waited) = resolveASingletonOnTwoThreadsOneWaitingForTheOthersBuild(in: registry)
        #expect(finished)
        #expect(waited, "no resolve waited for the build")
        let cell = registry.table.registration(for: ServiceKey(ReviewService.self, name: nil))?.cell
        #expect(cell.map { BuildCoordinator.isAwaited(ObjectIdentifier($0)) } == false)
    }

    @Test func singletonChainsResolveFromManyThreadsInAnyOrderWithoutDeadlock() {
        for _ in 0..<20 {
            let registry = ServiceRegistry()
            let builds = (0..<3).map { _ in Counter() }
            registry.register(ReviewService.self, scope: .singleton) { _ in
                builds[0].increment()
                return ReviewServiceImpl()
            }
            registry.register(BookDetailService.self, scope: .singleton) { r in
                builds[1].increment()
                return BookDetailServiceImpl(reviews: try r.resolve())
            }
            registry.register(ReadingService.self, scope: .singleton) { [registry] _ in
                builds[2].increment()
                // Through the registry itself, not the resolver: must not deadlock either.
                return ReadingServiceImpl(detail: try registry.resolve())
            }
            let rendezvous = Rendezvous(parties: 6)
            let finished = onThreads(6) { index in
                rendezvous.arriveAndWait()
                for round in 0..<100 {
                    switch (index + round) % 3 {
                    case 0: _ = try! registry.resolve(ReviewService.self)
                    case 1: _ = try! registry.resolve(BookDetailService.self)
                    default: _ = try! registry.resolve(ReadingService.self)
                    }
                }
            }
            #expect(finished, "resolving singletons from several threads deadlocked")
            #expect(!rendezvous.wasMissed, "the threads did not start at once")
            guard finished else { break }
            #expect(builds.map(\.value) == [1, 1, 1])
        }
    }

    /// Also when one side resolves through the registry: the thread that finds the loop
    /// names the path from the build that factory runs in, so the cycle reaches its caller
    /// as one rather than as that factory's failure.
    @Test(arguments: [false, true])
    func cycleEnteredFromBothEndsAtOnceIsReportedNotAHang(throughRegistry: Bool) {
        for _ in 0..<10 {
            let run = resolveACycleFromBothEndsAtOnce(throughRegistry: throughRegistry)
            #expect(run.finished, "a cycle entered from both ends hung")
            #expect(!run.missedEachOther, "the two builds never ran at once")
            guard run.finished, !run.missedEachOther else { break }
            #expect(run.errors.map(\.reason) == [.circularDependency, .circularDependency])
        }
    }

    /// The resolve that finds such a loop says which service the other resolve builds and
    /// which one of its own that resolve waits for: not, as it once did, that the service
    /// this resolve builds is built by the other.
    @Test func crossThreadCycleSaysWhichResolveBuildsWhat() {
        for _ in 0..<5 {
            let run = resolveACycleFromBothEndsAtOnce(throughRegistry: false)
            #expect(run.finished, "a cycle entered from both ends hung")
            guard run.finished, !run.missedEachOther else { break }
            let noted = run.errors.filter { $0.note != nil }
            #expect(noted.count == 1)
            for error in noted {
                // The path runs from the build this resolve holds to the one it asked for.
                let own = error.path.first ?? "", asked = error.path.last ?? ""
                #expect(Set([own, asked]) == ["ReadingService", "BookDetailService"])
                #expect(
                    error.note == "`\(asked)` is being built by another resolve that waits for `\(own)`, which this "
                        + "resolve is building, so the two depend on each other (perhaps on different threads).")
                #expect(error.description.contains("\n  " + (error.note ?? "-") + "\n"))
            }
        }
    }

    /// Three resolves entering a cycle of three singletons at three points at once each
    /// wait for the next one's build: the last to wait follows the chain of waits round to
    /// its own build, so every resolve gets `.circularDependency` instead of hanging.
    @Test func cycleEnteredAtThreePointsAtOnceIsReportedNotAHang() {
        let names = ["a", "b", "c"]
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let rendezvous = Rendezvous(parties: 3)
            for (index, name) in names.enumerated() {
                registry.register(ReviewService.self, name: name, scope: .singleton) { r in
                    rendezvous.arriveAndWait()
                    _ = try r.resolve(ReviewService.self, name: names[(index + 1) % names.count])
                    return ReviewServiceImpl()
                }
            }
            let reasons = Guarded<[ResolutionError.Reason]>([])
            let finished = onThreads(3) { index in
                do {
                    _ = try registry.resolve(ReviewService.self, name: names[index])
                    Issue.record("resolved a service of a cycle")
                } catch let error as ResolutionError {
                    reasons.withLock { $0.append(error.reason) }
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            #expect(finished, "a cycle entered at three points hung")
            #expect(!rendezvous.wasMissed, "the three builds never ran at once")
            guard finished, !rendezvous.wasMissed else { break }
            #expect(reasons.withLock { $0 } == [.circularDependency, .circularDependency, .circularDependency])
        }
    }

    /// Resolves two singletons that need each other from both ends, on two threads that
    /// meet inside the factories (the `ReadingService` one resolving through the registry
    /// if `throughRegistry`), and returns what the two resolves threw.
    private func resolveACycleFromBothEndsAtOnce(
        throughRegistry: Bool
    ) -> (finished: Bool, missedEachOther: Bool, errors: [ResolutionError]) {
        let registry = ServiceRegistry()
        let rendezvous = Rendezvous(parties: 2)
        registry.register(ReadingService.self, scope: .singleton) { [registry] r in
            rendezvous.arriveAndWait()
            return ReadingServiceImpl(detail: try throughRegistry ? registry.resolve() : r.resolve())
        }
        registry.register(BookDetailService.self, scope: .singleton) { r in
            rendezvous.arriveAndWait()
            _ = try r.resolve(ReadingService.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        let errors = Guarded<[ResolutionError]>([])
        let finished = onThreads(2) { index in
            do {
                if index == 0 {
                    _ = try registry.resolve(ReadingService.self)
                } else {
                    _ = try registry.resolve(BookDetailService.self)
                }
            } catch let error as ResolutionError {
                errors.withLock { $0.append(error) }
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        return (finished, rendezvous.wasMissed, errors.withLock { $0 })
    }

    /// Past a few resolves of one transient running at once, further ones are traced to
    /// catch a factory resolving itself through the registry; threads doing so merely at
    /// the same moment must not look like one.
    @Test func manyThreadsInsideOneTransientFactoryAtOnceAreNotACycle() {
        let threads = 8
        for _ in 0..<5 {
            let registry = ServiceRegistry()
            let rendezvous = Rendezvous(parties: threads)
            let builds = Counter()
            registry.register(ReviewService.self) { _ in
                rendezvous.arriveAndWait()
                builds.increment()
                return ReviewServiceImpl()
            }
            let failures = Guarded<[String]>([])
            let finished = onThreads(threads) { _ in
                do {
                    _ = try registry.resolve(ReviewService.self)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(finished, "resolving one transient from several threads hung")
            #expect(!rendezvous.wasMissed, "the threads were never inside the factory all at once")
            guard finished, !rendezvous.wasMissed else { break }
            #expect(failures.withLock { $0 } == [])
            #expect(builds.value == threads)
        }
    }

    /// While any shared build runs, in any thread, a top-level resolve also reads the
    /// task-local path a traced resolve publishes, and may meet the cycle there first; the
    /// error must not depend on which check meets it.
    @Test func cycleThroughTheRegistryReadsTheSameWhileAnotherThreadBuildsASingleton() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { [registry] _ in try registry.resolve(ReviewService.self) }
        let releaseBuild = holdASharedBuildOpen()
        defer { releaseBuild() }

        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReviewService", "ReviewService"])
        #expect(error.note?.contains("resolves through the registry instead of its resolver `r`") == true)
    }

    /// A task a singleton's factory starts inherits the build's task-locals, but runs
    /// beside the build: when both need the same singleton, one waits for the other.
    @Test func aTaskStartedInASingletonsFactoryIsNotPartOfItsBuild() async throws {
        let registry = ServiceRegistry()
        let clockBuilding = DispatchSemaphore(value: 0)
        let factoryAsked = Guarded(false)
        let factoryWaited = Guarded(false)
        registry.register(Clock.self, scope: .singleton) { _ in
            clockBuilding.signal()
            // Finish only once the factory below waits for this build; had it come after,
            // it would find the clock built and the test would check nothing.
            let waited = waitUntilABuildIsAwaited(Clock.self, in: registry) { factoryAsked.withLock { $0 } }
            factoryWaited.withLock { $0 = waited }
            return FixedClock(now: 7)
        }
        let background = Guarded<Task<Int?, Never>?>(nil)
        // The task runs on a thread of its own: on the cooperative pool it could wait for a
        // thread while other tests hold them all, and outlast the waits below.
        let executor = ThreadExecutor(stackSize: 1 << 20)
        registry.register(ReviewService.self, scope: .singleton) { r in
            background.withLock { $0 = Task(executorPreference: executor) { try? registry.resolve(Clock.self).now } }
            _ = clockBuilding.wait(timeout: .now() + 10)
            defer { factoryAsked.withLock { $0 = true } }
            _ = try r.resolve(Clock.self)  // being built by the task: waits for it
            return ReviewServiceImpl()
        }
        // On a thread of its own, so the blocking factory holds none of the pool's threads.
        let failure = Guarded<String?>(nil)
        let finished = onThreads(1) { _ in
            do { _ = try registry.resolve(ReviewService.self) } catch { failure.withLock { $0 = "\(error)" } }
        }
        #expect(finished)
        #expect(failure.withLock { $0 } == nil)
        #expect(factoryWaited.withLock { $0 }, "the factory never waited for the task's build")
        #expect(await background.withLock { $0 }?.value == 7)
    }

    /// A task a factory starts may outlive the build, and a later task is often allocated
    /// where the build's task was. Neither may find the finished build's path: here a task
    /// started in ReviewService's factory (built inside a BookDetailService resolve)
    /// resolves BookDetailService over and over, each time from a fresh task, while another
    /// build elsewhere keeps shared builds running.
    @Test func aFinishedBuildsPathCountsInNoLaterTask() async throws {
        let releaseBuild = holdASharedBuildOpen()
        defer { releaseBuild() }

        var failures: [String] = []
        for _ in 0..<10 {
            let registry = ServiceRegistry()
            registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
            let buildTask = Guarded<Task<String?, Never>?>(nil)
            let background = Guarded<Task<[String?], Never>?>(nil)
            registry.register(ReviewService.self, scope: .singleton) { _ in
                background.withLock {
                    $0 = Task {
                        // Waiting for the build's task lets it finish and be freed first.
                        var results = [await Self.value(of: buildTask)]
                        for _ in 0..<10 {
                            results.append(await Task { Self.failure { _ = try registry.resolve(BookDetailService.self) } }.value)
                        }
                        return results
                    }
                }
                return ReviewServiceImpl()
            }
            buildTask.withLock { $0 = Task { Self.failure { _ = try registry.resolve(BookDetailService.self) } } }
            while background.withLock({ $0 }) == nil { await Task.yield() }
            failures += await background.withLock { $0 }!.value.compactMap { $0 }
        }
        #expect(failures == [])
    }

    /// Starts building a singleton of a registry of its own on another thread, and returns
    /// once the build is under way; the build runs until the returned closure is called
    /// (or 600 s pass, so that a test slowed past any plausible length by a sanitizer or a
    /// busy machine still runs with the build open). While it runs, every top-level
    /// resolve in the process reads the task-local build trace.
    private func holdASharedBuildOpen() -> @Sendable () -> Void {
        let registry = ServiceRegistry()
        let building = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        registry.register(Clock.self, scope: .singleton) { _ in
            building.signal()
            _ = release.wait(timeout: .now() + 600)
            return FixedClock(now: 1)
        }
        Thread { _ = try? registry.resolve(Clock.self) }.start()
        building.wait()
        return { release.signal() }
    }

    /// Awaits the task in `box`, taking it out first so that it is freed once it ends.
    private static func value(of box: Guarded<Task<String?, Never>?>) async -> String? {
        while true {
            if let task = box.withLock({ box in defer { box = nil }; return box }) { return await task.value }
            await Task.yield()
        }
    }

    private static func failure(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }

    /// A task that runs beside a build, on a thread whose stack is mapped right below the
    /// builder's, waits for the build: where a thread's stack lies says nothing about
    /// whether it is nested in the factory. (Threads of one stack size are mapped next to
    /// each other once the holes in the address space are filled.)
    @Test func aTaskOnANeighbouringStackWaitsForTheBuild() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let registry = ServiceRegistry()
            let go = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let parked = DispatchSemaphore(value: 0)
            let executor = Guarded<ThreadExecutor?>(nil)
            let outcome = Guarded("not run")
            let taskWaited = Guarded(false)
            for _ in 0..<16 {
                let filler = Thread { parked.wait() }
                filler.stackSize = 128 << 10
                filler.start()
            }
            registry.register(ReviewService.self, scope: .singleton) { _ in
                Task(executorPreference: executor.withLock { $0! }) {
                    do throws(ResolutionError) {
                        _ = try registry.resolve(ReviewService.self)
                        outcome.withLock { $0 = "resolved" }
                    } catch {
                        outcome.withLock { $0 = "\(error.reason)" }
                    }
                    done.signal()
                }
                // Finish only once the task waits for this build (or has failed): had it come
                // after, it would find the instance built and the test would check nothing.
                // The task takes milliseconds, but its thread may start seconds late on a busy
                // machine: only a hang should reach this bound or the one below, which must be
                // the longer (at 5 s against this one's 10 s, a task 6 s late failed the test
                // while the build still waited for it).
                let waited = waitUntilABuildIsAwaited(ReviewService.self, in: registry, within: 60) {
                    outcome.withLock { $0 } != "not run"
                }
                taskWaited.withLock { $0 = waited }
                return ReviewServiceImpl()
            }
            let builder = Thread {
                go.wait()
                Self.deeper(kilobytes: 32) { _ = try? registry.resolve(ReviewService.self) }
            }
            builder.stackSize = 128 << 10
            builder.start()
            executor.withLock { $0 = ThreadExecutor(stackSize: 128 << 10) }  // mapped right below
            go.signal()
            _ = done.wait(timeout: .now() + 90)
            print(outcome.withLock { $0 }, taskWaited.withLock { $0 } ? "after waiting" : "without waiting", terminator: "")
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "resolved after waiting")
    }

    /// Runs `body` about `kilobytes` kB further down the stack.
    @inline(never)
    private static func deeper(kilobytes: Int, _ body: () -> Void) {
        withUnsafeTemporaryAllocation(byteCount: 1_000, alignment: 8) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            if kilobytes <= 0 { body() } else { deeper(kilobytes: kilobytes - 1, body) }
        }
    }

    @Test func throwingSingletonUnderContentionIsRetriedAndThenBuiltOnce() {
        let registry = ServiceRegistry()
        let attempts = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            if attempts.increment() <= 3 { throw FactoryError(message: "flaky") }
            return ReviewServiceImpl()
        }
        let instances = Guarded<Set<ObjectIdentifier>>([])
        let finished = onThreads(8) { _ in
            for _ in 0..<50 {
                if let instance = try? registry.resolve(ReviewService.self) {
                    instances.withLock { _ = $0.insert(ObjectIdentifier(instance as AnyObject)) }
                }
            }
        }
        #expect(finished)
        #expect(attempts.value == 4)
        #expect(instances.withLock { $0.count } == 1)
    }

    @Test func registeringWhileOthersResolveNeverCrashes() throws {
        let registry = ServiceRegistry()
        for index in 0..<64 {
            registry.register(Int.self, name: "stable \(index)") { _ in index }
        }
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl(source: "0") }
        let failures = Counter()
        let finished = onThreads(4) { thread in
            for round in 0..<2_000 {
                if thread == 0 {
                    // Grow the table and replace a singleton while others read.
                    registry.register(Int.self, name: "new \(round)") { _ in round }
                    registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl(source: "\(round)") }
                } else {
                    let index = (round * 7 + thread) % 64
                    if (try? registry.resolve(Int.self, name: "stable \(index)")) != index { failures.increment() }
                    if (try? registry.resolve(ReviewService.self)) == nil { failures.increment() }
                    // A key being added right now is either not there yet or complete.
                    if let added = try? registry.resolve(Int.self, name: "new \(round)"), added != round {
                        failures.increment()
                    }
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
        #expect(try registry.resolve(Int.self, name: "new 1999") == 1999)
    }

    /// Top-level resolves of a transient may hold its registration unretained, counted
    /// instead (see `AnyRegistration.tableLetsGo()`), while others retain it (an observer
    /// sends every resolve down that path while it is on): replacing the registration
    /// while threads resolve it must free each replaced one exactly once, and none early.
    /// Freed twice, the test crashes; kept, more than the last one stays alive.
    ///
    /// In a process of its own: the counted path is the table's fast path, open only while
    /// no override scope or observer exists anywhere in the process, and the tests running
    /// alongside keep one open nearly all the time (in a whole run under the thread
    /// sanitizer, every one of 50,114 samples found it closed), so here every resolve took
    /// the retaining path and only this test's own observer was meant to send them there.
    @Test func replacingATransientWhileThreadsResolveItFreesEachReplacedRegistrationOnce() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let registry = ServiceRegistry()
            let live = LiveCount()
            let register: @Sendable (Int) -> Void = { round in
                let tracked = Tracked(live)
                registry.register(ReviewService.self) { _ in
                    withExtendedLifetime(tracked) { ReviewServiceImpl(source: "\(round)") }
                }
            }
            register(0)
            let failures = Counter()
            let finished = onThreads(4) { thread in
                for round in 0..<10_000 {
                    switch thread {
                    case 0:
                        register(round + 1)
                    case 1 where round % 2 == 0:
                        let token = registry.addResolutionObserver { _ in }
                        if (try? registry.resolve(ReviewService.self)) == nil { failures.increment() }
                        registry.removeResolutionObserver(token)
                    default:
                        if (try? registry.resolve(ReviewService.self)) == nil { failures.increment() }
                    }
                }
            }
            print("finished: \(finished), failures: \(failures.value), alive: \(live.value)", terminator: "")
        }
        // More than one alive: replaced registrations are still held.
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "finished: true, failures: 0, alive: 1")
    }

    /// A resolve that misses a key another thread is adding came first, and throws
    /// `.notRegistered`. The error lists what is registered after the miss and may find the
    /// new registration: that is not one of another argument type, whatever it was given.
    /// The race needs the two threads on two cores at once (alone, a few rounds in a hundred
    /// meet it); the test below pins the rule without it.
    @Test func aKeyAddedWhileAResolveMissesItIsNotRegisteredNotAMismatch() {
        let registry = ServiceRegistry()
        // One new key a round, until ten resolves have missed theirs.
        let stop = Int.max
        let adding = Atomic<Int>(-1)
        let read = Atomic<Int>(-1)
        let reasons = Guarded<[ResolutionError.Reason: Int]>([:])
        // Each round hands over twice between the threads: when they share a core, each
        // handover waits for the other's turn on it, and the 2,000 rounds took 17 s under
        // the thread sanitizer while other processes kept the cores busy: `onThreads`'s
        // default limit allows for that, and only a deadlock would reach it.
        let finished = onThreads(2) { thread in
            for round in 0..<2_000 {
                if thread == 0 {
                    while read.load(ordering: .acquiring) < round - 1 { sched_yield() }
                    if reasons.withLock({ $0.values.reduce(0, +) }) >= 10 { break }
                    adding.store(round, ordering: .releasing)
                    registry.register(Int.self, name: "key \(round)") { _ in round }
                } else {
                    while adding.load(ordering: .acquiring) < round { sched_yield() }
                    if adding.load(ordering: .acquiring) == stop { break }
                    do throws(ResolutionError) {
                        _ = try registry.resolve(Int.self, name: "key \(round)")
                    } catch {
                        reasons.withLock { $0[error.reason, default: 0] += 1 }
                    }
                    read.store(round, ordering: .releasing)
                }
            }
            adding.store(stop, ordering: .releasing)
        }
        #expect(finished)
        #expect(reasons.withLock { $0[.argumentMismatch] } == nil)
    }

    /// An error made for a key registered since the lookup missed it reads as the error for
    /// a key never registered.
    @Test func anErrorForAKeyRegisteredSinceTheLookupMissedItReadsAsNotRegistered() throws {
        let registry = ServiceRegistry()
        registry.register(Int.self, name: "other") { _ in 1 }
        let expected = try resolutionError { _ = try registry.resolve(Int.self, name: "late") }
        registry.register(Int.self, name: "late") { _ in 2 }
        var made: ResolutionError?
        try registry.withResolution(overrides: nil) { resolution in
            made = registry.missingRegistrationError(
                key: ServiceKey(Int.self, name: "late"), serviceType: Int.self, argumentType: nil, argument: nil,
                parent: nil, resolution: resolution)
        }
        #expect(made?.reason == .notRegistered)
        #expect(made?.description == expected.description)
    }

    /// A parent's singleton resolved through a child misses a dependency in the parent, and
    /// the error says the dependency is provided only below the parent when the child finds
    /// it. Registered in the parent after the lookup missed it, the child finds it there:
    /// the resolve came first, so the dependency was missing, not provided below.
    @Test func aKeyRegisteredInTheParentSinceTheLookupMissedItIsNotSaidToBeProvidedBelow() throws {
        let parent = ServiceRegistry()
        parent.register(BookDetailService.self, scope: .singleton) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
        }
        let child = parent.makeChild()
        let expected = try resolutionError { _ = try child.resolve(BookDetailService.self) }
        #expect(expected.note == nil)
        parent.register(ReviewService.self) { _ in ReviewServiceImpl() }
        let detail = try #require(parent.table.registration(for: ServiceKey(BookDetailService.self, name: nil)))
        var made: ResolutionError?
        try child.withResolution(overrides: nil) { resolution in
            // The error the parent's lookup of `ReviewService` below the singleton's frame makes.
            var frame = ResolutionFrame(registration: detail, parent: nil, registry: parent, resolution: resolution)
            withUnsafePointer(to: &frame) { frame in
                made = parent.missingRegistrationError(
                    key: ServiceKey(ReviewService.self, name: nil), serviceType: ReviewService.self,
                    argumentType: nil, argument: nil, parent: frame, resolution: resolution)
            }
        }
        #expect(made?.reason == .notRegistered)
        #expect(made?.note == nil)
        #expect(made?.description == expected.description)
    }

    /// A resolve of an optional type that misses its key while another thread registers it
    /// came first, as above, so it resolves the type the optional wraps, as it does with
    /// nothing registered for the optional. Whether the optional has a registration under
    /// the name, asked after the lookup, must leave that very key out: counting it, the
    /// resolve threw `.notRegistered` for the optional (its error leaves the key out too),
    /// though the optional and the type it wraps were both registered by then, an outcome
    /// neither order of the two calls gives. The test pins the rule without the race.
    @Test func anOptionalRegisteredSinceTheLookupMissedItStillResolvesTheWrappedType() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "late") { _ in ReviewServiceImpl(source: "wrapped") }
        let optional = (any ReviewService)?.self
        let key = ServiceKey(optional, name: "late")
        #expect(registry.lookup(key, overrides: nil) == nil)
        registry.register(optional, name: "late") { _ in ReviewServiceImpl(source: "optional") }
        // What the resolve asks once its lookup has missed the key.
        #expect(registry.optionalFallback(for: key, serviceType: optional, overrides: nil) != nil)
        // One under the name that takes an argument is still a mismatch to report.
        registry.register(optional, name: "late") { (_, source: String) in ReviewServiceImpl(source: source) }
        #expect(registry.optionalFallback(for: key, serviceType: optional, overrides: nil) == nil)
        #expect(try registry.resolve(optional, name: "late")?.source == "optional")
    }

    /// The race itself: a resolve of an optional type while another thread registers that
    /// very key gets the optional's registration or the type it wraps, never an error.
    /// Before the rule above, about one round in a hundred and fifty threw on two cores, so
    /// 600 rounds catch it in about 98 runs of 100; the test above pins the rule every time.
    /// Alone the rounds take milliseconds, but their handshake yields, so beside the rest of
    /// the suite on two cores they last about as long as it does (16 s), and longer under the
    /// thread sanitizer: the limit is one only a deadlock reaches.
    @Test func anOptionalResolvedWhileItsKeyIsRegisteredNeverThrows() {
        let registry = ServiceRegistry()
        let rounds = 600
        for round in 0..<rounds {
            registry.register(ReviewService.self, name: "key \(round)") { _ in ReviewServiceImpl(source: "wrapped") }
        }
        let adding = Atomic<Int>(-1)
        let read = Atomic<Int>(-1)
        let failures = Counter()
        let finished = onThreads(2, within: 600) { thread in
            for round in 0..<rounds {
                if thread == 0 {
                    while read.load(ordering: .acquiring) < round - 1 { sched_yield() }
                    adding.store(round, ordering: .releasing)
                    registry.register((any ReviewService)?.self, name: "key \(round)") { _ in
                        ReviewServiceImpl(source: "optional")
                    }
                } else {
                    while adding.load(ordering: .acquiring) < round { sched_yield() }
                    do {
                        _ = try registry.resolve((any ReviewService)?.self, name: "key \(round)")
                    } catch {
                        failures.increment()
                    }
                    read.store(round, ordering: .releasing)
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
    }

    /// A resolve through a child finds the parent's registration by a lookup of its own (the
    /// child's table misses the key); replacing that registration meanwhile must not free
    /// it under the reader.
    @Test func resolvingThroughAChildWhileItsParentReRegistersNeverCrashes() {
        let parent = ServiceRegistry()
        let child = parent.makeChild()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "0") }
        let failures = Counter()
        // 100,000 rounds took 55 s under the thread sanitizer while other processes kept
        // the two cores busy: a limit far above that, which only a deadlock would reach.
        let finished = onThreads(4, within: 600) { thread in
            for round in 0..<100_000 {
                if thread == 0 {
                    parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "\(round)") }
                } else if (try? child.resolve(ReviewService.self)) == nil {
                    failures.increment()
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
    }

    @Test func manyTasksResolvingTransientsAndSingletonsAgree() async {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            built.increment()
            return ReviewServiceImpl()
        }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    await Task.yield()
                    return ObjectIdentifier(try! registry.resolve(BookDetailService.self).reviews as AnyObject)
                }
            }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(built.value == 1)
    }
}

/// Runs the jobs of the tasks that prefer it on one thread of its own, with the stack size
/// given, started at once and parked between jobs until the process ends.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is guarded by its lock; the semaphore is thread-safe.
    private let jobs = Guarded<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    init(stackSize: Int) {
        let thread = Thread { [self] in
            while true {
                available.wait()
                jobs.withLock { $0.removeFirst() }.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.stackSize = stackSize
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }
}
