// Foundation only for `folding(options:locale:)`: the standard library has no public way
// to take the accents off a letter, and readers type "bronte" for Brontë.
import Foundation
import WeReadInterfaces

/// The catalog served from ``CatalogData``, indexed once for lookups by id and for search.
final class BundledCatalog: CatalogService {
    let books: [Book]
    private let booksByID: [BookID: Book]
    private let reviewsByBook: [BookID: [Review]]
    /// Each book's title and author, folded for search, in the order of `books`.
    private let searchKeys: [(title: String, author: String)]

    /// Indexes the given books and reviews.
    ///
    /// Tests pass their own small data; the app passes ``CatalogData``.
    init(books: [Book] = CatalogData.books, reviews: [Review] = CatalogData.reviews) {
        // Later duplicates win, so a bad literal cannot crash the app at start-up; the list
        // is made from the same index, so it never shows a book that lookups do not return.
        self.booksByID = Dictionary(books.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        self.books = booksByID.values.sorted { $0.id < $1.id }
        self.reviewsByBook = Dictionary(grouping: reviews, by: \.bookID)
        self.searchKeys = self.books.map { (Self.folded($0.title), Self.folded($0.author)) }
    }

    func book(withID id: BookID) -> Book? {
        booksByID[id]
    }

    func reviews(ofBookWithID id: BookID) -> [Review] {
        reviewsByBook[id] ?? []
    }

    func search(_ text: String) -> [Book] {
        // Spaces around the text are not part of it, however it arrives (a search link's
        // `q=tolkien%20` too).
        let needle = Self.folded(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return [] }
        return zip(books, searchKeys).filter { _, key in
            key.title.contains(needle) || key.author.contains(needle)
        }.map(\.0)
    }

    /// `text` without case or accents, so "BRONTË" and "bronte" compare equal.
    private static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
