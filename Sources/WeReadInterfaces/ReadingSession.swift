/// Where a reader is in a book they have opened for reading.
public struct ReadingSession: Hashable, Sendable {
    /// The book being read.
    public let book: Book
    /// The page the reader is on, from 1 to the book's page count.
    public let currentPage: Int
    /// The estimated minutes left to the end at the reader's pace.
    public let minutesLeft: Int

    /// Creates a reading session.
    ///
    /// - Parameters:
    ///   - book: The book being read.
    ///   - currentPage: The page the reader is on, from 1 to the book's page count.
    ///   - minutesLeft: The estimated minutes left to the end at the reader's pace.
    public init(book: Book, currentPage: Int, minutesLeft: Int) {
        self.book = book
        self.currentPage = currentPage
        self.minutesLeft = minutesLeft
    }
}
