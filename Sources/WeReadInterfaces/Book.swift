/// A book in the WeRead catalog.
///
/// A plain value that every component may exchange; the catalog component owns where
/// books come from.
public struct Book: Hashable, Identifiable, Sendable {
    /// The book's catalog id.
    public let id: BookID
    /// The title as printed on the cover.
    public let title: String
    /// The author, or authors joined with " & ".
    public let author: String
    /// The year of first publication.
    public let year: Int
    /// The number of pages in the edition WeRead serves.
    public let pageCount: Int

    /// Creates a book.
    ///
    /// - Parameters:
    ///   - id: The book's catalog id.
    ///   - title: The title as printed on the cover.
    ///   - author: The author, or authors joined with " & ".
    ///   - year: The year of first publication.
    ///   - pageCount: The number of pages in the edition WeRead serves.
    public init(id: BookID, title: String, author: String, year: Int, pageCount: Int) {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
        self.pageCount = pageCount
    }
}
