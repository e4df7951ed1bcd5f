import ServiceRegistry
import WeReadInterfaces

/// Registers the WeRead catalog: the books and reviews every other component reads.
///
/// Install it in the composition root:
///
/// ```swift
/// registry.install(CatalogAssembly())
/// let catalog = try registry.resolve(CatalogService.self)
/// ```
public struct CatalogAssembly: ServiceAssembly {
    /// Creates the assembly.
    public init() {}

    /// Registers `CatalogService` as a singleton.
    ///
    /// - Parameter registry: The registry to register into.
    public func assemble(into registry: ServiceRegistry) {
        // Singleton: the catalog is read-only data that every screen reads. Indexing it
        // once and sharing the index is the point; a transient catalog would re-index
        // seventy books on every screen. Built on first use, so an app launch that never
        // touches the catalog never pays for it.
        registry.register(CatalogService.self, scope: .singleton) { _ in
            BundledCatalog()
        }
    }
}
