// Mirrors the code in Docs/Migrating.md, so the page cannot drift from the API. The page's
// types live in a namespace; each test runs the page's snippets and checks what the page's
// comments and prose claim about this package. (What the page says about Swinject, Factory
// and swift-dependencies cannot be compiled here: the package has no dependencies.)
import ServiceRegistry
import ServiceRegistryTesting
import Synchronization
import Testing

enum MigratingPage {
    protocol ReviewService: Sendable {
        func reviews(ofBookWithID id: Int) -> [String]
    }

    protocol BookDetailService: Sendable {
        func summary() -> String
    }

    struct RemoteReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { ["Loved it", "Too long"] }
    }

    struct NoReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { [] }
    }

    struct BookDetailScreen: BookDetailService {
        let bookID: Int
        let reviews: any ReviewService
        func summary() -> String { "Book \(bookID): \(reviews.reviews(ofBookWithID: bookID).count) reviews" }
    }

    // MARK: From Swinject

    struct ReviewAssembly: ServiceAssembly {
        func assemble(into registry: ServiceRegistry) {
            registry.register(ReviewService.self, scope: .singleton) { _ in RemoteReviews() }
            registry.register(BookDetailService.self) { (r, bookID: Int) in
                BookDetailScreen(bookID: bookID, reviews: try r.resolve(ReviewService.self))
            }
        }
    }

    // MARK: From Factory

    final class ReviewsViewModel {
        @Injected var reviews: any ReviewService

        func headline() -> String { "\(reviews.reviews(ofBookWithID: 42).count) reviews" }
    }

    // MARK: From swift-dependencies

    struct ReviewClient: Sendable {
        var reviews: @Sendable (Int) -> [String]
        var averageRating: @Sendable (Int) -> Double

        static let live = ReviewClient(reviews: { _ in ["Loved it", "Too long"] }, averageRating: { _ in 4.5 })
    }

    struct ReviewClientAssembly: ServiceAssembly {
        func assemble(into registry: ServiceRegistry) {
            registry.register(ReviewClient.self, scope: .singleton) { _ in .live }
        }
    }

    final class ShelfModel {
        @Injected var reviewClient: ReviewClient

        func reviewCount(ofBookWithID id: Int) -> Int { reviewClient.reviews(id).count }
    }

    /// The page's composition root, which installs into `ServiceRegistry.shared` (what
    /// `@Injected` resolves from), run once for the tests that need it. Registering into the
    /// shared registry is safe here although tests run in parallel: these types are this
    /// file's own, so no other test resolves or overrides them.
    static let sharedRegistryIsSetUp: Void = {
        ServiceRegistry.shared.install(ReviewAssembly())
        ServiceRegistry.shared.install(ReviewClientAssembly())
    }()
}

@Suite struct MigratingExamples {
    typealias ReviewService = MigratingPage.ReviewService
    typealias BookDetailService = MigratingPage.BookDetailService
    typealias RemoteReviews = MigratingPage.RemoteReviews
    typealias NoReviews = MigratingPage.NoReviews
    typealias BookDetailScreen = MigratingPage.BookDetailScreen
    typealias ReviewAssembly = MigratingPage.ReviewAssembly
    typealias ReviewsViewModel = MigratingPage.ReviewsViewModel
    typealias ReviewClient = MigratingPage.ReviewClient
    typealias ShelfModel = MigratingPage.ShelfModel

    // MARK: From Swinject

    @Test func theSwinjectAssemblyBecomesAServiceAssembly() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly())
        let detail = try registry.resolve(BookDetailService.self, argument: 42)
        #expect(detail.summary() == "Book 42: 2 reviews")
        #expect(
            try registry.resolve(ReviewService.self) as? RemoteReviews != nil,
            "the review service is the assembly's")
    }

    /// "a missing review service now throws `notRegistered`, naming
    /// `BookDetailService → ReviewService`", and "`try?` gives the optional".
    @Test func aMissingServiceThrowsWithThePathAndTryGivesAnOptional() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { (r, bookID: Int) in
            BookDetailScreen(bookID: bookID, reviews: try r.resolve(ReviewService.self))
        }
        let error = try #require(throws: ResolutionError.self) {
            try registry.resolve(BookDetailService.self, argument: 42)
        }
        #expect(error.reason == .notRegistered)
        #expect(error.path == ["MigratingPage.BookDetailService", "MigratingPage.ReviewService"])
        #expect((try? registry.resolve(ReviewService.self)) == nil)
    }

    /// "a `.singleton` struct here is built once and copied out (only `.weak` needs an
    /// object)".
    @Test func aSingletonStructIsBuiltOnce() throws {
        let builds = BuildCount()
        let registry = ServiceRegistry()
        registry.register(RemoteReviews.self, scope: .singleton) { _ in
            builds.increment()
            return RemoteReviews()
        }
        _ = try registry.resolve(RemoteReviews.self)
        _ = try registry.resolve(RemoteReviews.self)
        #expect(builds.value == 1)
    }

    final class Parent {
        let child: Child
        init(child: Child) { self.child = child }
    }

    final class Child {
        weak var parent: Parent?
    }

    /// "set it in the factory that builds the pair: resolve the child, build the parent with
    /// it, and set the child's `weak` back-reference before returning the parent. Factories
    /// that resolve each other are always a cycle here."
    @Test func aBackReferenceIsSetInTheFactoryThatBuildsThePair() throws {
        let registry = ServiceRegistry()
        registry.register(Child.self) { _ in Child() }
        registry.register(Parent.self) { r in
            let child = try r.resolve(Child.self)
            let parent = Parent(child: child)
            child.parent = parent
            return parent
        }
        let parent = try registry.resolve(Parent.self)
        #expect(parent.child.parent === parent)

        let cyclic = ServiceRegistry()
        cyclic.register(Child.self) { r in
            _ = try r.resolve(Parent.self)
            return Child()
        }
        cyclic.register(Parent.self) { r in Parent(child: try r.resolve(Child.self)) }
        let error = try #require(throws: ResolutionError.self) { try cyclic.resolve(Parent.self) }
        #expect(error.reason == .circularDependency)
    }

    // MARK: From Factory

    @Test func theFactoryContainerBecomesTheSharedRegistry() throws {
        MigratingPage.sharedRegistryIsSetUp
        let sharedDetail = try ServiceRegistry.shared.resolve(BookDetailService.self, argument: 42)
        #expect(sharedDetail.summary() == "Book 42: 2 reviews")
        #expect(ReviewsViewModel().headline() == "2 reviews")
    }

    @Test(.overriding { $0.register(ReviewService.self) { _ in NoReviews() } })
    func headlineWithoutReviews() {
        #expect(ReviewsViewModel().headline() == "0 reviews")
    }

    // MARK: From swift-dependencies

    @Test func oneClosureOfTheRealClientIsReplaced() throws {
        MigratingPage.sharedRegistryIsSetUp
        let count = try ServiceRegistry.shared.withOverrides {
            var client = try ServiceRegistry.shared.resolve(ReviewClient.self)
            client.reviews = { _ in ["Wow"] }   // averageRating stays the live one
            $0.register(ReviewClient.self) { [client] _ in client }
        } operation: {
            ShelfModel().reviewCount(ofBookWithID: 42)
        }
        #expect(count == 1)

        let rating = try ServiceRegistry.shared.withOverrides {
            var client = try ServiceRegistry.shared.resolve(ReviewClient.self)
            client.reviews = { _ in ["Wow"] }
            $0.register(ReviewClient.self) { [client] _ in client }
        } operation: {
            ShelfModel().reviewClient.averageRating(42)
        }
        #expect(rating == 4.5)
    }

    /// "a test that forgets the override gets `ReviewClient.live`", and "an object made
    /// inside a test's scope but first used after it gets the real service here".
    @Test func withoutAnOverrideOrAfterTheScopeTheModelGetsTheLiveClient() throws {
        MigratingPage.sharedRegistryIsSetUp
        #expect(ShelfModel().reviewCount(ofBookWithID: 42) == 2)

        let madeInTheScope = ServiceRegistry.shared.withOverrides {
            $0.register(ReviewClient.self) { _ in ReviewClient(reviews: { _ in [] }, averageRating: { _ in 0 }) }
        } operation: {
            ShelfModel()
        }
        #expect(madeInTheScope.reviewCount(ofBookWithID: 42) == 2, "first used after the scope: the live client")
    }
}

/// Counts factory runs from any thread.
private final class BuildCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
