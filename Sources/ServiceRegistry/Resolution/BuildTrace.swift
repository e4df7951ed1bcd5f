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
/// A trace counts only for code nested in the factory's call: the factory's own task, and
/// a task it starts with `Task.immediate`, which runs right away on the factory's thread.
/// A task started with `Task { ... }` inherits the task-local too, but runs beside the
/// build (and may wait for it), and once the factory returns the trace counts nowhere.
final class BuildTrace: Sendable {
    let context: Int
    let path: [AnyRegistration]
    /// The task that published this trace (see ``currentTask``).
    private let publisher: Int
    /// Where the publishing call's frame is on its thread's stack.
    private let stackMark: UInt
    /// Cleared when the factory returns: a task that inherited the trace may outlive it,
    /// and a later task may be allocated where the publisher was, with its identity.
    private let isOpen = Atomic<Bool>(true)

    private init(context: Int, path: [AnyRegistration], stackMark: UInt) {
        self.context = context
        self.path = path
        self.publisher = Self.currentTask
        self.stackMark = stackMark
    }

    @TaskLocal private static var published: BuildTrace?

    /// Runs `body` with `path` (in resolution `context`) as the path of the calling code.
    @inline(never)
    static func publishing(context: Int, path: [AnyRegistration], _ body: () -> Void) {
        var marker: UInt8 = 0
        let stackMark = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let trace = BuildTrace(context: context, path: path, stackMark: stackMark)
        defer { trace.isOpen.store(false, ordering: .releasing) }
        $published.withValue(trace, operation: body)
    }

    /// The trace the calling code runs inside, if it runs nested in the publishing call.
    static var current: BuildTrace? {
        guard let trace = published, trace.isOpen.load(ordering: .acquiring) else { return nil }
        return trace.publisher == currentTask || trace.isNestedOnThisStack ? trace : nil
    }

    /// How many shared builds are running; top-level resolves read ``current`` only when
    /// this is non-zero.
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

    /// How far below the publishing frame code in another task still counts as nested in
    /// it (see ``isNestedOnThisStack``).
    private static let nestedReach: UInt = 128 << 10

    /// Whether the calling code, which runs in another task than the publisher, is likely
    /// nested in the publishing call on the same thread: a `Task.immediate` the factory
    /// started, still running synchronously. Stacks grow down, so such code sits a little
    /// below the publishing frame. A task on another thread sits on another stack; for it
    /// to land within ``nestedReach`` below the frame, its stack would have to be mapped
    /// right under a publisher with less than that left of its own stack. Erring this way
    /// reports a cycle; erring the other would wait on a lock the thread holds.
    private var isNestedOnThisStack: Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return here < stackMark && stackMark - here < Self.nestedReach
    }
}
