import Synchronization

/// How many instances of a test's type are alive: its `init` increments, its `deinit`
/// decrements.
public final class LiveCount: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public var value: Int { count.load(ordering: .acquiring) }
    public func increment() { count.wrappingAdd(1, ordering: .relaxed) }
    public func decrement() { count.wrappingSubtract(1, ordering: .releasing) }
}
