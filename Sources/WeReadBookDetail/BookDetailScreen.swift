import WeReadInterfaces

/// The detail screen of one book, with its data gathered when the screen is built.
final class BookDetailScreen: BookDetailService {
    /// How many reviews the screen shows; the rest are one tap away in a real app.
    static let highlightedReviewLimit = 2

    let book: Book
    let rating: RatingSummary
    let highlightedReviews: [Review]

    init(book: Book, reviews: any ReviewService) throws {
        self.book = book
        self.rating = try reviews.rating(ofBookWithID: book.id)
        self.highlightedReviews = Array(try reviews.reviews(ofBookWithID: book.id).prefix(Self.highlightedReviewLimit))
    }

    func render() -> String {
        var lines = [
            book.title,
            "\(book.author) · \(book.year) · \(book.pageCount) pages",
            rating.description,
        ]
        for review in highlightedReviews {
            lines.append("  \(Self.stars(review.rating)) \(review.reviewer): “\(review.text)”")
        }
        return lines.joined(separator: "\n")
    }

    /// Five stars, filled up to the rating, such as `★★★★☆` for 4.
    static func stars(_ rating: Int) -> String {
        let filled = max(0, min(5, rating))
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
    }
}
