import WeReadInterfaces

/// A catalog of a few made-up books, so component tests do not depend on the real data.
final class StubCatalog: CatalogService {
    static let first = Book(id: BookID(1), title: "First Book", author: "Ann Author", year: 2001, pageCount: 100)
    static let second = Book(id: BookID(2), title: "Second Book", author: "Bob Writer", year: 2002, pageCount: 50)
    static let unreviewed = Book(id: BookID(3), title: "Quiet Book", author: "Cy Silent", year: 2003, pageCount: 10)

    let books: [Book]
    let reviewsByBook: [BookID: [Review]]

    init(
        books: [Book] = [StubCatalog.first, StubCatalog.second, StubCatalog.unreviewed],
        reviews: [Review] = [
            Review(bookID: BookID(1), reviewer: "short", rating: 4, text: "Good."),
            Review(bookID: BookID(1), reviewer: "low", rating: 2, text: "Not for me, sadly."),
            Review(bookID: BookID(1), reviewer: "top", rating: 5, text: "Wonderful."),
            Review(bookID: BookID(1), reviewer: "long", rating: 4, text: "Good, and here is why at length."),
            Review(bookID: BookID(2), reviewer: "only", rating: 3, text: "Fine."),
        ]
    ) {
        self.books = books
        self.reviewsByBook = Dictionary(grouping: reviews, by: \.bookID)
    }

    func book(withID id: BookID) -> Book? { books.first { $0.id == id } }
    func reviews(ofBookWithID id: BookID) -> [Review] { reviewsByBook[id] ?? [] }
    func search(_ text: String) -> [Book] { books.filter { $0.title.contains(text) } }
}

/// A review service that returns fixed reviews for any known book.
final class StubReviews: ReviewService {
    let reviews: [Review]
    let knownBooks: Set<BookID>

    init(reviews: [Review], knownBooks: Set<BookID>) {
        self.reviews = reviews
        self.knownBooks = knownBooks
    }

    func reviews(ofBookWithID id: BookID) throws -> [Review] {
        guard knownBooks.contains(id) else { throw UnknownBookError(bookID: id) }
        return reviews
    }

    func rating(ofBookWithID id: BookID) throws -> RatingSummary {
        guard knownBooks.contains(id) else { throw UnknownBookError(bookID: id) }
        return RatingSummary(reviewCount: reviews.count, totalStars: reviews.reduce(0) { $0 + $1.rating })
    }
}

/// A shelf with fixed entries.
final class StubShelf: BookshelfService {
    let entries: [ShelfEntry]

    init(_ entries: [ShelfEntry]) {
        self.entries = entries
    }

    func entry(for id: BookID) -> ShelfEntry? { entries.first { $0.book.id == id } }
}
