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
/// A trace counts only in the task that published it, and only until the factory returns.
/// A task started with `Task { ... }` inherits the task-local but runs beside the build
/// (and may wait for it), and a later task may be allocated where the publisher was. The
/// core cannot tell which thread it runs on, so a `Task.immediate` the factory starts,
/// which runs on the factory's thread, does not count either: see Docs/Design.md.
final class BuildTrace: Sendable {
    let context: Int
    /// Everything being built on this path, traced resolves included: what a cycle is
    /// looked for in, and what a cycle error met through it shows.
    let path: [AnyRegistration]
    /// The part of ``path`` other errors show: the shared builds, and the frames above
    /// them, but not a traced `.transient` or `.graph` resolve. Whether a resolve is traced
    /// depends on how many others of it are in flight, on any thread; were its service
    /// shown, a failure below it would read one way in one run and another in the next.
    let shownPath: [AnyRegistration]
    /// The task that published this trace (see ``currentTask``).
    private let publisher: Int
    /// Cleared when the factory returns. The trace is usually freed then, as the task-local
    /// holds it weakly, but a task that inherited it may hold it at that moment, while it
    /// reads it, and a later task may be allocated where the publisher was, with its
    /// identity.
    private let isOpen = Atomic<Bool>(true)

    private init(context: Int, path: [AnyRegistration], shownPath: [AnyRegistration]) {
        self.context = context
        self.path = path
        self.shownPath = shownPath
        self.publisher = Self.currentTask
    }

    /// Whether `registration` is being built on this path.
    func contains(_ registration: AnyRegistration) -> Bool {
        path.contains { $0 === registration }
    }

    /// This trace with its whole path for finding cycles and none of it shown: what a
    /// validation pass continues when a factory runs it (`validate()` or
    /// `dependencyGraph()` in a singleton's factory). A registration being built further
    /// up is then a cycle there instead of being built again, and validating again,
    /// until the stack runs out; the failures the pass lists keep paths of their own.
    func hidingShownPath() -> BuildTrace {
        BuildTrace(context: context, path: path, shownPath: [])
    }

    /// Held weakly: a task the factory starts copies the task-local and may run as long as
    /// the instance being built lives (a poller the instance cancels in its `deinit`). A
    /// strong trace would keep the path's registrations, and so the cached instance, alive
    /// for as long as the task runs: forever.
    private struct Published: Sendable {
        weak var trace: BuildTrace?
    }

    @TaskLocal private static var published: Published?

    /// Runs `body` with `path` (in resolution `context`) as the path of the calling code,
    /// of which errors show `shownPath`.
    static func publishing(
        context: Int, path: [AnyRegistration], shownPath: [AnyRegistration], _ body: () -> Void
    ) {
        let trace = BuildTrace(context: context, path: path, shownPath: shownPath)
        // Also what keeps the trace alive while `body` runs: the task-local holds it weakly.
        defer { trace.isOpen.store(false, ordering: .releasing) }
        $published.withValue(Published(trace: trace), operation: body)
    }

    /// The trace the calling code runs inside: one its own task published and whose
    /// factory has not returned.
    static var current: BuildTrace? {
        guard let trace = published?.trace, trace.isOpen.load(ordering: .acquiring), trace.publisher == currentTask
        else { return nil }
        return trace
    }

    /// How many shared builds are running; top-level resolves read ``current`` (as
    /// ``enclosing``) only when this is non-zero. A traced `.transient` or `.graph`
    /// resolve reads ``current`` always, and does not count here.
    static let activeBuilds = Atomic<Int>(0)

    /// The build the calling code runs inside, if any.
    @inline(__always)
    static var enclosing: BuildTrace? {
        activeBuilds.load(ordering: .relaxed) > 0 ? current : nil
    }

    /// Identifies the task running the calling code; 0 outside any task. (A hash of the
    /// task's address: two tasks alive together share it only by a 64-bit collision, and a
    /// later task that reuses a finished one's address finds its traces closed.)
    private static var currentTask: Int {
        withUnsafeCurrentTask { $0?.hashValue ?? 0 }
    }
}
