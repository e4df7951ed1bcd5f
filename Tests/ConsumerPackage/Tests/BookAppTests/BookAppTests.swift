// Docs/GettingStarted.md, step 7, in a test target that depends on the components, as the
// page sets it up.
import Testing
import ServiceRegistry
import Interfaces
import Reviews
import BookDetail

@Test func appWiringIsComplete() throws {
    let registry = ServiceRegistry()
    registry.install(ReviewAssembly(), BookDetailAssembly())
    let report = try registry.validate(sampleArguments: [42])   // a book id for the detail screen
    #expect(report.notChecked.isEmpty)
}

/// The test target's own copy of step 5's `NoReviews`: the app target's types are not
/// visible here.
struct NoReviews: ReviewService {
    func reviews(ofBookWithID id: Int) -> [String] { [] }
}

/// One component on its own, its dependency supplied by an override.
@Test func theDetailScreenRendersWithAnOverriddenReviewService() throws {
    let registry = ServiceRegistry()
    registry.install(BookDetailAssembly())
    let screen = try registry.withOverrides {
        $0.register(ReviewService.self) { _ in NoReviews() }
    } operation: {
        try registry.resolve(BookDetailService.self, argument: 42).render()
    }
    // screen == "Book 42: 0 reviews"
    #expect(screen == "Book 42: 0 reviews")
}

/// Without ReviewAssembly, validation with a sample fails, naming the missing service:
/// the test above catches a forgotten component.
@Test func aForgottenComponentFailsTheWiringTest() throws {
    let registry = ServiceRegistry()
    registry.install(BookDetailAssembly())
    let error = try #require(throws: ValidationError.self) { try registry.validate(sampleArguments: [42]) }
    #expect(error.description.contains("ReviewService"))
}
