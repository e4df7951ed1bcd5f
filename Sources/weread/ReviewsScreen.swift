import WeReadInterfaces

/// A book's full list of reviews: what `weread reviews <book-id>` prints and what the link
/// `weread://book/<book-id>/reviews` opens, written once so the two show the same screen.
enum ReviewsScreen {
    /// The screen for the book with `id`: its title, author and year with its rating, then
    /// every review, the most helpful first.
    ///
    /// - Parameters:
    ///   - id: The book's id.
    ///   - reviews: Where the reviews and the rating come from.
    ///   - catalog: Where the book's title comes from.
    /// - Returns: The screen's lines.
    /// - Throws: ``UnknownBookError`` when the catalog has no book with that id.
    static func lines(of id: BookID, reviews: any ReviewService, catalog: any CatalogService) throws -> [String] {
        guard let book = catalog.book(withID: id) else { throw UnknownBookError(bookID: id) }
        let all = try reviews.reviews(ofBookWithID: id)
        let title = "\(book.title) (\(book.author), \(book.year))"
        guard !all.isEmpty else { return ["No reviews yet for \(title)."] }
        let rating = try reviews.rating(ofBookWithID: id)
        return ["Reviews of \(title) — \(rating)"] + all.map { "  " + TextLayout.reviewLine($0) }
    }
}
