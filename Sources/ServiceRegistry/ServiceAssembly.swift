/// A component's registrations, grouped so the composition root can install them in one call.
///
/// A component module exposes one public assembly and keeps its implementation types
/// internal; the app installs it without seeing those types.
///
/// ```swift
/// public struct ReviewAssembly: ServiceAssembly {
///     public init() {}
///     public func assemble(into registry: ServiceRegistry) {
///         registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
///     }
/// }
///
/// registry.install(ReviewAssembly())
/// ```
///
/// Registrations made while an assembly is being installed remember the assembly's type
/// name; ``ServiceRegistry/dependencyGraph()`` and the failures
/// ``ServiceRegistry/validate()`` lists show it (a ``ResolutionError`` does not).
public protocol ServiceAssembly {
    /// Registers this component's factories.
    ///
    /// Register only; resolving here would build services at install time, which is what
    /// lazy registration avoids.
    ///
    /// - Parameter registry: The registry to register into.
    func assemble(into registry: ServiceRegistry)
}
