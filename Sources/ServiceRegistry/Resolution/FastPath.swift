import Synchronization

/// Whether a top-level resolve may take the fast path: copy a cached singleton straight out
/// of the table and return.
///
/// Two things close it: a live override scope (the scope may replace the singleton, or
/// cache its own) and a resolution observer (the reuse must be reported). Both count
/// themselves here as well as in their own counters, so the fast path reads one atomic.
enum FastPath {
    private static let blockers = Atomic<Int>(0)

    @inline(__always)
    static var isOpen: Bool { blockers.load(ordering: .relaxed) == 0 }

    static func block() {
        blockers.wrappingAdd(1, ordering: .relaxed)
    }

    static func unblock(_ count: Int = 1) {
        blockers.wrappingSubtract(count, ordering: .relaxed)
    }
}
