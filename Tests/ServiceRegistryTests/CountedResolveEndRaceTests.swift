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
/// the hook points.
///
/// In a process of its own: the fast path is closed while any override scope or resolution
/// observer exists anywhere in the process, and the tests running alongside open them all
/// the time. The parent's resolve below then takes the slow path, which retains the
/// registration, and the test passed without the interleaving it is for: in a run of the
/// whole suite under the thread sanitizer, that resolve passed `beforeRetainedBegin` as the
/// slow path's does. So the body also reports whether it did, and the test fails if so.
@Suite struct CountedResolveEndRaceTests {
    @Test func aFastPathResolveEndingWhileASlowPathResolveClaimsTheTableReference() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let fastPathWasOpen = FastPath.isOpen
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
            let retainedBegins = Atomic<Int>(0)
            let liveWhileFastEnds = Atomic<Int>(-1)
            InterleavingHooks.beforeRetainedBegin.withLock {
                $0 = { service in
                    guard service == ObjectIdentifier(RaceProbe.self) else { return }
                    retainedBegins.add(1, ordering: .relaxed)
                    guard parkSlow.exchange(false, ordering: .relaxed) else { return }
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
            // The slow path: the child's table misses, the lookup through its parent retains
            // the registration, and the resolve parks just before it counts itself.
            let slow = Thread {
                _ = try? child.resolve(RaceProbe.self)
                slowDone.signal()
            }
            slow.start()
            let parked = slowParked.wait(timeout: .now() + 10) == .success
            // The fast path: counted under the stripe lock, not retained; its factory replaces
            // the registration, so the table leaves its reference to the last counted resolve.
            replaceNow.store(true, ordering: .relaxed)
            let source = (try? parent.resolve(RaceProbe.self))?.source ?? "nothing"
            InterleavingHooks.beforeRetainedBegin.withLock { $0 = nil }
            InterleavingHooks.beforeLastEnd.withLock { $0 = nil }
            let report = [
                fastPathWasOpen ? "open" : "closed",
                parked ? "parked" : "never parked",
                // Only the slow thread's resolve passes `beforeRetainedBegin` when the
                // parent's takes the fast path.
                retainedBegins.load(ordering: .relaxed) == 1 ? "fast path" : "slow path",
                source,
                "live while ending: \(liveWhileFastEnds.load(ordering: .relaxed))",
                "live after: \(live.value)",
            ]
            print(report.joined(separator: "|"), terminator: "")
        }
        #expect(
            String(decoding: result.standardOutputContent, as: UTF8.self)
                == "open|parked|fast path|old|live while ending: 1|live after: 0",
            "live while ending: 0 means the registration was freed while a resolve used it")
    }
}

/// The service of ``CountedResolveEndRaceTests``, resolved by no other test.
private final class RaceProbe: Sendable {
    let source: String
    init(source: String) { self.source = source }
}
#endif
