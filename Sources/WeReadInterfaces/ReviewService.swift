/// Reviews and ratings for books.
///
/// Provided by the `WeReadReview` component.
///
/// ```swift
/// let reviews = try registry.resolve(ReviewService.self)
/// print(try reviews.rating(ofBookWithID: BookID(42)))   // 4.0★ from 3 reviews
/// ```
public protocol ReviewService: Sendable {
    /// A book's reviews, the most helpful first.
    ///
    /// - Parameter id: The book's id.
    /// - Returns: The reviews, highest rating first and longer text first among equal
    ///   ratings; empty when the book has none.
    /// - Throws: ``UnknownBookError`` when the catalog has no book with that id.
    func reviews(ofBookWithID id: BookID) throws -> [Review]

    /// The aggregate rating of a book.
    ///
    /// - Parameter id: The book's id.
    /// - Returns: The review count and stars; zero reviews for an unreviewed book.
    /// - Throws: ``UnknownBookError`` when the catalog has no book with that id.
    func rating(ofBookWithID id: BookID) throws -> RatingSummary
}
