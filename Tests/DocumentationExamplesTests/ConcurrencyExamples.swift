// Mirrors the code in Docs/Concurrency.md, so the page cannot drift from the API. The page's
// types live in a namespace; each test runs the page's snippets and checks what the page's
// comments claim. That the page's "compiles" claims hold is this file compiling in Swift 6
// mode: a `@MainActor` type built in a factory, an actor as a singleton, and the `let` form
// of `Injected` in a `Sendable` class.
import Foundation
import ServiceRegistry
import ServiceRegistryTesting
import Testing

/// The registry of the page's app target with default main-actor isolation.
nonisolated let appRegistry = ServiceRegistry()

enum ConcurrencyPage {
    protocol ReviewService: Sendable {
        func reviews(ofBookWithID id: Int) -> [String]
    }

    actor ReadingProgress {
        private var pages: [Int: Int] = [:]
        func record(page: Int, ofBookWithID id: Int) { pages[id] = page }
        func page(ofBookWithID id: Int) -> Int { pages[id] ?? 1 }
    }

    struct LocalReviews: ReviewService {
        func reviews(ofBookWithID id: Int) -> [String] { ["Loved it", "Too long"] }
    }

    @MainActor
    final class ReviewsViewModel {
        @Injected var reviews: any ReviewService
        var headline = ""

        func load(bookID: Int) {
            headline = "\(reviews.reviews(ofBookWithID: bookID).count) reviews"
        }
    }

    @MainActor
    final class ShelfViewModel {
        let reviews: any ReviewService
        var titles: [String] = []

        nonisolated init(reviews: any ReviewService) {
            self.reviews = reviews
        }
    }

    @MainActor
    final class Router {
        private(set) var stack: [String] = []
        func push(_ screen: String) { stack.append(screen) }
    }

    // "Default main-actor isolation": this target has no default isolation, so here the
    // section's code only shows that it compiles in an ordinary module too.
    // Tests/ConsumerPackage's MainActorApp holds it in a module with the section's settings
    // (`theDefaultIsolationSectionIsInTheConsumerPackage` below).
    struct CachedReviews: ReviewService {
        let cache: [Int: [String]]
        init() { cache = [42: ["Loved it"]] }
        func reviews(ofBookWithID id: Int) -> [String] { cache[id] ?? [] }
    }

    nonisolated protocol TitleFormatter {
        func format(_ title: String) -> String
    }

    nonisolated struct UppercaseFormatter: TitleFormatter {
        func format(_ title: String) -> String { title.uppercased() }
    }

    struct ShelfAssembly: ServiceAssembly {
        func assemble(into registry: ServiceRegistry) {
            registry.register(ReviewService.self, name: "cached") { _ in CachedReviews() }
            registry.register(TitleFormatter.self) { _ in UppercaseFormatter() }
        }
    }

    final class BookTitleViewModel {
        @Injected(registry: appRegistry) var formatter: any TitleFormatter
        var title = ""

        func show(_ book: String) { title = formatter.format(book) }
    }

    protocol BookDetailService: Sendable {
        func summary(ofBookWithID id: Int) -> String
    }

    final class BookDetailScreen: BookDetailService {
        private let reviews = Injected<any ReviewService>()

        func summary(ofBookWithID id: Int) -> String {
            "Book \(id): \(reviews.wrappedValue.reviews(ofBookWithID: id).count) reviews"
        }
    }

    /// The `static let` form the page mentions.
    enum Screens {
        static let reviews = Injected<any ReviewService>()
    }

    struct Offline: Error {}
}

@Suite struct ConcurrencyExamples {
    typealias ReviewService = ConcurrencyPage.ReviewService
    typealias ReadingProgress = ConcurrencyPage.ReadingProgress
    typealias LocalReviews = ConcurrencyPage.LocalReviews
    typealias ReviewsViewModel = ConcurrencyPage.ReviewsViewModel
    typealias ShelfViewModel = ConcurrencyPage.ShelfViewModel
    typealias Router = ConcurrencyPage.Router
    typealias CachedReviews = ConcurrencyPage.CachedReviews
    typealias BookDetailScreen = ConcurrencyPage.BookDetailScreen
    typealias Offline = ConcurrencyPage.Offline
    typealias ShelfAssembly = ConcurrencyPage.ShelfAssembly
    typealias BookTitleViewModel = ConcurrencyPage.BookTitleViewModel

    @Test func anActorIsASingletonResolvedFromAnywhere() async throws {
        let registry = ServiceRegistry()
        registry.register(ReadingProgress.self, scope: .singleton) { _ in ReadingProgress() }

        let progress = try registry.resolve(ReadingProgress.self)   // no await: the actor is built, not called
        await progress.record(page: 12, ofBookWithID: 42)

        let fromDetachedTask = try await Task.detached { try registry.resolve(ReadingProgress.self) }.value
        #expect(fromDetachedTask === progress)
        #expect(await fromDetachedTask.page(ofBookWithID: 42) == 12)
    }

    @MainActor
    @Test(.overriding { $0.register(ReviewService.self) { _ in LocalReviews() } })
    func headlineCountsTheReviews() {
        let model = ReviewsViewModel()
        model.load(bookID: 42)
        #expect(model.headline == "2 reviews")
    }

    @Test func aNonisolatedInitIsBuiltOnAnyThread() async throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in LocalReviews() }
        registry.register(ShelfViewModel.self) { r in ShelfViewModel(reviews: try r.resolve()) }

        let model = try await Task.detached { try registry.resolve(ShelfViewModel.self) }.value
        await MainActor.run {
            model.titles.append("Dune")
            #expect(model.titles == ["Dune"])
            #expect(model.reviews.reviews(ofBookWithID: 1).count == 2)
        }
    }

    let registry = ServiceRegistry()

    @MainActor
    @Test func routerIsWired() throws {
        registry.register(Router.self, scope: .singleton) { _ in
            MainActor.assumeIsolated { Router() }
        }

        let router = try registry.resolve(Router.self)   // on the main actor: fine
        router.push("book/42")
        try registry.validate()                          // also runs the factory here
        #expect(try registry.resolve(Router.self).stack == ["book/42"])
    }

    @Test func aNonisolatedServiceTypeIsBuiltInAFactory() throws {
        registry.register(ReviewService.self, name: "cached") { _ in CachedReviews() }
        #expect(try registry.resolve(ReviewService.self, name: "cached").reviews(ofBookWithID: 42) == ["Loved it"])
    }

    @MainActor
    @Test func anAppTargetsAssemblyIsInstalledAtLaunch() throws {
        appRegistry.install(ShelfAssembly())   // main-actor code: the app's launch
        let model = BookTitleViewModel()
        model.show("dune")
        #expect(model.title == "DUNE")
        #expect(try appRegistry.resolve(ReviewService.self, name: "cached").reviews(ofBookWithID: 42) == ["Loved it"])
    }

    @Test func theLetFormOfInjectedWorksInASendableClass() async throws {
        let screen = ServiceRegistry.shared.withOverrides {
            $0.register(ReviewService.self) { _ in LocalReviews() }
        } operation: {
            let screen = BookDetailScreen()
            #expect(screen.summary(ofBookWithID: 1) == "Book 1: 2 reviews")   // first access: resolves
            #expect(ConcurrencyPage.Screens.reviews.wrappedValue.reviews(ofBookWithID: 1).count == 2)
            return screen
        }
        // Sendable: it crosses into a detached task, keeping what it resolved in the scope.
        let summary = await Task.detached { screen.summary(ofBookWithID: 7) }.value
        #expect(summary == "Book 7: 2 reviews")
    }

    @Test func aResolutionErrorCrossesIsolationIntact() async throws {
        struct Offline: Error {}
        registry.register(Int.self, name: "quota") { _ in throw Offline() }

        let task = Task.detached { try registry.resolve(Int.self, name: "quota") }
        do {
            _ = try await task.value
            Issue.record("the factory threw, so the resolve should have")
        } catch let error as ResolutionError {
            #expect(error.reason == .factoryFailed)
            #expect(error.underlyingError is Offline)
        }
    }
}

extension ConcurrencyExamples {
    /// "A factory is a `@Sendable` closure that `resolve` runs on the thread that calls it
    /// ...: on the main thread for a resolve made on the main actor, on a pool thread for
    /// one made in a task." (Compared by thread identity: under `swift test` on Linux the
    /// main actor's jobs need not run on the process's main thread, as they do in an app,
    /// and the detached task may then run on the very thread the main actor ran on while
    /// this test awaits it, so the two are not asserted to differ: the factory's thread is
    /// compared with its caller's.)
    @MainActor
    @Test func aFactoryRunsOnTheThreadOfTheResolve() async throws {
        let registry = ServiceRegistry()
        registry.register(UInt.self) { _ in UInt(bitPattern: Int(bitPattern: pthread_self())) }
        let mainActorThread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        #expect(try registry.resolve(UInt.self) == mainActorThread)
        let (caller, factory) = try await Task.detached {
            (UInt(bitPattern: Int(bitPattern: pthread_self())), try registry.resolve(UInt.self))
        }.value
        #expect(caller == factory)
    }
}

extension ConcurrencyExamples {
    /// The section "Default main-actor isolation" shows code for a target this one is not (it
    /// has no default isolation): every line of its blocks must also be in
    /// Tests/ConsumerPackage's MainActorApp, which .ci/run builds with the section's settings.
    @Test func theDefaultIsolationSectionIsInTheConsumerPackage() throws {
        let page = try MirrorCoverageTests.read("Docs/Concurrency.md")
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "### Default main-actor isolation")) + 1
        let end = lines[start...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        let text = lines[start..<end].joined(separator: "\n")
        #expect(MirrorCoverageTests.swiftBlocks(in: text).count == 1, "found the section's block")
        let target = "Tests/ConsumerPackage/Sources/MainActorApp/"
        let directory = MirrorCoverageTests.packageRoot.appendingPathComponent(target).path
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "found the target's sources")
        let copy = try files.map { try MirrorCoverageTests.read(target + $0) }.joined(separator: "\n")
        let missing = MirrorCoverageTests.linesMissing(fromMirror: copy, page: text)
        #expect(missing.isEmpty, "MainActorApp lacks lines of the section's code:\n\(missing.joined(separator: "\n"))")
    }
}
