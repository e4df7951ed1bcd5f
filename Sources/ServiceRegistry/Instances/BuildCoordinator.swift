import Synchronization

/// Decides who builds a shared instance, and lets everyone else wait without deadlocking.
///
/// A `.singleton` or `.weak` instance is built outside every registry lock, by exactly one
/// resolution at a time. The builder holds the cell's ``BuildLock`` for the whole build;
/// other resolutions that want the same instance block on that lock and then read the
/// result. Before anyone blocks, the coordinator follows the chain "who waits for whom":
/// if waiting would close a loop back to the waiter (two threads entering a dependency
/// cycle from opposite ends), the waiter gets `.circularDependency` instead of a hang.
///
/// A resolution is identified by a context number shared by all the nested resolves of
/// one top-level `resolve` call, and by the resolves a shared build's factory starts
/// through the registry (see ``Resolution/context``).
enum BuildCoordinator {
    struct Build {
        let context: Int
        let lock: BuildLock
        /// What is being built; its name is formatted only for a cycle's message.
        let registration: AnyRegistration
    }

    struct State {
        /// Cells being built, by cell identity.
        var building: [ObjectIdentifier: Build] = [:]
        /// The cell each blocked context waits for.
        var waiting: [Int: ObjectIdentifier] = [:]
    }

    enum Claim {
        /// The caller builds; it must call ``finish(_:)`` before releasing its lock.
        case build
        /// Someone else builds; block on this lock, then call ``stopWaiting(_:)`` and look again.
        case wait(BuildLock)
        /// Waiting would never end: the build the caller needs is waiting (perhaps
        /// through others) for a build the caller holds. Gives the registration in the loop.
        case cycle(through: AnyRegistration)
    }

    private static let state = Lock(State())
    private static let nextContext = Atomic<Int>(1)

    /// A number no other live resolution uses.
    static func makeContext() -> Int {
        nextContext.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Claims `cell` for building by `context` (holding `lock`), or says whom to wait for.
    static func claim(
        _ cell: ObjectIdentifier, context: Int, lock: BuildLock, registration: AnyRegistration
    ) -> Claim {
        state.withLock { state in
            guard let build = state.building[cell] else {
                state.building[cell] = Build(context: context, lock: lock, registration: registration)
                return .build
            }
            if build.context == context {
                return .cycle(through: build.registration)
            }
            // Follow the waits from the builder; reaching ourselves means a deadlock.
            var owner = build.context
            var steps = 0
            while let waitedCell = state.waiting[owner], let next = state.building[waitedCell],
                steps <= state.waiting.count
            {
                if next.context == context {
                    return .cycle(through: next.registration)
                }
                owner = next.context
                steps += 1
            }
            state.waiting[context] = cell
            return .wait(build.lock)
        }
    }

    /// Ends a build claimed with ``claim(_:context:lock:registration:)``.
    ///
    /// Releases the build's registration and lock under the coordinator's lock, which is
    /// safe only because the builder calling this still holds both.
    static func finish(_ cell: ObjectIdentifier) {
        state.withLock { _ = $0.building.removeValue(forKey: cell) }
    }

    /// Ends a wait that ``claim(_:context:lock:registration:)`` recorded.
    static func stopWaiting(_ context: Int) {
        state.withLock { _ = $0.waiting.removeValue(forKey: context) }
    }

    /// Whether some resolution is blocked waiting for the build of `cell` to finish. Not
    /// used by resolves: it lets a test know that a resolve has reached the wait, where a
    /// sleep could only guess.
    static func isAwaited(_ cell: ObjectIdentifier) -> Bool {
        state.withLock { $0.waiting.values.contains(cell) }
    }
}

/// Held by the resolution that builds a shared instance, for the whole build.
final class BuildLock: Sendable {
    let mutex = Lock(())

    /// Blocks until the builder holding this lock has finished.
    func waitForBuilder() {
        mutex.withLock { _ in }
    }
}
