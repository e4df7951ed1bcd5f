/// A book on the reader's shelf, with how far the reader has got.
public struct ShelfEntry: Hashable, Sendable {
    /// The book.
    public let book: Book
    /// Pages read so far; `0` for a book not started.
    public let pagesRead: Int

    /// Creates a shelf entry.
    ///
    /// - Parameters:
    ///   - book: The book.
    ///   - pagesRead: Pages read so far; `0` for a book not started.
    public init(book: Book, pagesRead: Int) {
        self.book = book
        self.pagesRead = pagesRead
    }

    /// Progress through the book in whole percent, from 0 to 100.
    public var percentRead: Int {
        guard book.pageCount > 0 else { return 0 }
        return min(100, max(0, pagesRead * 100 / book.pageCount))
    }
}
