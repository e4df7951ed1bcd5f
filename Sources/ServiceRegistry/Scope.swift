/// How long an instance built by a factory lives, and who shares it.
///
/// Pass a scope when you register a factory; the default is ``transient``.
///
/// ```swift
/// registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
/// ```
///
/// | scope | meaning |
/// |---|---|
/// | ``transient`` | a new instance on every resolve |
/// | ``singleton`` | built once, on first resolve, then shared |
/// | ``weak`` | shared while someone holds it; rebuilt after the last holder lets go |
/// | ``graph`` | shared within one top-level `resolve` call and everything it builds |
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    enum Kind: UInt8, Sendable {
        case transient, singleton, weak, graph
    }

    let kind: Kind

    /// A new instance on every resolve. The registry keeps no reference to it.
    public static let transient = Scope(kind: .transient)

    /// Built once, on the first resolve, then shared by every later resolve.
    ///
    /// The instance is built exactly once even when many threads resolve it at the same
    /// moment: one thread runs the factory, the others wait for its result. A factory that
    /// throws caches nothing, so the next resolve tries again. A singleton that takes an
    /// argument is built from the first resolve's argument.
    ///
    /// A singleton is handed to every thread that resolves it, so its type should be
    /// `Sendable`.
    public static let singleton = Scope(kind: .singleton)

    /// Shared while someone holds it; rebuilt after the last holder lets go.
    ///
    /// The registry holds the instance weakly. Only class instances can be held weakly:
    /// a value-type service registered as `.weak` is built afresh on every resolve. For an
    /// optional service type, the instance it wraps is what is held.
    public static let weak = Scope(kind: .weak)

    /// Shared within one top-level `resolve` call and everything that call builds.
    ///
    /// Two services in the same object graph that both depend on a `.graph` service get
    /// the same instance; the next top-level `resolve` builds a fresh one. A resolve on a
    /// child registry is the exception: a parent's `.singleton` or `.weak` service built in
    /// it resolves its dependencies in the parent, so it gets the parent's `.graph`
    /// instance, not the one the rest of the graph shares (which may be built from the
    /// child's registrations), even where the child registers nothing itself.
    public static let graph = Scope(kind: .graph)

    /// Whether one instance is kept and handed to several resolves (`.singleton`,
    /// `.weak`), as opposed to built for each resolve (`.transient`) or each resolution
    /// (`.graph`).
    var isShared: Bool { kind == .singleton || kind == .weak }

    /// The scope's name as written in code, such as `singleton`.
    public var description: String {
        switch kind {
        case .transient: "transient"
        case .singleton: "singleton"
        case .weak: "weak"
        case .graph: "graph"
        }
    }
}
