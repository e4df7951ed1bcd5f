import Foundation
import ServiceRegistry
import Testing

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

@Suite("Resolution observers")
struct ObservationTests {
    private func makeRegistry() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReadingService.self, scope: .weak) { r in ReadingServiceImpl(detail: try r.resolve()) }
        return registry
    }

    @Test func reportsBuiltThenReusedWithDepthAndScope() throws {
        let registry = makeRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        defer { registry.removeResolutionObserver(token) }

        _ = try registry.resolve(BookDetailService.self)
        _ = try registry.resolve(BookDetailService.self)
        #expect(log.lines == [
            "built ReviewService depth 1 singleton",
            "built BookDetailService depth 0 transient",
            "reused ReviewService depth 1 singleton",
            "built BookDetailService depth 0 transient",
        ])
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

    @Test func removedObserversHearNothing() throws {
        let registry = makeRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { log.record($0) }
        registry.removeResolutionObserver(token)
        registry.removeResolutionObserver(token)
        _ = try registry.resolve(BookDetailService.self)
        #expect(log.lines.isEmpty)
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
}
