import ServiceRegistry
import WeReadInterfaces

/// Registers WeRead's book detail screen, built for the book id given at resolve time.
///
/// It depends on a `CatalogService` and a
/// `ReviewService`, which other components provide.
///
/// ```swift
/// registry.install(CatalogAssembly(), ReviewAssembly(), BookDetailAssembly())
/// let detail = try registry.resolve(BookDetailService.self, argument: BookID(42))
/// ```
public struct BookDetailAssembly: ServiceAssembly {
    /// Creates the assembly.
    public init() {}

    /// Registers `BookDetailService` as a transient service that takes
    /// a `BookID` argument.
    ///
    /// - Parameter registry: The registry to register into.
    public func assemble(into registry: ServiceRegistry) {
        // Transient, with the book id as a resolve argument: a detail screen shows one book
        // and lives as long as the screen, so each opening builds a new one and the registry
        // keeps nothing afterwards. The id is only known at run time (a tap, a URL), and
        // passing it at resolve time means a screen is never built without its book.
        registry.register(BookDetailService.self) { (r, bookID: BookID) in
            let catalog = try r.resolve(CatalogService.self)
            guard let book = catalog.book(withID: bookID) else {
                // Thrown from the factory, so the caller gets a resolution error that keeps
                // this as its cause, instead of a screen for a book that does not exist.
                throw UnknownBookError(bookID: bookID)
            }
            return try BookDetailScreen(book: book, reviews: r.resolve(ReviewService.self))
        }
    }
}
