import Synchronization

/// A `Mutex` whose hand-offs the thread sanitizer can see.
///
/// On Linux, `Synchronization.Mutex` locks with futex calls the thread sanitizer does not
/// intercept, so it reports every access under the lock as a race. Each critical section
/// here also reads (acquiring) and writes (releasing) an atomic flag that the sanitizer
/// does see: the next thread to take the lock reads what the previous one released, which
/// is exactly the happens-before edge the mutex provides. On x86 both are plain loads and
/// stores; on ARM64 they are a load-acquire and a store-release (`LDAR`/`LDAPR`, `STLR`) to a
/// line the thread already owns, inside a section the mutex already orders, so they cost
/// next to nothing. Correctness still rests on the mutex.
///
/// `package`, so the package's other libraries (the router) lock the same way.
@usableFromInline
package struct Lock<State>: ~Copyable {
    @usableFromInline
    let mutex: Mutex<State>
    @usableFromInline
    let handoff = Atomic<Bool>(false)

    package init(_ initialState: sending State) {
        mutex = Mutex(initialState)
    }

    /// Runs `body` with exclusive access to the state. Inlinable for `Injected`, whose
    /// reads are inlined in the app's code.
    @inlinable @inline(__always)
    package borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { state throws(Failure) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(true, ordering: .releasing) }
            return try body(&state)
        }
    }
}

extension Lock: @unchecked Sendable {}
// @unchecked: exactly as `Mutex` — the state is only reachable inside `withLock`.
