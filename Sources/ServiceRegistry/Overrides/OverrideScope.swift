/// The override scopes active where it was captured, to carry into work that does not
/// inherit task-locals.
///
/// Overrides are task-local: child tasks (`Task { }`, `async let`, task groups) inherit
/// them, but `Task.detached` and closures run later on another thread (a callback
/// queue, a thread you start) do not. Capture the current scope and run that work in it:
///
/// ```swift
/// let scope = OverrideScope.current
/// Task.detached {
///     scope.run {
///         let reviews = try? registry.resolve(ReviewService.self)   // sees the overrides
///     }
/// }
/// ```
///
/// A captured scope keeps the scopes it carries, with the shared instances cached in them
/// and their registries, alive for as long as it is kept. Carry it into a piece of work,
/// not into a service you keep: a singleton built in the scope that stores it would hold
/// the scope that holds it, and neither would be freed.
public struct OverrideScope: Sendable {
    let layer: OverrideLayer?

    init(layer: OverrideLayer?) {
        self.layer = layer
    }

    /// The override scopes the calling code runs in (possibly none).
    public static var current: OverrideScope {
        OverrideScope(layer: OverrideLayer.current)
    }

    /// Whether no override scope was active where this was captured: running such a
    /// scope runs its operation as if no override were active.
    public var isEmpty: Bool { layer == nil }

    /// Runs `operation` inside the captured override scopes, in place of the scopes active
    /// where `run` is called: those are set aside until it returns, so an empty scope runs
    /// `operation` as if no override were active.
    ///
    /// - Parameter operation: The code that should see the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func run<Result>(_ operation: () throws -> Result) rethrows -> Result {
        return try OverrideLayer.$current.withValue(layer, operation: operation)
    }

    /// Runs the async `operation` inside the captured override scopes, in place of the
    /// scopes active where `run` is called, as ``run(_:)`` does.
    ///
    /// - Parameters:
    ///   - isolation: The actor the operation runs on; the caller's, by default.
    ///   - operation: The code that should see the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        return try await OverrideLayer.$current.withValue(layer, operation: operation, isolation: isolation)
    }
}
