import WeReadInterfaces

/// The catalog served from ``CatalogData``, indexed once for lookups by id.
final class BundledCatalog: CatalogService {
    let books: [Book]
    private let booksByID: [BookID: Book]
    private let reviewsByBook: [BookID: [Review]]

    /// Indexes the given books and reviews.
    ///
    /// Tests pass their own small data; the app passes ``CatalogData``.
    init(books: [Book] = CatalogData.books, reviews: [Review] = CatalogData.reviews) {
        self.books = books.sorted { $0.id < $1.id }
        // Later duplicates win, so a bad literal cannot crash the app at start-up.
        self.booksByID = Dictionary(books.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.reviewsByBook = Dictionary(grouping: reviews, by: \.bookID)
    }

    func book(withID id: BookID) -> Book? {
        booksByID[id]
    }

    func reviews(ofBookWithID id: BookID) -> [Review] {
        reviewsByBook[id] ?? []
    }

    func search(_ text: String) -> [Book] {
        let needle = text.lowercased()
        guard !needle.allSatisfy(\.isWhitespace) else { return [] }
        return books.filter { book in
            book.title.lowercased().contains(needle) || book.author.lowercased().contains(needle)
        }
    }
}
