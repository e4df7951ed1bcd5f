import Foundation
import ServiceRegistry
import ServiceRegistryTestComponent
import Synchronization
import Testing
import ThreadTestSupport

/// Collects resolution events from any thread.
private final class EventLog: @unchecked Sendable {
    // @unchecked: `entries` is only touched while holding `lock`.
    private let lock = NSLock()
    private var entries: [String] = []
    private var objects: [AnyObject] = []

    func record(_ event: ResolutionEvent) {
        lock.lock()
        defer { lock.unlock() }
        entries.append("\(event.outcome) \(event.serviceType) depth \(event.depth) \(event.scope)")
        if let instance = event.instance { objects.append(instance) }
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    var instances: [AnyObject] {
        lock.lock()
        defer { lock.unlock() }
        return objects
    }
}

/// Resolves from its registry when it is freed.
private final class ResolvesWhenFreed: Sendable {
    let registry: ServiceRegistry
    init(_ registry: ServiceRegistry) { self.registry = registry }
    deinit { _ = try? registry.resolve(Clock.self) }
}

@Suite("Resolution observers")
struct ObservationTests {
    private func makeRegistry() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReadingService.self, scope: .weak) { r in ReadingServiceImpl(detail: try r.resolve()) }
        return registry
    }

    /// An observer hears of a dependency inside the build of the shared service that needs
    /// it; resolving that service from the observer would wait for its own thread's build,
    /// so it throws a cycle instead (as `addResolutionObserver` documents), whose note names
    /// the observer rather than only a factory, and the outer resolve still succeeds.
    @Test func anObserverResolvingTheSharedServiceBeingBuiltAroundItGetsACycle() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        registry.register(ReadingService.self, scope: .weak) { r in
            ReadingServiceImpl(detail: BookDetailServiceImpl(reviews: try r.resolve()))
        }
        let reasons = Guarded<[ResolutionError.Reason?]>([])
        let notes = Guarded<[String]>([])
        let token = registry.addResolutionObserver { event in
            guard event.serviceType == "ReviewService" else { return }
            let reason: ResolutionError.Reason?
            do throws(ResolutionError) {
                _ = try registry.resolve(ReadingService.self)
                reason = nil
            } catch {
                reason = error.reason
                notes.withLock { $0.append(error.note ?? "") }
            }
            reasons.withLock { $0.append(reason) }
        }
        defer { registry.removeResolutionObserver(token) }
        let reader = try registry.resolve(ReadingService.self)
        #expect(reasons.withLock { $0 } == [.circularDependency])
        #expect(notes.withLock { $0 }.allSatisfy { $0.contains("resolution observer") })
        withExtendedLifetime(reader) {}
    }

    @Test func reportsBuiltThenReusedWithDepthAndScope() throws {
        let registry = makeRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }

        _ = try registry.resolve(BookDetailService.self)
        _ = try registry.resolve(BookDetailService.self)
        // The depth counts every service between the event's and the top-level resolve.
        let reading = try registry.resolve(ReadingService.self)
        #expect(log.lines == [
            "built ReviewService depth 1 singleton",
            "built BookDetailService depth 0 transient",
            "reused ReviewService depth 1 singleton",
            "built BookDetailService depth 0 transient",
            "reused ReviewService depth 2 singleton",
            "built BookDetailService depth 1 transient",
            "built ReadingService depth 0 weak",
        ])
        withExtendedLifetime(reading) {}
    }

    /// A `.graph` instance asked for again within one resolve is reported reused.
    @Test func aGraphInstanceAskedForAgainWithinOneResolveIsReportedReused() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .graph) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in
            _ = try r.resolve(ReviewService.self)
            return BookDetailServiceImpl(reviews: try r.resolve())
        }
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }

        _ = try registry.resolve(BookDetailService.self)
        #expect(log.lines == [
            "built ReviewService depth 1 graph",
            "reused ReviewService depth 1 graph",
            "built BookDetailService depth 0 transient",
        ])
    }

    /// Threads that resolve a new singleton at the same moment hear of one build: a resolve
    /// that finds the instance built once it may build it itself (by a thread that finished
    /// meanwhile) reused it. The moment is short, so this meets it over many rounds, not in
    /// every run; `SharedBuildClaimRaceTests` holds a thread there in the hooks build.
    @Test func aSingletonResolvedByManyThreadsAtOnceIsReportedBuiltOnce() {
        let threads = 4
        let rounds = 600
        let root = ServiceRegistry()
        let log = EventLog()
        let token = root.addResolutionObserver { log.record($0) }
        defer { root.removeResolutionObserver(token) }
        let registries = (0..<rounds).map { _ in
            let registry = root.makeChild()
            registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
            return registry
        }
        let rendezvous = (0..<rounds).map { _ in Rendezvous(parties: threads) }
        let finished = onThreads(threads) { _ in
            for round in 0..<rounds {
                rendezvous[round].arriveAndWait()
                _ = try? registries[round].resolve(ReviewService.self)
            }
        }
        #expect(finished)
        #expect(!rendezvous.contains { $0.wasMissed }, "the threads did not resolve at once")
        let lines = log.lines
        #expect(lines.count == rounds * threads)
        #expect(lines.filter { $0.hasPrefix("built") }.count == rounds)
    }

    /// A resolve that waited for another thread's build, then found the instance, reports it
    /// reused. Met for sure, unlike the moment above: the build finishes only once the other
    /// thread waits for it.
    @Test func aResolveThatWaitedForAnotherThreadsBuildReportsItReused() {
        let registry = ServiceRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        let (finished, waited) = resolveASingletonOnTwoThreadsOneWaitingForTheOthersBuild(in: registry)
        #expect(finished)
        #expect(waited, "no resolve waited for the build")
        #expect(log.lines.sorted() == ["built ReviewService depth 0 singleton", "reused ReviewService depth 0 singleton"])
    }

    @Test func reportsACachedSingletonAskedForDirectly() throws {
        let registry = makeRegistry()
        _ = try registry.resolve(ReviewService.self)
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        _ = try registry.resolve(ReviewService.self)
        #expect(log.lines == ["reused ReviewService depth 0 singleton"])
    }

    /// Each component's `Config` reads `Config` in `serviceType`; an observer that keeps
    /// figures per service tells them apart by the qualified name.
    @Test func theQualifiedServiceTypeTellsSameNamedTypesApart() throws {
        let registry = ServiceRegistry()
        registry.register(Config.self) { _ in Config() }
        registry.register(ServiceRegistryTestComponent.Config.self) { _ in ServiceRegistryTestComponent.Config() }
        let names = Mutex<[String]>([])
        let token = registry.addResolutionObserver { event in
            names.withLock { $0.append("\(event.serviceType) \(event.qualifiedServiceType)") }
        }
        defer { registry.removeResolutionObserver(token) }

        _ = try registry.resolve(Config.self)
        _ = try registry.resolve(ServiceRegistryTestComponent.Config.self)
        #expect(names.withLock { $0 } == [
            "Config ServiceRegistryTests.Config", "Config ServiceRegistryTestComponent.Config",
        ])
    }

    @Test func reportsAWeakInstanceReusedWhileHeld() throws {
        let registry = makeRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        let held = try registry.resolve(ReadingService.self)
        let again = try registry.resolve(ReadingService.self)
        #expect(held as AnyObject === again as AnyObject)
        #expect(log.lines.filter { $0.contains("ReadingService") } == [
            "built ReadingService depth 0 weak", "reused ReadingService depth 0 weak",
        ])
        #expect(log.instances.contains { $0 === held as AnyObject })
    }

    @Test func childResolvesReachTheParentsObservers() throws {
        let registry = makeRegistry()
        let child = registry.makeChild()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        _ = try child.resolve(BookDetailService.self)
        #expect(log.lines.contains("built BookDetailService depth 0 transient"))
    }

    @Test func aChildsObserversHearWhatAParentsSingletonResolvesInTheParent() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl() }
        parent.register(BookDetailService.self, scope: .singleton) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = parent.makeChild()
        let log = EventLog()
        let token = child.addResolutionObserver { log.record($0) }
        defer { child.removeResolutionObserver(token) }
        _ = try child.resolve(BookDetailService.self)
        #expect(log.lines == ["built ReviewService depth 1 transient", "built BookDetailService depth 0 singleton"])
    }

    /// As Testing.md says: an observer hears every resolve on its registry, from any task,
    /// so one on a registry other tests use hears their resolves too; one on a child the
    /// test makes hears only the resolves that start on the child.
    @Test func anObserverOfAChildHearsOnlyTheResolvesThatStartOnTheChild() async throws {
        let shared = makeRegistry()
        let child = shared.makeChild()
        let onShared = EventLog()
        let onChild = EventLog()
        let sharedToken = shared.addResolutionObserver { onShared.record($0) }
        let childToken = child.addResolutionObserver { onChild.record($0) }
        defer {
            shared.removeResolutionObserver(sharedToken)
            child.removeResolutionObserver(childToken)
        }
        // Another test, on another task, resolving on the shared registry.
        try await Task.detached { _ = try shared.resolve(BookDetailService.self) }.value
        _ = try child.resolve(BookDetailService.self)
        #expect(onChild.lines == ["reused ReviewService depth 1 singleton", "built BookDetailService depth 0 transient"])
        #expect(onShared.lines.count == 4)
    }

    @Test func anObserverMayBeRemovedWhenWhatItHoldsResolvesAsItGoes() async {
        await #expect(processExitsWith: .success) {
            let registry = ServiceRegistry()
            registry.register(Clock.self) { _ in FixedClock(now: 1) }
            var held: ResolvesWhenFreed? = ResolvesWhenFreed(registry)
            let token = registry.addResolutionObserver { [held] _ in _ = held }
            held = nil
            // The observer holds the last reference: removing it frees that object, whose
            // deinit resolves (reaching the observer list) while the removal finishes.
            registry.removeResolutionObserver(token)
        }
    }

    /// Observers are called in the order they were added, a child's before its parent's,
    /// also after one in the middle is removed: kept in a dictionary by token, they were
    /// called in its order, which the process's hashing seed changed from run to run.
    @Test func observersAreCalledInTheOrderTheyWereAdded() throws {
        let parent = ServiceRegistry()
        parent.register(Clock.self) { _ in FixedClock(now: 1) }
        let child = parent.makeChild()
        let calls = Guarded<[String]>([])
        var tokens: [(registry: ServiceRegistry, token: ResolutionObserverToken)] = []
        func observe(_ registry: ServiceRegistry, as label: String) {
            let token = registry.addResolutionObserver { _ in calls.withLock { $0.append(label) } }
            tokens.append((registry, token))
        }
        for index in 0..<8 {
            observe(parent, as: "parent \(index)")
            observe(child, as: "child \(index)")
        }
        defer { for (registry, token) in tokens { registry.removeResolutionObserver(token) } }
        child.removeResolutionObserver(tokens[5].token)  // child 2
        observe(child, as: "child 8")

        _ = try child.resolve(Clock.self)
        let expected = ([0, 1, 3, 4, 5, 6, 7, 8].map { "child \($0)" } + (0..<8).map { "parent \($0)" })
        #expect(calls.withLock { $0 } == expected)
    }

    @Test func removedObserversHearNothing() throws {
        let registry = makeRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        registry.removeResolutionObserver(token)
        registry.removeResolutionObserver(token)
        _ = try registry.resolve(BookDetailService.self)
        #expect(log.lines.isEmpty)
    }

    /// As the documentation says: a resolve on another thread that picked an observer up
    /// before it was removed may still call it once after the removal returns (removing does
    /// not wait for calls in flight). Here the resolve has copied out both observers and is
    /// held inside the first one it calls while the other one is removed.
    @Test func aResolveUnderWayMayCallAnObserverOnceAfterItIsRemoved() throws {
        let registry = makeRegistry()
        let firstCalled = DispatchSemaphore(value: 0)
        let removed = DispatchSemaphore(value: 0)
        let resolved = DispatchSemaphore(value: 0)
        let first = Guarded<Int?>(nil)
        let isRemoved = Guarded(false)
        let callsAfterRemoval = Guarded(0)
        var tokens: [ResolutionObserverToken] = []
        for index in 0..<2 {
            tokens.append(
                registry.addResolutionObserver { _ in
                    let isFirst = first.withLock { first -> Bool in
                        guard first == nil else { return false }
                        first = index
                        return true
                    }
                    if isFirst {
                        firstCalled.signal()
                        _ = removed.wait(timeout: .now() + 10)
                    } else if isRemoved.withLock({ $0 }) {
                        callsAfterRemoval.withLock { $0 += 1 }
                    }
                })
        }
        Thread {
            _ = try? registry.resolve(ReviewService.self)
            resolved.signal()
        }.start()
        try #require(firstCalled.wait(timeout: .now() + 10) == .success)
        let other = 1 - (first.withLock { $0 } ?? 0)
        registry.removeResolutionObserver(tokens[other])
        isRemoved.withLock { $0 = true }
        removed.signal()
        try #require(resolved.wait(timeout: .now() + 10) == .success)
        registry.removeResolutionObserver(tokens[1 - other])
        #expect(callsAfterRemoval.withLock { $0 } == 1)
    }

    /// As the documentation says: a token belongs to the registry that returned it.
    /// Removing it on another one, even a child or the parent, leaves the observer on.
    @Test func aTokenRemovedOnAnotherRegistryLeavesItsObserverOn() throws {
        let registry = makeRegistry()
        let child = registry.makeChild()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        child.removeResolutionObserver(token)
        _ = try child.resolve(BookDetailService.self)
        #expect(log.lines.contains("built BookDetailService depth 0 transient"))
    }

    @Test func valueTypesAreReportedWithoutAnInstance() throws {
        let registry = ServiceRegistry()
        registry.register(Clock.self) { _ in FixedClock(now: 1) }
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        _ = try registry.resolve(Clock.self)
        #expect(log.lines == ["built Clock depth 0 transient"])
        #expect(log.instances.isEmpty)
    }

    /// An observer may resolve: what it resolves is not reported, so it does not call
    /// itself without end (which ran out of stack). In a process of its own, since the
    /// failure is a crash.
    @Test func anObserverThatResolvesHearsOnlyTheResolvesItObserves() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let registry = ServiceRegistry()
            registry.register(Clock.self) { _ in FixedClock(now: 1) }
            registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
            let log = EventLog()
            let token = registry.addResolutionObserver { event in
                log.record(event)
                _ = try? registry.resolve(Clock.self)
            }
            defer { registry.removeResolutionObserver(token) }
            _ = try registry.resolve(ReviewService.self)
            _ = try registry.resolve(Clock.self)
            print(log.lines.joined(separator: "|"), terminator: "")
        }
        #expect(
            String(decoding: result.standardOutputContent, as: UTF8.self)
                == "built ReviewService depth 0 transient|built Clock depth 0 transient")
    }

    /// As addResolutionObserver's doc and Docs/Design.md say: a task an observer starts
    /// inherits the task-local that keeps the observer's own resolves unreported, so what it
    /// resolves goes unheard; a detached task inherits no task-local, so what it resolves is
    /// reported.
    @Test func whatADetachedTaskAnObserverStartsResolvesIsReported() async throws {
        let registry = ServiceRegistry()
        registry.register(Clock.self) { _ in FixedClock(now: 1) }
        registry.register(Config.self) { _ in Config() }
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        let log = EventLog()
        let started = Guarded<[Task<Void, Never>]>([])
        let token = registry.addResolutionObserver { event in
            log.record(event)
            guard event.serviceType == "Clock" else { return }
            let inherited = Task { _ = try? registry.resolve(Config.self) }
            let detached = Task.detached { _ = try? registry.resolve(ReviewService.self) }
            started.withLock { $0 += [inherited, detached] }
        }
        defer { registry.removeResolutionObserver(token) }
        _ = try registry.resolve(Clock.self)
        for task in started.withLock({ $0 }) { await task.value }
        #expect(log.lines == ["built Clock depth 0 transient", "built ReviewService depth 0 transient"])
    }

    /// Validation builds every registration in isolation and drops what it built: none of
    /// that is reported, or an observer counting builds would take it for the app's. Nor
    /// is what a factory builds in an override scope it opens while validation runs it.
    @Test(arguments: [false, true])
    func validationsBuildsAreNotReported(factoryOpensAScope: Bool) throws {
        let registry = makeRegistry()
        registry.register(Clock.self) { _ in
            if factoryOpensAScope {
                try registry.withOverrides { _ in } operation: {
                    _ = try registry.resolve(ReviewService.self)
                }
            }
            return FixedClock(now: 0)
        }
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        try registry.validate()
        _ = registry.dependencyGraph()
        #expect(log.lines.isEmpty)
        _ = try registry.resolve(Clock.self)
        let expected = (factoryOpensAScope ? ["built ReviewService depth 0 singleton"] : []) + ["built Clock depth 0 transient"]
        #expect(log.lines == expected)
    }

    /// Each event names the registration that answered: a named service's events carry
    /// its name, an unnamed one's `nil`.
    @Test func eventsCarryTheRegistrationsName() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "offline") { _ in ReviewServiceImpl(source: "offline") }
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self, name: "offline"))
        }
        let names = Guarded<[String?]>([])
        let token = registry.addResolutionObserver { event in names.withLock { $0.append(event.name) } }
        defer { registry.removeResolutionObserver(token) }
        _ = try registry.resolve(BookDetailService.self)
        #expect(names.withLock { $0 } == ["offline", nil])
    }

    /// A token removes only its own observer: another registry's token, removed on a
    /// registry with one observer, leaves that observer on.
    @Test func anotherRegistrysTokenLeavesTheOnlyObserverOn() throws {
        let registry = makeRegistry()
        let other = ServiceRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }
        let otherToken = other.addResolutionObserver { _ in }
        defer { other.removeResolutionObserver(otherToken) }
        registry.removeResolutionObserver(otherToken)
        _ = try registry.resolve(BookDetailService.self)
        #expect(log.lines.contains("built BookDetailService depth 0 transient"))
    }
}

