#if INTERLEAVING_HOOKS
import Foundation
@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

/// A resolve that found no singleton cached, and then claims its build just after another
/// thread finished building it, finds the instance once it holds the claim and reports it
/// reused: the observers hear of one build. Reported as built, the observers would count two
/// builds of an instance made once. Without the hook, only the many-thread test in
/// `ObservationTests` meets this moment, and not in every run.
///
/// Compiled only with `-Xswiftc -DINTERLEAVING_HOOKS` (`.ci/run`'s thread-sanitizer step).
/// The hook acts only on `ClaimProbe`, a type no other test resolves: every resolve in the
/// process passes the hook point.
@Suite struct SharedBuildClaimRaceTests {
    @Test func aResolveClaimingABuildAnotherThreadJustFinishedReportsItReused() {
        let registry = ServiceRegistry()
        registry.register(ClaimProbe.self, scope: .singleton) { _ in ClaimProbe() }
        let outcomes = Guarded<[String]>([])
        let token = registry.addResolutionObserver { event in
            guard event.serviceType == "ClaimProbe" else { return }
            outcomes.withLock { $0.append("\(event.outcome)") }
        }
        defer { registry.removeResolutionObserver(token) }

        let parked = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let parkNext = Atomic<Bool>(true)
        InterleavingHooks.beforeSharedClaim.withLock {
            $0 = { service in
                guard service == ObjectIdentifier(ClaimProbe.self),
                    parkNext.exchange(false, ordering: .relaxed)
                else { return }
                parked.signal()
                _ = go.wait(timeout: .now() + 10)
            }
        }
        defer { InterleavingHooks.beforeSharedClaim.withLock { $0 = nil } }

        let late = Guarded<ClaimProbe?>(nil)
        let lateDone = DispatchSemaphore(value: 0)
        // Finds nothing cached, then parks before it claims the build.
        Thread {
            late.withLock { $0 = try? registry.resolve(ClaimProbe.self) }
            lateDone.signal()
        }.start()
        let wasParked = parked.wait(timeout: .now() + 10) == .success
        // Passes the hook without parking, claims, and builds.
        let first = try? registry.resolve(ClaimProbe.self)
        go.signal()
        let lateFinished = lateDone.wait(timeout: .now() + 10) == .success

        #expect(wasParked, "the late resolve never reached the claim")
        #expect(lateFinished)
        #expect(first != nil && late.withLock { $0 } === first, "one instance, built once")
        #expect(outcomes.withLock { $0 } == ["built", "reused"])
    }
}

/// The service of ``SharedBuildClaimRaceTests``, resolved by no other test.
private final class ClaimProbe: Sendable {}
#endif
