import ServiceRegistry
import Testing

// README.md's quick start, verbatim inside a function, so it must keep compiling.

private protocol ReviewService: Sendable { func reviews(for bookId: Int) -> [String] }
private protocol BookDetailService: Sendable { func open(bookId: Int) -> String }

private struct LocalReviews: ReviewService {
    func reviews(for bookId: Int) -> [String] { ["A classic.", "Slow start, great end."] }
}

private struct BookDetail: BookDetailService {
    let reviews: any ReviewService
    func open(bookId: Int) -> String { "Book \(bookId): \(reviews.reviews(for: bookId).count) reviews" }
}

private func readmeQuickStart() throws -> String {
    let registry = ServiceRegistry()
    registry.register(ReviewService.self, scope: .singleton) { _ in LocalReviews() }
    registry.register(BookDetailService.self) { r in BookDetail(reviews: try r.resolve()) }

    let detail = try registry.resolve(BookDetailService.self)
    return detail.open(bookId: 42)  // "Book 42: 2 reviews"
}

@Suite("README")
struct ReadmeExamples {
    @Test func quickStartPrintsWhatTheReadmeSays() throws {
        #expect(try readmeQuickStart() == "Book 42: 2 reviews")
    }
}
