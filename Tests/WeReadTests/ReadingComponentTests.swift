import ServiceRegistry
import Testing
import WeReadInterfaces
import WeReadReading

/// The reading component on its own, with the catalog and shelf it depends on mocked.
@Suite struct ReadingComponentTests {
    static let started = Book(id: BookID(1), title: "Started", author: "A", year: 2000, pageCount: 100)
    static let finished = Book(id: BookID(2), title: "Finished", author: "B", year: 2000, pageCount: 50)
    static let unread = Book(id: BookID(3), title: "Unread", author: "C", year: 2000, pageCount: 10)

    let registry: ServiceRegistry

    init() {
        registry = ServiceRegistry()
        registry.install(ReadingAssembly())
    }

    func withMocks<R>(_ body: () throws -> R) throws -> R {
        try registry.withOverrides {
            $0.register(CatalogService.self) { _ in
                StubCatalog(books: [Self.started, Self.finished, Self.unread], reviews: [])
            }
            $0.register(BookshelfService.self) { _ in
                StubShelf([
                    ShelfEntry(book: Self.started, pagesRead: 40),
                    ShelfEntry(book: Self.finished, pagesRead: 50),
                ])
            }
        } operation: {
            try body()
        }
    }

    @Test(arguments: [
        (1, 41, 90),  // resumes after the 40 pages read; 60 pages at 90 s each
        (2, 1, 75),  // a finished book starts over
        (3, 1, 15),  // a book not on the shelf starts at the beginning
    ])
    func opensAtThePageAfterTheLastOneRead(bookID: Int, expectedPage: Int, expectedMinutesLeft: Int) throws {
        let session = try withMocks {
            try registry.resolve(ReadingService.self).startReading(BookID(bookID))
        }
        #expect(session.book.id == BookID(bookID))
        #expect(session.currentPage == expectedPage)
        #expect(session.minutesLeft == expectedMinutesLeft)
    }

    /// The time left is rounded up to a whole minute: at 90 s a page, 3 pages are 4.5 min
    /// and show as 5, so an odd number of pages left never shows less time than it takes.
    /// (The cases above all leave an even number of pages, whole minutes either way.)
    @Test(arguments: [(3, 5), (1, 2), (135, 203)])
    func minutesLeftRoundUpAPartMinute(pagesLeft: Int, expectedMinutesLeft: Int) throws {
        let short = Book(id: BookID(4), title: "Short", author: "D", year: 2000, pageCount: pagesLeft)
        let session = try registry.withOverrides {
            $0.register(CatalogService.self) { _ in StubCatalog(books: [short], reviews: []) }
            $0.register(BookshelfService.self) { _ in StubShelf([]) }
        } operation: {
            try registry.resolve(ReadingService.self).startReading(short.id)
        }
        #expect(session.currentPage == 1)
        #expect(session.minutesLeft == expectedMinutesLeft)
    }

    @Test func refusesABookTheCatalogDoesNotHave() throws {
        try withMocks {
            let reader = try registry.resolve(ReadingService.self)
            #expect(throws: UnknownBookError(bookID: BookID(9))) { try reader.startReading(BookID(9)) }
        }
    }

    @Test func sharesOneReaderWhileItIsHeldAndLetsItGoAfterwards() throws {
        try withMocks {
            weak var released: (any ReadingService)?
            do {
                let reader = try registry.resolve(ReadingService.self)
                let progressBarReader = try registry.resolve(ReadingService.self)
                #expect(reader === progressBarReader)
                released = reader
            }
            #expect(released == nil, "the registry must not keep a weak-scoped reader alive")
            // A later resolve builds a fresh reader that works.
            #expect(try registry.resolve(ReadingService.self).startReading(BookID(1)).currentPage == 41)
        }
    }
}
