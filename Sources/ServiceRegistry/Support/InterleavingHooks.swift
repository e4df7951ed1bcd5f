#if INTERLEAVING_HOOKS
/// Points where a test holds a thread, to force an interleaving the scheduler may produce
/// by preempting the thread there, but too rarely for a stress test to meet.
///
/// Compiled only with `-Xswiftc -DINTERLEAVING_HOOKS`, as `.ci/run`'s thread-sanitizer
/// step builds: every other build has no trace of them, so they cost the resolve path
/// nothing. Set by `CountedResolveEndRaceTests` and `SharedBuildClaimRaceTests`.
///
/// Every resolve in the process passes these points, including those of tests running in
/// parallel, so a hook is given the service type of the registration at hand and should act
/// only on a type its own test owns.
enum InterleavingHooks {
    /// A hook: called with the `ObjectIdentifier` of the registration's service type.
    typealias Hook = @Sendable (_ service: ObjectIdentifier) -> Void

    /// Called by ``AnyRegistration/endTopLevelResolve()`` when it is about to end the last
    /// counted resolve of a registration its table has let go of.
    static let beforeLastEnd = Lock<Hook?>(nil)
    /// Called by a top-level resolve of a `.transient` or `.graph` registration it holds a
    /// reference to (not the table's fast path), just before it begins counting.
    static let beforeRetainedBegin = Lock<Hook?>(nil)
    /// Called by a resolve of a `.singleton` or `.weak` registration that found no instance
    /// cached, just before it claims the build.
    static let beforeSharedClaim = Lock<Hook?>(nil)

    /// Calls the closure set in `hook`, if any, outside its lock.
    static func run(_ hook: borrowing Lock<Hook?>, for registration: AnyRegistration) {
        hook.withLock { $0 }?(registration.service)
    }
}
#endif
