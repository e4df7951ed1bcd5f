import WeReadInterfaces

/// The screens weread shows in more than one way, each written once so that every way
/// shows the same screen: a command or the scripted session, and a `weread://` link.
enum Screens {
    /// A book's full list of reviews, as `weread reviews <book-id>` prints it and the link
    /// `weread://book/<book-id>/reviews` opens it: the book's title, author and year with
    /// its rating, then every review, the most helpful first.
    ///
    /// - Parameters:
    ///   - id: The book's id.
    ///   - reviews: Where the reviews and the rating come from.
    ///   - catalog: Where the book's title comes from.
    /// - Returns: The screen's lines.
    /// - Throws: ``UnknownBookError`` when the catalog has no book with that id.
    static func reviews(of id: BookID, reviews: any ReviewService, catalog: any CatalogService) throws -> [String] {
        guard let book = catalog.book(withID: id) else { throw UnknownBookError(bookID: id) }
        let all = try reviews.reviews(ofBookWithID: id)
        let title = "\(book.title) (\(book.author), \(book.year))"
        guard !all.isEmpty else { return ["No reviews yet for \(title)."] }
        let rating = try reviews.rating(ofBookWithID: id)
        return ["Reviews of \(title) — \(rating)"] + all.map { "  " + TextLayout.reviewLine($0) }
    }

    /// The reader's shelf, as the scripted session opens it and the link `weread://shelf`
    /// does: a line per book with how far the reader has got.
    ///
    /// - Parameter shelf: The shelf to show.
    /// - Returns: The screen's lines.
    static func shelf(_ shelf: any BookshelfService) -> [String] {
        ["Your shelf:"] + shelf.entries.map { "  " + shelfLine($0) }
    }

    /// A shelf row: the book and how far the reader has got.
    private static func shelfLine(_ entry: ShelfEntry) -> String {
        let progress: String
        switch entry.pagesRead {
        case 0: progress = "not started"
        case entry.book.pageCount...: progress = "finished"
        default: progress = "page \(entry.pagesRead) of \(entry.book.pageCount)"
        }
        return "\(TextLayout.bookLine(entry.book)) · \(progress)"
    }

    /// The book open for reading, as the scripted session starts reading it and the link
    /// `weread://book/<book-id>/read` does: the page to read and the time left.
    ///
    /// - Parameter session: The reading session.
    /// - Returns: The screen's one line.
    static func reading(_ session: ReadingSession) -> String {
        "\(session.book.title), page \(session.currentPage) of \(session.book.pageCount) — "
            + "about \(TextLayout.duration(minutes: session.minutesLeft)) left at your pace."
    }
}
