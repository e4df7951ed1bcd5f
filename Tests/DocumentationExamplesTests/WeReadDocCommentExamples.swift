// Mirrors the ```swift examples in the doc comments of the WeRead example's modules
// (Sources/WeRead*), so they keep compiling and saying what the example does. Unlike
// DocCommentExamples.swift, the types are the example's own: these examples show how a
// reader uses those very modules.
import ServiceRegistry
import Testing
import WeReadBookDetail
import WeReadBookshelf
import WeReadCatalog
import WeReadInterfaces
import WeReadReading
import WeReadReview

@Suite struct WeReadDocCommentExamples {
    // MARK: - The assemblies

    @Test func bookDetailAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly(), ReviewAssembly(), BookDetailAssembly())
        let detail = try registry.resolve(BookDetailService.self, argument: BookID(42))
        #expect(detail.render().contains("The Hitchhiker"))
    }

    @Test func bookshelfAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly(), BookshelfAssembly())
        let shelf = try registry.resolve(BookshelfService.self)
        #expect(!shelf.entries.isEmpty)
    }

    @Test func catalogAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly())
        let catalog = try registry.resolve(CatalogService.self)
        #expect(catalog.book(withID: BookID(42)) != nil)
    }

    @Test func readingAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly(), BookshelfAssembly(), ReadingAssembly())
        let reader = try registry.resolve(ReadingService.self)
        let session = try reader.startReading(BookID(42))
        #expect(session.book.id == BookID(42))
    }

    @Test func reviewAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogAssembly(), ReviewAssembly())
        let reviews = try registry.resolve(ReviewService.self)
        #expect(try reviews.rating(ofBookWithID: BookID(42)).reviewCount == 3)
    }

    // MARK: - The interfaces, resolved from the whole app

    /// Every component, as `weread` installs them.
    static func app() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.install(
            CatalogAssembly(), ReviewAssembly(), BookDetailAssembly(), BookshelfAssembly(), ReadingAssembly())
        return registry
    }

    @Test func readingService() throws {
        let registry = Self.app()
        let reader = try registry.resolve(ReadingService.self)
        let session = try reader.startReading(BookID(42))
        #expect(session.currentPage >= 1)
    }

    @Test func reviewService() throws {
        let registry = Self.app()
        let reviews = try registry.resolve(ReviewService.self)
        #expect(try reviews.rating(ofBookWithID: BookID(42)).description == "4.0★ from 3 reviews")
    }

    @Test func bookDetailService() throws {
        let registry = Self.app()
        let detail = try registry.resolve(BookDetailService.self, argument: BookID(42))
        #expect(detail.render().contains("4.0★ from 3 reviews"))
    }

    @Test func bookshelfService() throws {
        let registry = Self.app()
        let shelf = try registry.resolve(BookshelfService.self)
        var printed: [String] = []
        for entry in shelf.entries { printed.append("\(entry.book.title) \(entry.percentRead)") }
        #expect(printed.count == shelf.entries.count && !printed.isEmpty)
    }

    @Test func catalogService() throws {
        let registry = Self.app()
        let catalog = try registry.resolve(CatalogService.self)
        let book = catalog.book(withID: BookID(42))
        #expect(book?.id == BookID(42))
    }
}
