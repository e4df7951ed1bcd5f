// Mirrors the code in Docs/Scopes.md, so the page cannot drift from the API. The page's
// types live in a namespace; each test runs the page's snippets and checks what the
// page's comments claim.
import ServiceRegistry
import Synchronization
import Testing

enum ScopesPage {
    final class BookDetailScreen {
        let bookID: Int
        init(bookID: Int) { self.bookID = bookID }
    }

    final class Catalog: Sendable {
        let titles = ["Dune", "Emma", "Ulysses"]
    }

    final class Reader: Sendable {
        let openedAt = ContinuousClock.now
    }

    final class ReadingPosition {
        var page = 1
    }

    final class PageView {
        let position: ReadingPosition
        init(position: ReadingPosition) { self.position = position }
    }

    final class ProgressBar {
        let position: ReadingPosition
        init(position: ReadingPosition) { self.position = position }
    }

    final class ReadingScreen {
        let pageView: PageView
        let progressBar: ProgressBar
        init(pageView: PageView, progressBar: ProgressBar) {
            self.pageView = pageView
            self.progressBar = progressBar
        }
    }

    final class Shelf: Sendable {
        let owner: String
        init(owner: String) { self.owner = owner }
    }
}

@Suite struct ScopesExamples {
    typealias BookDetailScreen = ScopesPage.BookDetailScreen
    typealias Catalog = ScopesPage.Catalog
    typealias Reader = ScopesPage.Reader
    typealias ReadingPosition = ScopesPage.ReadingPosition
    typealias PageView = ScopesPage.PageView
    typealias ProgressBar = ScopesPage.ProgressBar
    typealias ReadingScreen = ScopesPage.ReadingScreen
    typealias Shelf = ScopesPage.Shelf

    let registry = ServiceRegistry()

    @Test func transientBuildsANewInstanceEveryTime() throws {
        registry.register(BookDetailScreen.self) { (_, bookID: Int) in BookDetailScreen(bookID: bookID) }

        let first = try registry.resolve(BookDetailScreen.self, argument: 42)
        let second = try registry.resolve(BookDetailScreen.self, argument: 42)
        #expect(first !== second)
        #expect(first.bookID == 42)
    }

    @Test func transientInstancesAreNotKeptByTheRegistry() throws {
        registry.register(BookDetailScreen.self) { (_, bookID: Int) in BookDetailScreen(bookID: bookID) }
        weak var released: BookDetailScreen?
        do {
            released = try registry.resolve(BookDetailScreen.self, argument: 42)
        }
        #expect(released == nil)
    }

    @Test func singletonIsSharedByEveryResolve() throws {
        registry.register(Catalog.self, scope: .singleton) { _ in Catalog() }

        let catalog = try registry.resolve(Catalog.self)
        let sameCatalog = try registry.resolve(Catalog.self)
        #expect(catalog === sameCatalog)
    }

    @Test func singletonIsBuiltOnceOnFirstUse() throws {
        let builds = BuildCount()
        registry.register(Catalog.self, scope: .singleton) { _ in
            builds.increment()
            return Catalog()
        }
        #expect(builds.value == 0, "registering builds nothing")

        let catalog = try registry.resolve(Catalog.self)
        let sameCatalog = try registry.resolve(Catalog.self)
        #expect(catalog === sameCatalog)
        #expect(builds.value == 1)
    }

    @Test func aSingletonWithAnArgumentKeepsTheFirstArgument() throws {
        registry.register(BookDetailScreen.self, scope: .singleton) { (_, bookID: Int) in BookDetailScreen(bookID: bookID) }
        _ = try registry.resolve(BookDetailScreen.self, argument: 1)
        #expect(try registry.resolve(BookDetailScreen.self, argument: 2).bookID == 1)
    }

    @Test func weakIsSharedWhileHeldAndNotKeptAfterwards() throws {
        registry.register(Reader.self, scope: .weak) { _ in Reader() }

        var reader: Reader? = try registry.resolve(Reader.self)
        var progressBarReader: Reader? = try registry.resolve(Reader.self)
        #expect(reader === progressBarReader)

        weak let firstReader = reader
        reader = nil
        #expect(try registry.resolve(Reader.self) === progressBarReader, "still held by the progress bar")
        progressBarReader = nil
        #expect(firstReader == nil, "the registry does not keep a weak instance alive")
        _ = try registry.resolve(Reader.self)
    }

    @Test func graphIsSharedWithinOneResolveAndFreshForTheNext() throws {
        registry.register(ReadingPosition.self, scope: .graph) { _ in ReadingPosition() }
        registry.register(PageView.self) { r in PageView(position: try r.resolve()) }
        registry.register(ProgressBar.self) { r in ProgressBar(position: try r.resolve()) }
        registry.register(ReadingScreen.self) { r in
            ReadingScreen(pageView: try r.resolve(), progressBar: try r.resolve())
        }

        let screen = try registry.resolve(ReadingScreen.self)
        #expect(screen.pageView.position === screen.progressBar.position)
        let otherScreen = try registry.resolve(ReadingScreen.self)
        #expect(otherScreen.pageView.position !== screen.pageView.position)
    }

    @Test func aSingletonResolvedInAnOverrideScopeStaysInTheScope() throws {
        registry.register(String.self, name: "owner") { _ in "reader" }
        registry.register(Shelf.self, scope: .singleton) { r in Shelf(owner: try r.resolve(name: "owner")) }

        let testShelf = try registry.withOverrides {
            $0.register(String.self, name: "owner") { _ in "test user" }
        } operation: {
            try registry.resolve(Shelf.self)
        }
        #expect(testShelf.owner == "test user")
        let realShelf = try registry.resolve(Shelf.self)
        #expect(realShelf.owner == "reader")
    }
}

/// Counts factory runs from any thread.
private final class BuildCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

// MARK: - The page's prose, run

extension ScopesExamples {
    /// `.singleton`: "Registering the same type again, with the same name and argument type,
    /// replaces the registration and drops the cached instance (another name or argument
    /// type registers alongside it)."
    @Test func registeringAgainReplacesAndDropsTheCachedInstance() throws {
        registry.register(Catalog.self, scope: .singleton) { _ in Catalog() }
        weak var dropped: Catalog?
        do {
            let first = try registry.resolve(Catalog.self)
            registry.register(Catalog.self, name: "other", scope: .singleton) { _ in Catalog() }
            registry.register(Catalog.self, scope: .singleton) { (_, _: Int) in Catalog() }
            #expect(try registry.resolve(Catalog.self) === first, "another name or argument type registers alongside")
            #expect(try registry.resolve(Catalog.self, name: "other") !== first)
            dropped = first
        }
        #expect(dropped != nil, "the registry holds its singleton")
        registry.register(Catalog.self, scope: .singleton) { _ in Catalog() }
        #expect(dropped == nil, "the cached instance is dropped")
        #expect(registry.isRegistered(Catalog.self, name: "other"))
        #expect(registry.isRegistered(Catalog.self, argumentType: Int.self))
    }

    /// `.weak`: "Once every holder has let go, ... the next resolve builds a fresh one."
    @Test func aWeakInstanceIsRebuiltAfterTheLastHolderLetsGo() throws {
        let builds = BuildCount()
        registry.register(Reader.self, scope: .weak) { _ in
            builds.increment()
            return Reader()
        }
        var reader: Reader? = try registry.resolve(Reader.self)
        #expect(try registry.resolve(Reader.self) === reader)
        #expect(builds.value == 1)
        reader = nil
        _ = try registry.resolve(Reader.self)
        #expect(builds.value == 2)
        #expect(reader == nil)
    }

    /// `.graph`: "The sharing follows the resolver: dependencies must be resolved through
    /// `r` for the registry to know they belong to the same graph."
    @Test func graphSharingFollowsTheResolver() throws {
        registry.register(ReadingPosition.self, scope: .graph) { _ in ReadingPosition() }
        registry.register(PageView.self) { r in PageView(position: try r.resolve()) }
        registry.register(ProgressBar.self) { [registry] _ in ProgressBar(position: try registry.resolve()) }
        registry.register(ReadingScreen.self) { r in
            ReadingScreen(pageView: try r.resolve(), progressBar: try r.resolve())
        }
        let screen = try registry.resolve(ReadingScreen.self)
        #expect(screen.pageView.position !== screen.progressBar.position)
    }

    /// "a `.graph` one [is built] from the first [argument] in the graph, a `.weak` one from
    /// the first while it is held."
    @Test func sharedServicesWithAnArgumentKeepTheFirstArgument() throws {
        registry.register(BookDetailScreen.self, scope: .weak) { (_, bookID: Int) in BookDetailScreen(bookID: bookID) }
        let held = try registry.resolve(BookDetailScreen.self, argument: 1)
        #expect(try registry.resolve(BookDetailScreen.self, argument: 2).bookID == 1)
        #expect(held.bookID == 1)

        registry.register(BookDetailScreen.self, name: "graph", scope: .graph) { (_, bookID: Int) in
            BookDetailScreen(bookID: bookID)
        }
        registry.register([Int].self) { r in
            [
                try r.resolve(BookDetailScreen.self, name: "graph", argument: 3).bookID,
                try r.resolve(BookDetailScreen.self, name: "graph", argument: 4).bookID,
            ]
        }
        #expect(try registry.resolve([Int].self) == [3, 3])
        #expect(try registry.resolve(BookDetailScreen.self, name: "graph", argument: 5).bookID == 5)
    }

    /// Scopes and test overrides: "Registering the service again in the registry while the
    /// scope runs drops the registry's instance, and the scope's instance built from the old
    /// registration ...; the scope's next resolve builds one from the new registration."
    @Test func registeringAgainDuringAScopeIsSeenByTheScopesNextResolve() throws {
        registry.register(String.self, name: "owner") { _ in "reader" }
        registry.register(Shelf.self, scope: .singleton) { r in Shelf(owner: try r.resolve(name: "owner")) }
        weak let real = try registry.resolve(Shelf.self)
        #expect(real != nil, "the registry keeps its singleton")
        let new = try registry.withOverrides { _ in
        } operation: {
            weak let old = try registry.resolve(Shelf.self)
            #expect(old != nil && old !== real, "built afresh in the scope, and kept by it")
            #expect(old?.owner == "reader")
            registry.register(Shelf.self, scope: .singleton) { _ in Shelf(owner: "new") }
            #expect(real == nil, "the registry's instance is dropped")
            #expect(old == nil, "the scope's instance of the old registration is dropped")
            return try registry.resolve(Shelf.self)
        }
        #expect(new.owner == "new")
    }
}
