import WeReadInterfaces

/// Opens books for reading and works out where to resume and how long is left.
///
/// A class, because the `.weak` scope it is registered in can only hold objects.
final class Reader: ReadingService {
    /// The demo reader's pace. A real app would learn it from the reader's history.
    static let secondsPerPage = 90

    private let catalog: any CatalogService
    private let shelf: any BookshelfService

    init(catalog: any CatalogService, shelf: any BookshelfService) {
        self.catalog = catalog
        self.shelf = shelf
    }

    func startReading(_ id: BookID) throws -> ReadingSession {
        guard let book = catalog.book(withID: id) else { throw UnknownBookError(bookID: id) }
        let pagesRead = shelf.entry(for: id)?.pagesRead ?? 0
        // Resume on the page after the last one read; a finished book starts over.
        let currentPage = pagesRead >= book.pageCount ? 1 : pagesRead + 1
        let pagesLeft = book.pageCount - currentPage + 1
        return ReadingSession(
            book: book,
            currentPage: currentPage,
            minutesLeft: (pagesLeft * Self.secondsPerPage + 59) / 60
        )
    }
}
