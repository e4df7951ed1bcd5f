#if INTERLEAVING_HOOKS
/// Points where a test holds a thread, to force an interleaving the scheduler may produce
/// by preempting the thread there, but too rarely for a stress test to meet.
///
/// Compiled only with `-Xswiftc -DINTERLEAVING_HOOKS`, as `.ci/run`'s thread-sanitizer
/// step builds: every other build has no trace of them, so they cost the resolve path
/// nothing. Set by `CountedResolveEndRaceTests`.
enum InterleavingHooks {
    /// Called by ``AnyRegistration/endTopLevelResolve()`` when it is about to end the last
    /// counted resolve of a registration its table has let go of.
    static let beforeLastEnd = Lock<(@Sendable () -> Void)?>(nil)
    /// Called by a top-level resolve of a `.transient` or `.graph` registration it holds a
    /// reference to (not the table's fast path), just before it begins counting.
    static let beforeRetainedBegin = Lock<(@Sendable () -> Void)?>(nil)

    /// Calls the closure set in `hook`, if any, outside its lock.
    static func run(_ hook: borrowing Lock<(@Sendable () -> Void)?>) {
        hook.withLock { $0 }?()
    }
}
#endif
