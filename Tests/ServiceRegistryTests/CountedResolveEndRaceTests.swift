#if INTERLEAVING_HOOKS
import Foundation
@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

/// A top-level resolve that the table's fast path counted holds no reference to its
/// registration: once the table has let go of it, the count alone keeps it alive. Its end
/// must take the count to zero and claim the table's reference in one atomic step. Ended
/// with a subtract and then a claim (as 3d0d0f3 did), a resolve that holds a reference of
/// its own (here a child registry's, which retained it through its parent before it was
/// replaced) could begin and end between the two, claim and release the table's
/// reference, and drop its own: the registration was freed while the fast-path resolve
/// was about to compare-exchange its word (AddressSanitizer: heap-use-after-free; here,
/// the factory's capture gone while the resolve still ran).
///
/// Compiled only with `-Xswiftc -DINTERLEAVING_HOOKS` (`.ci/run`'s thread-sanitizer step):
/// the hooks hold threads at points where the scheduler may preempt them anyway. They act
/// only on `RaceProbe`, a type no other test resolves: every resolve in the process passes
/// the hook points, and tests of other suites run alongside this one.
@Suite(.serialized) struct CountedResolveEndRaceTests {
    @Test func aFastPathResolveEndingWhileASlowPathResolveClaimsTheTableReference() {
        let parent = ServiceRegistry()
        let child = parent.makeChild()
        let live = LiveCount()
        let replaceNow = Atomic<Bool>(false)
        do {
            let tracked = Tracked(live)
            parent.register(RaceProbe.self) { _ in
                if replaceNow.exchange(false, ordering: .relaxed) {
                    // Inside the counted fast-path resolve: the table lets go of this one.
                    parent.register(RaceProbe.self) { _ in RaceProbe(source: "new") }
                }
                return withExtendedLifetime(tracked) { RaceProbe(source: "old") }
            }
        }
        let slowParked = DispatchSemaphore(value: 0)
        let slowGo = DispatchSemaphore(value: 0)
        let slowDone = DispatchSemaphore(value: 0)
        let parkSlow = Atomic<Bool>(true)
        let holdFast = Atomic<Bool>(true)
        let liveWhileFastEnds = Atomic<Int>(-1)
        InterleavingHooks.beforeRetainedBegin.withLock {
            $0 = { service in
                guard service == ObjectIdentifier(RaceProbe.self),
                    parkSlow.exchange(false, ordering: .relaxed)
                else { return }
                slowParked.signal()
                slowGo.wait()
            }
        }
        InterleavingHooks.beforeLastEnd.withLock {
            $0 = { service in
                guard service == ObjectIdentifier(RaceProbe.self),
                    holdFast.exchange(false, ordering: .relaxed)
                else { return }
                slowGo.signal()
                _ = slowDone.wait(timeout: .now() + 10)
                // The fast-path resolve has not returned: its registration must still exist.
                liveWhileFastEnds.store(live.value, ordering: .relaxed)
            }
        }
        defer {
            InterleavingHooks.beforeRetainedBegin.withLock { $0 = nil }
            InterleavingHooks.beforeLastEnd.withLock { $0 = nil }
        }
        // The slow path: the child's table misses, the lookup through its parent retains
        // the registration, and the resolve parks just before it counts itself.
        let slow = Thread {
            _ = try? child.resolve(RaceProbe.self)
            slowDone.signal()
        }
        slow.start()
        #expect(slowParked.wait(timeout: .now() + 10) == .success)
        // The fast path: counted under the stripe lock, not retained; its factory replaces
        // the registration, so the table leaves its reference to the last counted resolve.
        replaceNow.store(true, ordering: .relaxed)
        #expect((try? parent.resolve(RaceProbe.self))?.source == "old")
        #expect(liveWhileFastEnds.load(ordering: .relaxed) == 1, "the registration was freed while a resolve used it")
        #expect(live.value == 0)
    }
}

/// The service of ``CountedResolveEndRaceTests``, resolved by no other test.
private final class RaceProbe: Sendable {
    let source: String
    init(source: String) { self.source = source }
}
#endif
