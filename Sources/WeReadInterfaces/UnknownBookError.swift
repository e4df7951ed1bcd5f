/// Thrown when a book id names no book in the catalog.
///
/// Components throw it from their factories and methods; resolving through the registry
/// wraps it in the registry's own error, which keeps it as the underlying cause.
public struct UnknownBookError: Error, Hashable, CustomStringConvertible {
    /// The id that was asked for.
    public let bookID: BookID

    /// Creates the error for an id that names no book.
    ///
    /// - Parameter bookID: The id that was asked for.
    public init(bookID: BookID) {
        self.bookID = bookID
    }

    /// Says which id was unknown, such as `no book with id 999 in the catalog`.
    public var description: String {
        "no book with id \(bookID) in the catalog"
    }
}
