extension ServiceRegistry {
    /// Runs `operation` with some registrations replaced, for this task only.
    ///
    /// Every resolve on this registry inside `operation` — and in tasks it starts (not
    /// detached ones; see ``OverrideScope``) — sees the overrides, also when the
    /// overridden service is a dependency of something else being built. Other tasks,
    /// such as tests running in parallel on the same registry, never see them. (Called
    /// outside any task, as in a synchronous XCTest test, the overrides hold for the thread
    /// until `operation` returns, so work that the thread runs meanwhile sees them, such as
    /// main-queue work that XCTest's `wait(for:timeout:)` runs.) Resolves on this
    /// registry's children see them too, where the child does not register the service
    /// itself, nor does an override of the child; a parent's `.singleton` or `.weak`
    /// service resolved here is built from the parent's registrations, as always, so
    /// overrides of a child do not reach its dependencies.
    ///
    /// Shared instances built inside the scope are cached in the scope: a `.singleton`
    /// resolved here is built afresh (from the overrides) and dropped when the scope ends;
    /// after it, the real one is built from the real dependencies. One built from a
    /// registration replaced meanwhile (or of a child registry that goes) is dropped with
    /// it, not kept until the scope ends: at once in the scopes the replacing code runs in,
    /// in any other at its next resolve of a shared service as the innermost scope (an
    /// outer scope once the scopes inside it have ended). Scopes nest: of two overrides of
    /// the same registry, the inner one wins, and the outer one is back after it.
    ///
    /// ```swift
    /// try registry.withOverrides {
    ///     $0.register(ReviewService.self) { _ in MockReviews() }
    /// } operation: {
    ///     let detail = try registry.resolve(BookDetailService.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configure: Registers the overrides; runs once, before `operation`.
    ///   - operation: The code that sees the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `configure` or `operation` throws.
    public func withOverrides<Result>(
        _ configure: (OverrideRegistrar) throws -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        let layer = OverrideLayer(
            registry: self, registrations: try OverrideRegistrar.registrations(from: configure),
            parent: OverrideLayer.current)
        return try OverrideScope(layer: layer).run(operation)
    }

    /// Runs the async `operation` with some registrations replaced, for this task and the
    /// tasks it starts.
    ///
    /// The async form of ``withOverrides(_:operation:)``, with the same rules.
    ///
    /// ```swift
    /// try await registry.withOverrides {
    ///     $0.register(ReviewService.self) { _ in MockReviews() }
    /// } operation: {
    ///     try await screen.load()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configure: Registers the overrides; runs once, before `operation`.
    ///   - isolation: The actor the operation runs on; the caller's, by default.
    ///   - operation: The code that sees the overrides.
    /// - Returns: What `operation` returns.
    /// - Throws: What `configure` or `operation` throws.
    public func withOverrides<Result>(
        _ configure: (OverrideRegistrar) throws -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let layer = OverrideLayer(
            registry: self, registrations: try OverrideRegistrar.registrations(from: configure),
            parent: OverrideLayer.current)
        return try await OverrideScope(layer: layer).run(isolation: isolation, operation)
    }
}
