import ServiceRegistry
import WeReadInterfaces

/// Registers WeRead's reader, which opens books at the page the shelf remembers.
///
/// It depends on a `CatalogService` and a
/// `BookshelfService`, which other components provide.
///
/// ```swift
/// registry.install(CatalogAssembly(), BookshelfAssembly(), ReadingAssembly())
/// let reader = try registry.resolve(ReadingService.self)
/// let session = try reader.startReading(BookID(42))
/// ```
public struct ReadingAssembly: ServiceAssembly {
    /// Creates the assembly.
    public init() {}

    /// Registers `ReadingService` in the `.weak` scope.
    ///
    /// - Parameter registry: The registry to register into.
    public func assemble(into registry: ServiceRegistry) {
        // Weak: a reader is the kind of object that holds typesetting state (fonts, page
        // layouts) for the book that is open. Everyone showing the open book — the reading
        // screen, a progress widget — should share one reader while it is open, and once the
        // last of them closes it should go away, so an app that read for an hour this morning
        // is not still holding a reader. `.singleton` would keep it for the whole run;
        // `.transient` would build a second reader for the widget.
        registry.register(ReadingService.self, scope: .weak) { r in
            Reader(
                catalog: try r.resolve(CatalogService.self),
                shelf: try r.resolve(BookshelfService.self)
            )
        }
    }
}
