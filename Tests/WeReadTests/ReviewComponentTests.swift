import ServiceRegistry
import Testing
import WeReadInterfaces
import WeReadReview

/// The review component on its own, with the catalog it depends on mocked.
@Suite struct ReviewComponentTests {
    let registry: ServiceRegistry

    init() {
        registry = ServiceRegistry()
        registry.install(ReviewAssembly())
    }

    /// Runs `body` with the review service built on a stub catalog.
    func withStubCatalog<R>(_ body: (any ReviewService) throws -> R) throws -> R {
        try registry.withOverrides {
            $0.register(CatalogService.self, scope: .singleton) { _ in StubCatalog() }
        } operation: {
            try body(registry.resolve(ReviewService.self))
        }
    }

    @Test func ranksHigherRatingsFirstAndLongerTextFirstAmongEqualRatings() throws {
        let reviewers = try withStubCatalog { try $0.reviews(ofBookWithID: BookID(1)).map(\.reviewer) }
        #expect(reviewers == ["top", "long", "short", "low"])
    }

    @Test func summarisesTheRatingOfABook() throws {
        let rating = try withStubCatalog { try $0.rating(ofBookWithID: BookID(1)) }
        #expect(rating == RatingSummary(reviewCount: 4, totalStars: 15))
        #expect(rating.description == "3.8★ from 4 reviews")
    }

    @Test func givesAnUnreviewedBookNoReviewsRatherThanAnError() throws {
        let (reviews, rating) = try withStubCatalog {
            (try $0.reviews(ofBookWithID: StubCatalog.unreviewed.id), try $0.rating(ofBookWithID: StubCatalog.unreviewed.id))
        }
        #expect(reviews.isEmpty)
        #expect(rating.description == "no reviews yet")
    }

    @Test func throwsUnknownBookForAnIDTheCatalogDoesNotHave() throws {
        try withStubCatalog { service in
            #expect(throws: UnknownBookError(bookID: BookID(77))) { try service.reviews(ofBookWithID: BookID(77)) }
            #expect(throws: UnknownBookError(bookID: BookID(77))) { try service.rating(ofBookWithID: BookID(77)) }
        }
    }

    @Test func withoutACatalogComponentResolvingFailsNamingTheMissingService() {
        let error = #expect(throws: ResolutionError.self) { try registry.resolve(ReviewService.self) }
        #expect(error?.reason == .notRegistered)
        #expect(error?.serviceType == "CatalogService")
        #expect(error?.path == ["ReviewService", "CatalogService"])
    }
}
