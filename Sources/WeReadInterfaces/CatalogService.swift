/// The catalog of books and their reviews: the data every other component works on.
///
/// Provided by the `WeReadCatalog` component. Resolve it by its protocol type:
///
/// ```swift
/// let catalog = try registry.resolve(CatalogService.self)
/// let book = catalog.book(withID: BookID(42))
/// ```
public protocol CatalogService: Sendable {
    /// Every book, in catalog-id order.
    var books: [Book] { get }

    /// Looks a book up by id.
    ///
    /// - Parameter id: The book's id.
    /// - Returns: The book, or `nil` when the catalog has no book with that id.
    func book(withID id: BookID) -> Book?

    /// The reviews stored for a book, in the order they were written.
    ///
    /// - Parameter id: The book's id.
    /// - Returns: The reviews; empty for an unknown id or an unreviewed book.
    func reviews(ofBookWithID id: BookID) -> [Review]

    /// Finds books whose title or author contains the text, ignoring case, accents
    /// (`"bronte"` finds Brontë) and spaces around the text.
    ///
    /// - Parameter text: What to look for, such as `"tolkien"`.
    /// - Returns: The matching books in catalog-id order; empty when nothing matches.
    func search(_ text: String) -> [Book]
}
