import ServiceRegistry
import Testing
import WeReadBookDetail
import WeReadInterfaces

/// The book detail component on its own, with the catalog and reviews it depends on mocked.
@Suite struct BookDetailComponentTests {
    static let reviews = [
        Review(bookID: BookID(1), reviewer: "Ann", rating: 5, text: "Loved it."),
        Review(bookID: BookID(1), reviewer: "Ben", rating: 4, text: "Liked it."),
        Review(bookID: BookID(1), reviewer: "Cat", rating: 1, text: "Not shown: only two fit."),
    ]

    let registry: ServiceRegistry

    init() {
        registry = ServiceRegistry()
        registry.install(BookDetailAssembly())
    }

    func withMocks<R>(_ body: () throws -> R) throws -> R {
        try registry.withOverrides {
            $0.register(CatalogService.self) { _ in StubCatalog() }
            $0.register(ReviewService.self) { _ in
                StubReviews(reviews: Self.reviews, knownBooks: [StubCatalog.first.id])
            }
        } operation: {
            try body()
        }
    }

    @Test func showsTheBookItWasResolvedForWithItsRatingAndTopTwoReviews() throws {
        let detail = try withMocks { try registry.resolve(BookDetailService.self, argument: BookID(1)) }
        #expect(detail.book == StubCatalog.first)
        #expect(detail.rating == RatingSummary(reviewCount: 3, totalStars: 10))
        #expect(detail.highlightedReviews.map(\.reviewer) == ["Ann", "Ben"])
    }

    @Test func rendersTheScreenAsLines() throws {
        let text = try withMocks { try registry.resolve(BookDetailService.self, argument: BookID(1)).render() }
        #expect(
            text == """
                First Book
                Ann Author · 2001 · 100 pages
                3.3★ from 3 reviews
                  ★★★★★ Ann: “Loved it.”
                  ★★★★☆ Ben: “Liked it.”
                """)
    }

    @Test func buildsANewScreenForEveryResolve() throws {
        let (first, second) = try withMocks {
            (
                try registry.resolve(BookDetailService.self, argument: BookID(1)),
                try registry.resolve(BookDetailService.self, argument: BookID(1))
            )
        }
        #expect(first as AnyObject !== second as AnyObject)
    }

    @Test func anUnknownBookFailsTheResolveWithUnknownBookErrorAsTheCause() throws {
        try withMocks {
            let error = #expect(throws: ResolutionError.self) {
                try registry.resolve(BookDetailService.self, argument: BookID(404))
            }
            #expect(error?.reason == .factoryFailed)
            #expect(error?.underlyingError as? UnknownBookError == UnknownBookError(bookID: BookID(404)))
        }
    }

    @Test func aBareIntegerIsNotABookIDAndTheErrorSaysWhichTypeToPass() throws {
        try withMocks {
            let error = #expect(throws: ResolutionError.self) {
                try registry.resolve(BookDetailService.self, argument: 1)
            }
            #expect(error?.reason == .argumentMismatch)
            #expect(error?.registeredArgumentTypes == ["BookID"])
        }
    }
}
