import Synchronization

/// The path of a shared instance being built (or of a traced `.transient` or `.graph`
/// resolve), visible to resolves its factory starts through the registry directly
/// (instead of through its ``Resolver``).
///
/// Published as a task-local only while such a factory runs, which happens once per
/// instance, so its cost stays off the resolve path. With it, a factory that resolves
/// itself through the registry gets `.circularDependency`, never a deadlock on its own
/// build lock or a stack overflow.
///
/// A task started inside the factory (`Task { ... }`) inherits the task-local but is not
/// part of the build: it runs beside it, and may well wait for it. So a trace counts only
/// in the task that published it (or, published outside any task, only outside one).
final class BuildTrace: Sendable {
    let context: Int
    let path: [AnyRegistration]
    /// The task that published this trace (see ``currentTask``).
    private let publisher: Int

    init(context: Int, path: [AnyRegistration]) {
        self.context = context
        self.path = path
        self.publisher = Self.currentTask
    }

    @TaskLocal private static var published: BuildTrace?

    /// Runs `body` with `trace` as the path of the calling code.
    static func publishing(_ trace: BuildTrace, _ body: () -> Void) {
        $published.withValue(trace, operation: body)
    }

    /// The trace the calling code runs inside, if the calling task published it.
    static var current: BuildTrace? {
        guard let trace = published, trace.publisher == currentTask else { return nil }
        return trace
    }

    /// How many shared builds are running; top-level resolves read ``current`` only when
    /// this is non-zero.
    static let activeBuilds = Atomic<Int>(0)

    /// The build the calling code runs inside, if any.
    @inline(__always)
    static var enclosing: BuildTrace? {
        activeBuilds.load(ordering: .relaxed) > 0 ? current : nil
    }

    /// Identifies the task running the calling code; 0 outside any task. (A hash, so two
    /// tasks alive together could share it only by a 64-bit collision.)
    private static var currentTask: Int {
        withUnsafeCurrentTask { $0?.hashValue ?? 0 }
    }
}
