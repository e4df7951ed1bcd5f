import ServiceRegistry
import WeReadInterfaces

/// Registers WeRead's review service: ranked reviews and ratings for each book.
///
/// It depends on a `CatalogService`, which another component provides.
///
/// ```swift
/// registry.install(CatalogAssembly(), ReviewAssembly())
/// let reviews = try registry.resolve(ReviewService.self)
/// ```
public struct ReviewAssembly: ServiceAssembly {
    /// Creates the assembly.
    public init() {}

    /// Registers `ReviewService` as a singleton.
    ///
    /// - Parameter registry: The registry to register into.
    public func assemble(into registry: ServiceRegistry) {
        // Singleton: the service keeps no per-caller state, only the catalog it reads, so
        // one instance serves every screen. It resolves the catalog through the resolver
        // `r` (not the registry) so the registry sees the path ReviewService → CatalogService
        // for cycle checks, error messages and the dependency graph.
        registry.register(ReviewService.self, scope: .singleton) { r in
            RankedReviews(catalog: try r.resolve(CatalogService.self))
        }
    }
}
