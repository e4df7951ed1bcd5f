import Dispatch
import ServiceRegistry
import Testing
import ThreadTestSupport

// Fixtures are private to this file so they never clash with other test files' types.

private protocol Narrator: Sendable {
    var voice: String { get }
}

private protocol AudioBook: Sendable {
    var narrator: any Narrator { get }
}

private struct Voice: Narrator {
    let voice: String
}

private final class AudioBookImpl: AudioBook {
    let narrator: any Narrator
    init(narrator: any Narrator) { self.narrator = narrator }
}

/// A registry whose real narrator says "real".
private func makeRegistry(narratorScope: Scope = .transient) -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(Narrator.self, scope: narratorScope) { _ in Voice(voice: "real") }
    registry.register(AudioBook.self, scope: .singleton) { r in AudioBookImpl(narrator: try r.resolve(Narrator.self)) }
    return registry
}

/// Opens once, for one waiter that may arrive before or after.
private struct Gate: Sendable {
    private let opened: AsyncStream<Never>
    private let opener: AsyncStream<Never>.Continuation

    init() {
        (opened, opener) = AsyncStream.makeStream()
    }

    func wait() async {
        for await _ in opened {}
    }

    func open() {
        opener.finish()
    }
}

@Suite("Detached work and OverrideScope")
struct DetachedTaskTests {
    @Test func detachedTaskDoesNotSeeTheOverrides() async throws {
        let registry = makeRegistry()
        try await registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: {
            let inDetached = try await Task.detached { try registry.resolve(Narrator.self).voice }.value
            let inChild = try await Task { try registry.resolve(Narrator.self).voice }.value
            #expect(inDetached == "real")
            #expect(inChild == "mock")
        }
    }

    @Test func closureCalledAfterTheScopeDoesNotSeeTheOverrides() throws {
        let registry = makeRegistry()
        let later = try registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: { () throws -> @Sendable () throws -> String in
            let now = try registry.resolve(Narrator.self).voice
            #expect(now == "mock")
            // An escaping closure reads the task-local when it runs, not when it is made.
            return { try registry.resolve(Narrator.self).voice }
        }
        #expect(try later() == "real")
    }

    /// As Testing.md's table says: a dispatch queue does not inherit the scope, so work sent
    /// with `async` does not see it, but `sync` runs its closure on the calling thread here,
    /// inside the scope, so that closure does.
    @Test func queueAsyncWorkDoesNotSeeTheOverridesButAQueueSyncClosureDoes() throws {
        let registry = makeRegistry()
        let queue = DispatchQueue(label: "DetachedTaskTests")
        let sentVoice = Guarded<String?>(nil)
        let sent = DispatchSemaphore(value: 0)
        let syncVoice = try registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: {
            queue.async {
                sentVoice.withLock { $0 = try? registry.resolve(Narrator.self).voice }
                sent.signal()
            }
            #expect(sent.wait(timeout: .now() + 10) == .success)
            return try queue.sync { try registry.resolve(Narrator.self).voice }
        }
        #expect(sentVoice.withLock { $0 } == "real")
        #expect(syncVoice == "mock")
    }

    @Test func capturedScopeCarriesTheOverridesIntoADetachedTask() async throws {
        let registry = makeRegistry()
        try await registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: {
            let scope = OverrideScope.current
            #expect(!scope.isEmpty)
            let voice = try await Task.detached {
                try scope.run { try registry.resolve(AudioBook.self).narrator.voice }
            }.value
            #expect(voice == "mock")
        }
    }

    @Test func capturedScopeCarriesTheOverridesIntoAsyncDetachedWork() async throws {
        let registry = makeRegistry()
        try await registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: {
            let scope = OverrideScope.current
            let voices = try await Task.detached {
                try await scope.run {
                    await Task.yield()
                    let direct = try registry.resolve(Narrator.self).voice
                    // Tasks started inside `run` inherit the carried scope like any other.
                    let child = try await Task { try registry.resolve(Narrator.self).voice }.value
                    return [direct, child]
                }
            }.value
            #expect(voices == ["mock", "mock"])
        }
    }

    // The tests below use a scope after its `withOverrides` call has returned. Each runs in
    // a process of its own: while any other test has a scope open, resolves read the
    // task-local scope anyway, which would hide a scope no longer counted as active.

    @Test func capturedScopeStillAppliesAfterTheScopeReturns() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let registry = makeRegistry()
            let scope = registry.withOverrides {
                $0.register(Narrator.self, scope: .singleton) { _ in Voice(voice: "mock") }
            } operation: {
                OverrideScope.current
            }
            let before = try registry.resolve(Narrator.self).voice
            let carried = try await Task.detached {
                try scope.run { try registry.resolve(AudioBook.self).narrator.voice }
            }.value
            // What the carried scope built stayed in it: the registry's singleton is the real one.
            let after = try registry.resolve(AudioBook.self).narrator.voice
            print([before, carried, after].joined(separator: "|"), terminator: "")
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "real|mock|real")
    }

    @Test func capturedScopeCarriesEveryNestedLayer() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let registry = makeRegistry()
            registry.register(Narrator.self, name: "guest") { _ in Voice(voice: "real guest") }
            let scope = registry.withOverrides {
                $0.register(Narrator.self) { _ in Voice(voice: "outer") }
                $0.register(Narrator.self, name: "guest") { _ in Voice(voice: "outer guest") }
            } operation: {
                registry.withOverrides {
                    $0.register(Narrator.self) { _ in Voice(voice: "inner") }
                } operation: {
                    OverrideScope.current
                }
            }
            let voices = try scope.run {
                [try registry.resolve(Narrator.self).voice, try registry.resolve(Narrator.self, name: "guest").voice]
            }
            print(voices.joined(separator: "|"), terminator: "")
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "inner|outer guest")
    }

    @Test func scopeCapturedOutsideAnyOverrideRunsWithoutOverrides() throws {
        let registry = makeRegistry()
        let none = OverrideScope.current
        #expect(none.isEmpty)
        try registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: { () throws in
            // Running an empty scope means "as if no override were active".
            let voice = try none.run { try registry.resolve(Narrator.self).voice }
            #expect(voice == "real")
            #expect(try registry.resolve(Narrator.self).voice == "mock")
        }
    }

    /// As `run`'s documentation says: the carried scope replaces the scopes active where
    /// `run` is called; it is not stacked on them.
    @Test func runSetsAsideTheScopesActiveWhereItIsCalled() throws {
        let registry = makeRegistry()
        registry.register(Narrator.self, name: "guest") { _ in Voice(voice: "real guest") }
        let carried = registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "carried") }
        } operation: {
            OverrideScope.current
        }
        try registry.withOverrides {
            $0.register(Narrator.self, name: "guest") { _ in Voice(voice: "active guest") }
        } operation: { () throws in
            let voices = try carried.run {
                [try registry.resolve(Narrator.self).voice, try registry.resolve(Narrator.self, name: "guest").voice]
            }
            #expect(voices == ["carried", "real guest"])
            #expect(try registry.resolve(Narrator.self, name: "guest").voice == "active guest")
        }
    }

    @Test func runReturnsItsResultAndRethrows() async throws {
        struct Stop: Error {}
        let scope = OverrideScope.current
        #expect(scope.run { 7 } == 7)
        #expect(throws: Stop.self) { try scope.run { throw Stop() } }
        await #expect(throws: Stop.self) {
            try await scope.run {
                await Task.yield()
                throw Stop()
            }
        }
    }

    /// `Task { }` is a task the scope starts, so it inherits the scope's task-locals. When it
    /// runs on after the scope has returned, it should still see the overrides, also when
    /// no other scope is active anywhere in the process (hence a process of its own).
    @Test func unstructuredTaskStartedInTheScopeSeesItsOverridesAfterTheScopeReturns() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let registry = makeRegistry()
            let gate = Gate()
            let task = registry.withOverrides {
                $0.register(Narrator.self) { _ in Voice(voice: "mock") }
            } operation: {
                Task {
                    await gate.wait()
                    return try registry.resolve(Narrator.self).voice
                }
            }
            gate.open()
            print(try await task.value, terminator: "")
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "mock")
    }

    /// The async `run` sets aside the scopes active where it is called, as the synchronous
    /// one does: an empty scope runs its operation, across a suspension too, as if no
    /// override were active.
    @Test func anEmptyScopesAsyncRunSeesNoOverride() async throws {
        let registry = makeRegistry()
        let none = OverrideScope.current
        #expect(none.isEmpty)
        try await registry.withOverrides {
            $0.register(Narrator.self) { _ in Voice(voice: "mock") }
        } operation: {
            let voice = try await none.run {
                await Task.yield()
                return try registry.resolve(Narrator.self).voice
            }
            #expect(voice == "real")
            #expect(try registry.resolve(Narrator.self).voice == "mock")
        }
    }
}
