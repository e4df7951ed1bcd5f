import ServiceRegistry
import Testing
import WeReadInterfaces

@testable import WeReadCatalog

/// The catalog component on its own: it has no dependencies to mock.
@Suite struct CatalogComponentTests {
    let catalog: any CatalogService

    init() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly())
        catalog = try registry.resolve(CatalogService.self)
    }

    @Test func shipsAtLeastFiftyBooksWithIDsFromOneWithoutGaps() {
        #expect(catalog.books.count >= 50)
        #expect(catalog.books.count == 70, "Docs/Componentization.md: \"the catalog of 70 books\"")
        #expect(catalog.books.map(\.id.rawValue) == Array(1...catalog.books.count))
    }

    @Test func everyBookHasATitleAnAuthorAYearAndPages() {
        for book in catalog.books {
            #expect(!book.title.isEmpty && !book.author.isEmpty, "book \(book.id)")
            #expect((1000...2025).contains(book.year), "book \(book.id) year \(book.year)")
            #expect(book.pageCount > 0, "book \(book.id)")
        }
    }

    @Test func reviewsBelongToCatalogBooksAndRateOneToFiveStars() {
        let reviews = catalog.books.flatMap { catalog.reviews(ofBookWithID: $0.id) }
        #expect(reviews.count >= 50)
        for review in reviews {
            #expect(catalog.book(withID: review.bookID) != nil)
            #expect((1...5).contains(review.rating), "\(review.reviewer) on book \(review.bookID)")
        }
    }

    @Test func bookFortyTwoIsTheHitchhikersGuide() {
        #expect(catalog.book(withID: BookID(42))?.title == "The Hitchhiker's Guide to the Galaxy")
        #expect(catalog.reviews(ofBookWithID: BookID(42)).count == 3)
    }

    @Test func looksUpNothingForAnUnknownID() {
        #expect(catalog.book(withID: BookID(9_999)) == nil)
        #expect(catalog.reviews(ofBookWithID: BookID(9_999)).isEmpty)
    }

    @Test(arguments: [
        ("tolkien", [33, 34]),
        ("TOLKIEN", [33, 34]),
        ("the hobbit", [33]),
        ("Woolf", [21, 22]),
        ("bronte", [3, 4]),
        ("BRONTË", [3, 4]),
        ("garcia marquez", [43]),
        ("les miserables", [11]),
        ("saint-exupery", [63]),
        ("no such words", []),
        ("   ", []),
        (" tolkien\n", [33, 34]),
    ])
    func searchMatchesTitleOrAuthorIgnoringCaseAndAccents(query: String, expectedIDs: [Int]) {
        #expect(catalog.search(query).map(\.id.rawValue) == expectedIDs)
    }

    /// A duplicated id in the data is one book everywhere: listed once, and the listed
    /// book is the one looking the id up returns (the later literal).
    @Test func aDuplicatedIDIsOneBookInTheListAndTheLookup() {
        let first = Book(id: BookID(1), title: "Draft", author: "A", year: 2000, pageCount: 10)
        let second = Book(id: BookID(1), title: "Final", author: "A", year: 2000, pageCount: 12)
        let catalog = BundledCatalog(books: [first, second], reviews: [])
        #expect(catalog.books == [second])
        #expect(catalog.book(withID: BookID(1)) == second)
        #expect(catalog.search("draft").isEmpty)
    }

    @Test func isASingletonSharedByEveryResolve() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly())
        let first = try registry.resolve(CatalogService.self)
        let second = try registry.resolve(CatalogService.self)
        #expect(first as AnyObject === second as AnyObject)
    }
}
