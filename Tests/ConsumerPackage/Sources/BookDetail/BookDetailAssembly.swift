// Docs/GettingStarted.md, step 3, as its own module (see Sources/Interfaces).

// Module BookDetail: it never imports Reviews.
import ServiceRegistry
import Interfaces

struct BookDetailScreen: BookDetailService {
    let bookID: Int
    let reviews: any ReviewService

    func render() -> String {
        "Book \(bookID): \(reviews.reviews(ofBookWithID: bookID).count) reviews"
    }
}

public struct BookDetailAssembly: ServiceAssembly {
    public init() {}
    public func assemble(into registry: ServiceRegistry) {
        registry.register(BookDetailService.self) { (r, bookID: Int) in
            BookDetailScreen(bookID: bookID, reviews: try r.resolve(ReviewService.self))
        }
    }
}
