import WeReadInterfaces

/// The shelf of WeRead's demo reader, matched against the catalog.
final class ReaderShelf: BookshelfService {
    /// The demo reader's shelf as (book id, pages read), most recently read first.
    ///
    /// A real app would load this from the reader's account; the example ships a fixed
    /// shelf so every run, and every test, starts from the same place.
    static let demoShelf: [(id: BookID, pagesRead: Int)] = [
        (BookID(42), 88),
        (BookID(52), 120),
        (BookID(33), 310),
        (BookID(7), 0),
    ]

    let entries: [ShelfEntry]

    init(catalog: any CatalogService, shelf: [(id: BookID, pagesRead: Int)] = ReaderShelf.demoShelf) {
        // A book the catalog no longer has is left off the shelf rather than shown empty.
        entries = shelf.compactMap { item in
            catalog.book(withID: item.id).map { book in
                ShelfEntry(book: book, pagesRead: min(max(0, item.pagesRead), book.pageCount))
            }
        }
    }

    func entry(for id: BookID) -> ShelfEntry? {
        entries.first { $0.book.id == id }
    }
}
