import Synchronization

/// What ``blackHole(_:)`` compares against: 1, an address no value can have. Only ever
/// read, so threads calling ``blackHole(_:)`` at once share its cache line without
/// contention (a store here would bounce the line between cores and cap the thread cases).
private let sink = Atomic<UInt>(1)

/// Consumes a value so the optimizer cannot prove the work that produced it is unused.
///
/// `@inline(never)` keeps the call opaque to the caller, and the body really uses the
/// value: it compares the address the value was passed at with an atomic the optimizer
/// cannot see through. So the optimizer can neither drop the argument nor stack-allocate
/// an object that flows into it. The cost is a call, a load and a compare, the same for
/// every subject: it cancels in the difference between two subjects, but not in their
/// ratio, which it pulls toward 1, most where `direct` is little more than this call
/// (reading the singleton's `static let`).
///
/// - Parameter value: The result of the measured operation.
@inline(never)
func blackHole<Value>(_ value: borrowing Value) {
    withUnsafePointer(to: value) { address in
        if UInt(bitPattern: address) == sink.load(ordering: .relaxed) {
            sink.store(0, ordering: .relaxed)  // never happens; the optimizer cannot know
        }
    }
}
