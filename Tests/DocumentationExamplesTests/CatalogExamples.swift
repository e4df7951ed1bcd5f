// Mirrors the code on the DocC landing pages, Docs/ServiceRegistry.docc/ServiceRegistry.md,
// Docs/ServiceRouter.docc/ServiceRouter.md and
// Docs/ServiceRegistryTesting.docc/ServiceRegistryTesting.md, so they cannot drift from the
// API. The pages' types (WeRead's, on the router's page) are stood in for by one namespace;
// the testing page's are those of Docs/Testing.md (TestingExamples.swift).
import ServiceRegistry
import ServiceRegistryTesting
import ServiceRouter
import Testing

enum CatalogPages {
    protocol ReviewService: Sendable {
        func reviews(ofBookWithID id: Int) -> [String]
    }

    protocol BookDetailService: Sendable {
        func render() -> String
    }

    struct ReviewServiceImpl: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { ["Don't panic."] }
    }

    struct BookDetailServiceImpl: BookDetailService {
        let reviews: any ReviewService
        func render() -> String { "\(reviews.reviews(ofBookWithID: 42).count) reviews" }
    }

    struct BookID: Hashable, Sendable {
        let rawValue: Int
        init(_ rawValue: Int) { self.rawValue = rawValue }
    }

    struct BookDetailScreen: BookDetailService {
        let bookID: BookID
        func render() -> String { "Book \(bookID.rawValue)" }
    }
}

@Suite struct CatalogExamples {
    typealias ReviewService = CatalogPages.ReviewService
    typealias BookDetailService = CatalogPages.BookDetailService
    typealias ReviewServiceImpl = CatalogPages.ReviewServiceImpl
    typealias BookDetailServiceImpl = CatalogPages.BookDetailServiceImpl
    typealias BookID = CatalogPages.BookID

    @Test func serviceRegistryLandingPage() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
        }

        let detail = try registry.resolve(BookDetailService.self)   // builds the review service too
        #expect(detail.render() == "1 reviews")
    }

    @Test func serviceRouterLandingPage() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { (_, bookID: BookID) in CatalogPages.BookDetailScreen(bookID: bookID) }

        let router = ServiceRouter(registry: registry)
        try router.register("weread://book/:bookId(int)", argument: { BookID(try $0.parameters.int("bookId")) }) {
            (detail: any BookDetailService, request) in detail.render()
        }
        try router.open("weread://book/42", from: .external)
        #expect(try router.open("weread://book/42", as: String.self) == "Book 42")
    }
}

extension CatalogPages {
    /// The ServiceRegistryTesting landing page's test, as written. On that page the app has
    /// registered the real `BookDetailService` on `ServiceRegistry.shared`; a test must not
    /// register on `shared`, so this suite's trait stands in for the app's registration. It
    /// applies outside the test's own trait, so the test's mock is what the real screen gets.
    @Suite(.overriding {
        $0.register(TestingPage.BookDetailService.self) { r in
            TestingPage.BookDetailScreen(reviews: try r.resolve(TestingPage.ReviewService.self))
        }
    })
    struct ServiceRegistryTestingLandingPage {
        typealias ReviewService = TestingPage.ReviewService
        typealias BookDetailService = TestingPage.BookDetailService
        typealias NoReviews = TestingPage.NoReviews

        @Test(.overriding { $0.register(ReviewService.self) { _ in NoReviews() } })
        func summaryOfABookWithoutReviews() throws {
            // The real BookDetailService, registered on `shared` by the app, gets the mock.
            let detail = try ServiceRegistry.shared.resolve(BookDetailService.self)
            #expect(detail.summary(ofBookWithID: 7) == "Book 7: 0 reviews")
        }
    }
}
