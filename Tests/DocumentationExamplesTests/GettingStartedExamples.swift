// Mirrors the code in Docs/GettingStarted.md, so the page cannot drift from the API.
// The page's modules (Interfaces, Reviews, BookDetail) are stood in for
// by one namespace, since a test target is a single module; the code inside is the page's.
import ServiceRegistry
import Testing

enum GettingStarted {
    // MARK: 2. Publish protocols in a thin interfaces module

    public protocol ReviewService: Sendable {
        func reviews(ofBookWithID id: Int) -> [String]
    }

    public protocol BookDetailService: Sendable {
        var bookID: Int { get }
        func render() -> String
    }

    // MARK: 3. Register lazy factories in each component

    struct InMemoryReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] {
            id == 42 ? ["Don't panic.", "Mostly harmless."] : []
        }
    }

    public struct ReviewAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(ReviewService.self, scope: .singleton) { _ in InMemoryReviews() }
        }
    }

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

    // MARK: 5. Resolve by protocol

    struct NoReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { [] }
    }
}

@Suite struct GettingStartedExamples {
    typealias ReviewService = GettingStarted.ReviewService
    typealias BookDetailService = GettingStarted.BookDetailService
    typealias ReviewAssembly = GettingStarted.ReviewAssembly
    typealias BookDetailAssembly = GettingStarted.BookDetailAssembly
    typealias NoReviews = GettingStarted.NoReviews

    @Test func installResolveNameAndArgumentWorkAsThePageSays() throws {
        // 4. Install the assemblies in the composition root
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())

        // 5. Resolve by protocol
        let detail = try registry.resolve(BookDetailService.self, argument: 42)
        #expect(detail.render() == "Book 42: 2 reviews")

        let reviews: any ReviewService = try registry.resolve()   // the type can be inferred
        #expect(reviews.reviews(ofBookWithID: 42) == ["Don't panic.", "Mostly harmless."])

        registry.register(ReviewService.self, name: "offline") { _ in NoReviews() }
        let offlineReviews = try registry.resolve(ReviewService.self, name: "offline")
        #expect(offlineReviews.reviews(ofBookWithID: 42).isEmpty)
    }

    @Test func aChildRegistryShadowsItsParentForItsOwnResolves() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())

        // 8. Give one part of the app its own variant with a child registry
        let offlineScreens = registry.makeChild()
        offlineScreens.register(ReviewService.self) { _ in NoReviews() }

        let online = try registry.resolve(BookDetailService.self, argument: 42)
        let offline = try offlineScreens.resolve(BookDetailService.self, argument: 42)
        #expect(online.render() == "Book 42: 2 reviews")
        #expect(offline.render() == "Book 42: 0 reviews")
    }

    @Test func anArgumentOfAnotherTypeIsAnArgumentMismatch() {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        let error = #expect(throws: ResolutionError.self) {
            try registry.resolve(BookDetailService.self, argument: "42")
        }
        #expect(error?.reason == .argumentMismatch)
        #expect(error?.givenArgumentType == "String")
        #expect(error?.registeredArgumentTypes == ["Int"])
    }

    @Test func aForgottenComponentIsANotRegisteredErrorWithThePath() {
        // 6. Read the errors
        let incomplete = ServiceRegistry()
        incomplete.install(BookDetailAssembly())   // forgot ReviewAssembly

        var reason: ResolutionError.Reason?
        var path: [String] = []
        var description = ""
        do {
            _ = try incomplete.resolve(BookDetailService.self, argument: 42)
        } catch {
            reason = error.reason   // notRegistered
            path = error.path       // ["BookDetailService", "ReviewService"]
            description = "\(error)"
        }
        #expect(reason == .notRegistered)
        #expect(path == ["GettingStarted.BookDetailService", "GettingStarted.ReviewService"])
        // "the full explanation, ending with the fix": what was asked, the path, the fix.
        #expect(description == """
            ServiceRegistry could not resolve `GettingStarted.ReviewService`: nothing is registered for it.
              Resolution path: GettingStarted.BookDetailService → GettingStarted.ReviewService
              Fix: register `GettingStarted.ReviewService` (e.g. in its component's ServiceAssembly) with \
            registry.register(GettingStarted.ReviewService.self) { r in ... }, or override it in the test with withOverrides.
            """)
    }

    /// Step 5: "An inferred optional ... resolves the registered `ReviewService` when nothing
    /// is registered for the optional type itself."
    @Test func anInferredOptionalResolvesTheRegisteredService() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        if let reviews: any ReviewService = try? registry.resolve() {
            #expect(reviews.reviews(ofBookWithID: 42) == ["Don't panic.", "Mostly harmless."])
        } else {
            Issue.record("the inferred optional resolved nothing")
        }
    }

    /// When it does not compile: "A tuple's labels are part of its type too:
    /// `(id: String, page: Int)` and `(String, Int)` are two argument types."
    @Test func aTuplesLabelsArePartOfTheArgumentType() throws {
        let registry = ServiceRegistry()
        registry.register(String.self) { (_, args: (id: String, page: Int)) in "\(args.id) p\(args.page)" }
        #expect(try registry.resolve(String.self, argument: (id: "42", page: 1)) == "42 p1")
        let error = #expect(throws: ResolutionError.self) {
            try registry.resolve(String.self, argument: ("42", 1))
        }
        #expect(error?.reason == .argumentMismatch)
        #expect(error?.givenArgumentType == "(String, Int)")
        #expect(error?.registeredArgumentTypes == ["(id: String, page: Int)"])
    }

    /// When it does not compile: "The fix-it's `(any ReviewService).self` is the same type,
    /// so it registers and resolves the same service."
    @Test func theExistentialAnySpellingIsTheSameService() throws {
        let registry = ServiceRegistry()
        registry.register((any ReviewService).self, scope: .singleton) { _ in NoReviews() }
        #expect(registry.isRegistered(ReviewService.self))
        #expect(try registry.resolve(ReviewService.self).reviews(ofBookWithID: 42).isEmpty)

        registry.install(ReviewAssembly())
        #expect(try registry.resolve((any ReviewService).self).reviews(ofBookWithID: 42).count == 2)
    }

    // 7. Check the wiring in a test — the page's test, as written, with the registry
    // made apart so the same checks can run on an incomplete one.
    @Test func appWiringIsComplete() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())
        try checkWiring(of: registry)
    }

    /// The body of the page's `appWiringIsComplete()`.
    private func checkWiring(of registry: ServiceRegistry) throws {
        let report = try registry.validate(sampleArguments: [42])   // a book id for the detail screen
        #expect(report.notChecked.isEmpty)
        #expect(report.built == ["GettingStarted.BookDetailService (argument: Int)", "GettingStarted.ReviewService"])
    }

    /// The page says its one test catches a missing component. Its only service without
    /// an argument is `ReviewService`, so `validate()` alone passes without
    /// `ReviewAssembly`, listing the detail screen as not checked; with the sample book id
    /// the page's test builds the detail screen, and fails.
    @Test func thePagesWiringTestCatchesTheForgottenComponent() throws {
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly())   // forgot ReviewAssembly
        #expect(try registry.validate().notChecked == ["GettingStarted.BookDetailService (argument: Int)"])
        let error = #expect(throws: ValidationError.self) { try checkWiring(of: registry) }
        #expect(error?.failures.map(\.registration) == ["GettingStarted.BookDetailService (argument: Int)"])
        #expect(error?.failures.first?.error.reason == .notRegistered)
        #expect(error?.failures.first?.error.path == ["GettingStarted.BookDetailService", "GettingStarted.ReviewService"])
    }

    @Test func validationCatchesTheForgottenComponent() {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly())
        registry.register(GettingStarted.BookDetailService.self) { r in
            GettingStarted.BookDetailScreen(bookID: 1, reviews: try r.resolve(ReviewService.self, name: "missing"))
        }
        #expect(throws: ValidationError.self) { try registry.validate() }
    }

    @Test func overridesSupplyAComponentsDependenciesInATest() throws {
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly())

        let screen = try registry.withOverrides {
            $0.register(ReviewService.self) { _ in NoReviews() }
        } operation: {
            try registry.resolve(BookDetailService.self, argument: 42).render()
        }
        #expect(screen == "Book 42: 0 reviews")
        // Outside the scope, the real reviews are back.
        #expect(try registry.resolve(BookDetailService.self, argument: 42).render() == "Book 42: 2 reviews")
    }
}
