import Synchronization

/// Spins until `count` parties have arrived, so threads enter a critical moment together.
/// Gives up after ten seconds so a broken test fails instead of hanging, and says so in
/// ``wasMissed``: a test whose point is that moment must check it, or it passes without
/// the moment ever happening when one thread comes late.
public final class Rendezvous: Sendable {
    private let arrived = Atomic<Int>(0)
    private let gaveUp = Atomic<Bool>(false)
    private let parties: Int

    public init(parties: Int) { self.parties = parties }

    /// Whether some party stopped waiting before all had arrived.
    public var wasMissed: Bool { gaveUp.load(ordering: .relaxed) }

    public func arriveAndWait() {
        arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
        let deadline = ContinuousClock.now + .seconds(10)
        while arrived.load(ordering: .acquiring) < parties {
            if ContinuousClock.now >= deadline {
                gaveUp.store(true, ordering: .relaxed)
                return
            }
        }
    }
}
