import ServiceRegistry
import Testing
import WeReadInterfaces

@testable import WeReadBookshelf

/// The bookshelf component on its own, with the catalog it depends on mocked.
@Suite struct BookshelfComponentTests {
    let registry: ServiceRegistry

    init() {
        registry = ServiceRegistry()
        registry.install(BookshelfAssembly())
    }

    func shelf(catalog: StubCatalog) throws -> any BookshelfService {
        try registry.withOverrides {
            $0.register(CatalogService.self) { _ in catalog }
        } operation: {
            try registry.resolve(BookshelfService.self)
        }
    }

    @Test func listsTheDemoShelfMostRecentlyReadFirst() throws {
        let books = [42, 52, 33, 7].map {
            Book(id: BookID($0), title: "Book \($0)", author: "A", year: 2000, pageCount: 310)
        }
        let entries = try shelf(catalog: StubCatalog(books: books, reviews: [])).entries
        #expect(entries.map(\.book.id.rawValue) == [42, 52, 33, 7])
        #expect(entries.map(\.pagesRead) == [88, 120, 310, 0])
        #expect(entries.map(\.percentRead) == [28, 38, 100, 0])
    }

    @Test func leavesOffBooksTheCatalogDoesNotHave() throws {
        let only42 = Book(id: BookID(42), title: "Only", author: "A", year: 2000, pageCount: 224)
        let shelf = try shelf(catalog: StubCatalog(books: [only42], reviews: []))
        #expect(shelf.entries.map(\.book) == [only42])
        #expect(shelf.entry(for: BookID(52)) == nil)
        #expect(shelf.entry(for: BookID(42))?.pagesRead == 88)
    }

    @Test func neverClaimsMorePagesReadThanTheBookHas() throws {
        let short42 = Book(id: BookID(42), title: "Short", author: "A", year: 2000, pageCount: 20)
        let entry = try shelf(catalog: StubCatalog(books: [short42], reviews: [])).entry(for: BookID(42))
        #expect(entry?.pagesRead == 20)
        #expect(entry?.percentRead == 100)
    }

    /// Nor fewer than none: a shelf loaded from an account may carry a negative count (a
    /// sync gone wrong), which would show as a negative page and make the reader resume
    /// before page 1. It is read as a book not started.
    @Test func neverClaimsFewerThanZeroPagesRead() {
        let book = Book(id: BookID(42), title: "Book", author: "A", year: 2000, pageCount: 224)
        let shelf = ReaderShelf(catalog: StubCatalog(books: [book], reviews: []), shelf: [(BookID(42), -5)])
        #expect(shelf.entry(for: BookID(42))?.pagesRead == 0)
    }
}
