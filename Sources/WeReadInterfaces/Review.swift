/// A reader's review of a book.
public struct Review: Hashable, Sendable {
    /// The book the review is about.
    public let bookID: BookID
    /// The reader's display name.
    public let reviewer: String
    /// Stars from 1 to 5.
    public let rating: Int
    /// What the reader wrote.
    public let text: String

    /// Creates a review.
    ///
    /// - Parameters:
    ///   - bookID: The book the review is about.
    ///   - reviewer: The reader's display name.
    ///   - rating: Stars from 1 to 5.
    ///   - text: What the reader wrote.
    public init(bookID: BookID, reviewer: String, rating: Int, text: String) {
        self.bookID = bookID
        self.reviewer = reviewer
        self.rating = rating
        self.text = text
    }
}
