import Synchronization

/// The path of a shared instance being built, visible to resolves its factory starts
/// through the registry directly (instead of through its ``Resolver``).
///
/// Set as a task-local only while a `.singleton` or `.weak` factory runs, which happens
/// once per instance, so its cost stays off the resolve path. With it, a factory that
/// resolves itself through the registry gets `.circularDependency`, never a deadlock on
/// its own build lock.
final class BuildTrace: Sendable {
    let context: Int
    let path: [AnyRegistration]

    init(context: Int, path: [AnyRegistration]) {
        self.context = context
        self.path = path
    }

    @TaskLocal static var current: BuildTrace?

    /// How many shared builds are running; top-level resolves read ``current`` only when
    /// this is non-zero.
    static let activeBuilds = Atomic<Int>(0)

    /// The build the calling code runs inside, if any.
    @inline(__always)
    static var enclosing: BuildTrace? {
        activeBuilds.load(ordering: .relaxed) > 0 ? current : nil
    }
}
