import ServiceRegistry
import WeReadInterfaces

/// Registers the reader's bookshelf: the books they keep and how far they have read.
///
/// It depends on a `CatalogService`, which another component provides.
///
/// ```swift
/// registry.install(CatalogAssembly(), BookshelfAssembly())
/// let shelf = try registry.resolve(BookshelfService.self)
/// ```
public struct BookshelfAssembly: ServiceAssembly {
    /// Creates the assembly.
    public init() {}

    /// Registers `BookshelfService` as a singleton.
    ///
    /// - Parameter registry: The registry to register into.
    public func assemble(into registry: ServiceRegistry) {
        // Singleton: there is one reader and one shelf per app run, and the shelf screen,
        // the reader (to resume at the right page) and any widget must all see the same one.
        registry.register(BookshelfService.self, scope: .singleton) { r in
            ReaderShelf(catalog: try r.resolve(CatalogService.self))
        }
    }
}
