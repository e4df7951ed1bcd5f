/// The reader's own shelf: the books they keep and how far they have read each.
///
/// Provided by the `WeReadBookshelf` component.
///
/// ```swift
/// let shelf = try registry.resolve(BookshelfService.self)
/// for entry in shelf.entries { print(entry.book.title, entry.percentRead) }
/// ```
public protocol BookshelfService: Sendable {
    /// The books on the shelf, most recently read first.
    var entries: [ShelfEntry] { get }

    /// The shelf's entry for a book.
    ///
    /// - Parameter id: The book's id.
    /// - Returns: The entry, or `nil` when the book is not on the shelf.
    func entry(for id: BookID) -> ShelfEntry?
}
