import WeReadInterfaces

/// Reviews from the catalog, ranked so the most helpful come first.
final class RankedReviews: ReviewService {
    private let catalog: any CatalogService

    init(catalog: any CatalogService) {
        self.catalog = catalog
    }

    func reviews(ofBookWithID id: BookID) throws -> [Review] {
        guard catalog.book(withID: id) != nil else { throw UnknownBookError(bookID: id) }
        // Higher ratings first; among equal ratings, the longer review, which tends to say
        // more. Sorting is stable, so equal reviews keep the order they were written in.
        return catalog.reviews(ofBookWithID: id).sorted { lhs, rhs in
            if lhs.rating != rhs.rating { return lhs.rating > rhs.rating }
            return lhs.text.count > rhs.text.count
        }
    }

    func rating(ofBookWithID id: BookID) throws -> RatingSummary {
        guard catalog.book(withID: id) != nil else { throw UnknownBookError(bookID: id) }
        let reviews = catalog.reviews(ofBookWithID: id)
        return RatingSummary(reviewCount: reviews.count, totalStars: reviews.reduce(0) { $0 + $1.rating })
    }
}
