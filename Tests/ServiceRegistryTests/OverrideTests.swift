import ServiceRegistry
import Synchronization
import Testing

// Fixtures are private to this file so they never clash with other test files' types.

private protocol ReviewSource: Sendable {
    var source: String { get }
}

private protocol BookDetail: Sendable {
    var reviews: any ReviewSource { get }
}

private protocol ReadingPage: Sendable {
    var detail: any BookDetail { get }
}

private protocol BookPage: Sendable {
    var text: String { get }
}

private final class NamedReviews: ReviewSource {
    let source: String
    init(_ source: String) { self.source = source }
}

private final class BookDetailImpl: BookDetail {
    let reviews: any ReviewSource
    init(reviews: any ReviewSource) { self.reviews = reviews }
}

private final class ReadingPageImpl: ReadingPage {
    let detail: any BookDetail
    init(detail: any BookDetail) { self.detail = detail }
}

private struct TextPage: BookPage {
    let text: String
}

private struct ReviewsUnavailable: Error {}

/// Counts factory runs across threads.
private final class Runs: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func record() { value.wrappingAdd(1, ordering: .relaxed) }
}

/// A registry wired the real way: ReadingPage → BookDetail → ReviewSource.
private func makeRealRegistry(
    detailScope: Scope = .transient, reviewsScope: Scope = .transient,
    detailRuns: Runs = Runs(), reviewRuns: Runs = Runs()
) -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(ReviewSource.self, scope: reviewsScope) { _ in
        reviewRuns.record()
        return NamedReviews("real")
    }
    registry.register(BookDetail.self, scope: detailScope) { r in
        detailRuns.record()
        return BookDetailImpl(reviews: try r.resolve(ReviewSource.self))
    }
    registry.register(ReadingPage.self) { r in ReadingPageImpl(detail: try r.resolve(BookDetail.self)) }
    return registry
}

/// State only the main actor may touch, so a test can show where an operation runs.
@MainActor
private final class MainActorScreen {
    var shown: [String] = []
}

@Suite("withOverrides: what a scope sees")
struct OverrideTests {
    @Test func everyResolveInTheScopeSeesTheOverride() throws {
        let registry = makeRealRegistry()
        try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            #expect(try registry.resolve(ReviewSource.self).source == "mock")
            let inferred: any ReviewSource = try registry.resolve()
            #expect(inferred.source == "mock")
            #expect(try registry.resolve(ReviewSource.self).source == "mock")
        }
        #expect(try registry.resolve(ReviewSource.self).source == "real")
    }

    @Test func asyncScopeSeesTheOverrideAcrossSuspensions() async throws {
        let registry = makeRealRegistry()
        let seen = try await registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            var seen: [String] = []
            for _ in 0..<5 {
                seen.append(try registry.resolve(ReviewSource.self).source)
                await Task.yield()
                try await Task.sleep(for: .milliseconds(1))
            }
            return seen
        }
        #expect(seen == Array(repeating: "mock", count: 5))
    }

    @MainActor
    @Test func asyncScopeRunsTheOperationOnTheCallersActor() async throws {
        let registry = makeRealRegistry()
        let screen = MainActorScreen()
        try await registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            MainActor.assertIsolated()
            await Task.yield()
            // Touching main-actor state without `await` compiles only because the operation
            // inherits the caller's isolation.
            screen.shown.append(try registry.resolve(ReviewSource.self).source)
        }
        #expect(screen.shown == ["mock"])
    }

    @Test func tasksTheScopeStartsSeeTheOverride() async throws {
        let registry = makeRealRegistry()
        try await registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            async let viaAsyncLet = registry.resolve(ReviewSource.self).source
            let viaTask = try await Task { try registry.resolve(ReviewSource.self).source }.value
            let viaGroup = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { try registry.resolve(BookDetail.self).reviews.source }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let viaGrandchild = try await Task {
                try await Task { try registry.resolve(ReviewSource.self).source }.value
            }.value
            #expect(try await viaAsyncLet == "mock")
            #expect(viaTask == "mock")
            #expect(viaGroup == ["mock", "mock", "mock", "mock"])
            #expect(viaGrandchild == "mock")
        }
    }

    @Test func realServicesBuiltInTheScopeGetTheMockAsTheirDependency() throws {
        let registry = makeRealRegistry()
        try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: { () throws in
            #expect(try registry.resolve(BookDetail.self).reviews.source == "mock")
            // Two levels down: ReadingPage → BookDetail → (mocked) ReviewSource.
            #expect(try registry.resolve(ReadingPage.self).detail.reviews.source == "mock")
        }
    }

    @Test func overrideOfAMiddleServiceReplacesItsWholeSubtree() throws {
        let registry = makeRealRegistry()
        try registry.withOverrides {
            $0.register(BookDetail.self) { _ in BookDetailImpl(reviews: NamedReviews("inside the mock")) }
        } operation: { () throws in
            #expect(try registry.resolve(ReadingPage.self).detail.reviews.source == "inside the mock")
            #expect(try registry.resolve(ReviewSource.self).source == "real")
        }
    }

    @Test func singletonBuiltInTheScopeIsCachedInTheScopeAndNeverLeaks() throws {
        let detailRuns = Runs()
        let reviewRuns = Runs()
        let registry = makeRealRegistry(detailScope: .singleton, detailRuns: detailRuns, reviewRuns: reviewRuns)

        let inScope = try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            let first = try registry.resolve(BookDetail.self)
            let second = try registry.resolve(BookDetail.self)
            #expect(first as AnyObject === second as AnyObject)
            #expect(first.reviews.source == "mock")
            return first
        }
        #expect(detailRuns.count == 1)
        #expect(reviewRuns.count == 0)

        let afterScope = try registry.resolve(BookDetail.self)
        #expect(afterScope as AnyObject !== inScope as AnyObject)
        #expect(afterScope.reviews.source == "real")
        #expect(detailRuns.count == 2)
        #expect(reviewRuns.count == 1)
        // And the real singleton is now cached as usual.
        #expect(try registry.resolve(BookDetail.self) as AnyObject === afterScope as AnyObject)
        #expect(detailRuns.count == 2)
    }

    @Test func singletonCachedBeforeTheScopeIsRebuiltInsideItAndBackAfter() throws {
        let detailRuns = Runs()
        let registry = makeRealRegistry(detailScope: .singleton, detailRuns: detailRuns)
        let before = try registry.resolve(BookDetail.self)

        let inScope = try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            try registry.resolve(BookDetail.self)
        }
        #expect(inScope.reviews.source == "mock")
        #expect(inScope as AnyObject !== before as AnyObject)
        #expect(try registry.resolve(BookDetail.self) as AnyObject === before as AnyObject)
        #expect(detailRuns.count == 2)
    }

    /// A singleton of another registry whose factory resolves the overridden registry
    /// directly (or through `@Injected`) is also built inside the scope, so it too must stay
    /// in the scope: the contract says instances built inside a scope never leak out of it.
    @Test func singletonOfAnotherRegistryBuiltFromAMockNeverLeaksOut() throws {
        let registry = makeRealRegistry()
        let feature = ServiceRegistry()
        feature.register(BookDetail.self, scope: .singleton) { _ in
            BookDetailImpl(reviews: try registry.resolve(ReviewSource.self))
        }
        let inScope = try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: {
            try feature.resolve(BookDetail.self)
        }
        #expect(inScope.reviews.source == "mock")
        let afterScope = try feature.resolve(BookDetail.self)
        #expect(afterScope.reviews.source == "real")
        #expect(afterScope as AnyObject !== inScope as AnyObject)
    }

    @Test func singletonOverrideIsSharedWithinOneScopeOnly() throws {
        let registry = makeRealRegistry()
        let mockRuns = Runs()
        func scope() throws -> (any ReviewSource, any ReviewSource) {
            try registry.withOverrides {
                $0.register(ReviewSource.self, scope: .singleton) { _ in
                    mockRuns.record()
                    return NamedReviews("mock singleton")
                }
            } operation: {
                (try registry.resolve(ReviewSource.self), try registry.resolve(BookDetail.self).reviews)
            }
        }
        let (a1, a2) = try scope()
        let (b1, b2) = try scope()
        #expect(a1 as AnyObject === a2 as AnyObject)
        #expect(b1 as AnyObject === b2 as AnyObject)
        #expect(a1 as AnyObject !== b1 as AnyObject)
        #expect(mockRuns.count == 2)
    }

    @Test func nestedScopesStackInnerWinsAndOuterComesBack() throws {
        let registry = makeRealRegistry()
        try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("outer") }
            $0.register(BookPage.self) { _ in TextPage(text: "outer page") }
        } operation: {
            #expect(try registry.resolve(BookDetail.self).reviews.source == "outer")
            try registry.withOverrides {
                $0.register(ReviewSource.self) { _ in NamedReviews("inner") }
                $0.register(BookPage.self, name: "inner only") { _ in TextPage(text: "inner page") }
            } operation: { () throws in
                #expect(try registry.resolve(BookDetail.self).reviews.source == "inner")
                // What the inner scope does not override still comes from the outer one.
                #expect(try registry.resolve(BookPage.self).text == "outer page")
                #expect(try registry.resolve(BookPage.self, name: "inner only").text == "inner page")
            }
            #expect(try registry.resolve(BookDetail.self).reviews.source == "outer")
            #expect(!registry.isRegistered(BookPage.self, name: "inner only"))
        }
        #expect(try registry.resolve(BookDetail.self).reviews.source == "real")
        #expect(!registry.isRegistered(BookPage.self))
    }

    @Test func nestedAsyncScopesStack() async throws {
        let registry = makeRealRegistry()
        try await registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("outer") }
        } operation: {
            try await registry.withOverrides {
                $0.register(ReviewSource.self) { _ in NamedReviews("inner") }
            } operation: {
                await Task.yield()
                let inner = try await Task { try registry.resolve(ReviewSource.self).source }.value
                #expect(inner == "inner")
            }
            await Task.yield()
            let outer = try await Task { try registry.resolve(ReviewSource.self).source }.value
            #expect(outer == "outer")
        }
    }

    @Test func scopesOnDifferentRegistriesStackIndependently() throws {
        let first = makeRealRegistry()
        let second = makeRealRegistry()
        try first.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("first's mock") }
        } operation: {
            try second.withOverrides {
                $0.register(ReviewSource.self) { _ in NamedReviews("second's mock") }
            } operation: { () throws in
                #expect(try first.resolve(BookDetail.self).reviews.source == "first's mock")
                #expect(try second.resolve(BookDetail.self).reviews.source == "second's mock")
            }
            #expect(try second.resolve(BookDetail.self).reviews.source == "real")
        }
    }

    @Test func overrideOnOneRegistryLeavesOthersAlone() throws {
        let overridden = makeRealRegistry()
        let other = makeRealRegistry()
        try overridden.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: { () throws in
            #expect(try other.resolve(BookDetail.self).reviews.source == "real")
        }
    }

    /// A miss on a service that an active scope overrides for a registry the lookup does
    /// not search says so, naming `ServiceRegistry.shared` when it is that one: "nothing is
    /// registered" alone would send the reader to the override they wrote already.
    @Test func aMissOnAServiceOverriddenForAnotherRegistrySaysWhichRegistryTheOverrideIsFor() throws {
        let own = ServiceRegistry()
        own.register(BookDetail.self) { r in BookDetailImpl(reviews: try r.resolve(ReviewSource.self)) }

        let other = ServiceRegistry()
        let missOnOther = try #require(throws: ResolutionError.self) {
            try other.withOverrides {
                $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
            } operation: {
                try own.resolve(BookDetail.self)
            }
        }
        #expect(missOnOther.reason == .notRegistered)
        #expect(missOnOther.path == ["BookDetail", "ReviewSource"])
        let note = try #require(missOnOther.note)
        #expect(note.contains("An active override scope registers `ReviewSource` for another registry"))
        #expect(note.contains("an override reaches only resolves on the registry it was made for"))
        #expect(missOnOther.description.contains(note))

        // The trait's slip: `.overriding { }` overrides the shared registry.
        let missOnShared = try #require(throws: ResolutionError.self) {
            try ServiceRegistry.shared.withOverrides {
                $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
            } operation: {
                try own.resolve(BookDetail.self)
            }
        }
        #expect(missOnShared.note?.contains("registers `ReviewSource` for `ServiceRegistry.shared`") == true)

        // A child's lookup searches its parents, not its siblings: the sibling's override is named.
        let parent = ServiceRegistry()
        let sibling = parent.makeChild()
        let missInChild = try #require(throws: ResolutionError.self) {
            try sibling.withOverrides {
                $0.register(ReviewSource.self, name: "offline") { _ in NamedReviews("mock") }
            } operation: {
                try parent.makeChild().resolve(ReviewSource.self, name: "offline")
            }
        }
        #expect(missInChild.note?.contains("registers `ReviewSource (name: \"offline\")` for another registry") == true)
    }

    /// No such note where the scope overrides another key (another name), or where there
    /// is no scope: the error is the plain one.
    @Test func aMissWithNoOverrideOfItsKeyElsewhereHasNoNote() throws {
        let own = ServiceRegistry()
        let other = ServiceRegistry()
        let otherName = try #require(throws: ResolutionError.self) {
            try other.withOverrides {
                $0.register(ReviewSource.self, name: "offline") { _ in NamedReviews("mock") }
            } operation: {
                try own.resolve(ReviewSource.self)
            }
        }
        #expect(otherName.note == nil)
        let noScope = try #require(throws: ResolutionError.self) { try own.resolve(ReviewSource.self) }
        #expect(noScope.note == nil)
    }

    @Test func overrideMayAddAServiceTheRegistryLacks() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetail.self) { r in BookDetailImpl(reviews: try r.resolve(ReviewSource.self)) }
        #expect(!registry.isRegistered(ReviewSource.self))
        #expect(throws: ResolutionError.self) { try registry.resolve(BookDetail.self) }

        try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("added") }
        } operation: { () throws in
            #expect(registry.isRegistered(ReviewSource.self))
            #expect(try registry.resolve(BookDetail.self).reviews.source == "added")
        }

        #expect(!registry.isRegistered(ReviewSource.self))
        let error = try #require(throws: ResolutionError.self) { try registry.resolve(BookDetail.self) }
        #expect(error.reason == .notRegistered)
        #expect(error.path == ["BookDetail", "ReviewSource"])
    }

    @Test(arguments: [Scope.transient, .singleton, .weak, .graph])
    func namedOverrideInEachScopeReplacesOnlyThatName(scope: Scope) throws {
        let registry = makeRealRegistry()
        registry.register(ReviewSource.self, name: "offline") { _ in NamedReviews("real offline") }
        try registry.withOverrides {
            $0.register(ReviewSource.self, name: "offline", scope: scope) { _ in NamedReviews("mock offline") }
        } operation: {
            let first = try registry.resolve(ReviewSource.self, name: "offline")
            let second = try registry.resolve(ReviewSource.self, name: "offline")
            #expect(first.source == "mock offline")
            #expect(try registry.resolve(ReviewSource.self).source == "real")
            let shared = scope == .singleton || scope == .weak
            #expect((first as AnyObject === second as AnyObject) == shared)
        }
        #expect(try registry.resolve(ReviewSource.self, name: "offline").source == "real offline")
    }

    @Test func graphOverrideIsSharedWithinOneResolve() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewSource.self) { _ in NamedReviews("real") }
        registry.register(BookDetail.self) { r in BookDetailImpl(reviews: try r.resolve(ReviewSource.self)) }
        registry.register(ReadingPage.self) { r in
            let detail = try r.resolve(BookDetail.self)
            // Both this page and its detail ask for reviews; a `.graph` override gives them one.
            let reviews = try r.resolve(ReviewSource.self)
            #expect(detail.reviews as AnyObject === reviews as AnyObject)
            return ReadingPageImpl(detail: detail)
        }
        try registry.withOverrides {
            $0.register(ReviewSource.self, scope: .graph) { _ in NamedReviews("graph mock") }
        } operation: {
            let one = try registry.resolve(ReadingPage.self)
            let two = try registry.resolve(ReadingPage.self)
            #expect(one.detail.reviews.source == "graph mock")
            #expect(one.detail.reviews as AnyObject !== two.detail.reviews as AnyObject)
        }
    }

    @Test func overridesTakeArgumentsLikeRegistrations() throws {
        let registry = ServiceRegistry()
        registry.register(BookPage.self) { (_, id: String) in TextPage(text: "real \(id)") }
        registry.register(BookPage.self, name: "compact", scope: .singleton) { (_, id: String) in
            TextPage(text: "real compact \(id)")
        }
        try registry.withOverrides {
            $0.register(BookPage.self) { (_, id: String) in TextPage(text: "mock \(id)") }
            $0.register(BookPage.self) { (_, args: (String, Int)) in TextPage(text: "mock \(args.0) p\(args.1)") }
            $0.register(BookPage.self, name: "compact", scope: .singleton) { (_, id: String) in
                TextPage(text: "mock compact \(id)")
            }
        } operation: { () throws in
            #expect(try registry.resolve(BookPage.self, argument: "42").text == "mock 42")
            #expect(try registry.resolve(BookPage.self, argument: ("42", 7)).text == "mock 42 p7")
            // A singleton that takes an argument keeps the first argument, within the scope.
            #expect(try registry.resolve(BookPage.self, name: "compact", argument: "1").text == "mock compact 1")
            #expect(try registry.resolve(BookPage.self, name: "compact", argument: "2").text == "mock compact 1")
            #expect(registry.isRegistered(BookPage.self, argumentType: (String, Int).self))
        }
        #expect(try registry.resolve(BookPage.self, argument: "42").text == "real 42")
        #expect(try registry.resolve(BookPage.self, name: "compact", argument: "3").text == "real compact 3")
        #expect(!registry.isRegistered(BookPage.self, argumentType: (String, Int).self))
    }

    @Test func argumentMismatchInsideAScopeNamesBothArgumentTypes() throws {
        let registry = ServiceRegistry()
        try registry.withOverrides {
            $0.register(BookPage.self) { (_, id: String) in TextPage(text: id) }
        } operation: {
            let error = try #require(throws: ResolutionError.self) {
                try registry.resolve(BookPage.self, argument: 42)
            }
            #expect(error.reason == .argumentMismatch)
            #expect(error.givenArgumentType == "Int")
            #expect(error.registeredArgumentTypes == ["String"])
        }
    }

    @Test func overridesApplyThroughAChildRegistry() throws {
        let parent = makeRealRegistry()
        let child = parent.makeChild()
        try parent.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("mock") }
        } operation: { () throws in
            #expect(try child.resolve(BookDetail.self).reviews.source == "mock")
        }
    }

    @Test func childsOwnRegistrationShadowsAnOverrideOfItsParent() throws {
        let parent = makeRealRegistry()
        let child = parent.makeChild()
        child.register(ReviewSource.self) { _ in NamedReviews("child's own") }
        try parent.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("parent's mock") }
        } operation: { () throws in
            #expect(try child.resolve(ReviewSource.self).source == "child's own")
            #expect(try parent.resolve(ReviewSource.self).source == "parent's mock")
        }
    }

    @Test func overridingAChildLeavesItsParentAlone() throws {
        let parent = makeRealRegistry()
        let child = parent.makeChild()
        try child.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("child mock") }
        } operation: { () throws in
            #expect(try child.resolve(BookDetail.self).reviews.source == "child mock")
            #expect(try parent.resolve(BookDetail.self).reviews.source == "real")
        }
    }

    /// As Testing.md says: a parent's `.singleton` resolved through an overridden child is
    /// built from the parent's registrations, as it is outside a scope, so the child's
    /// overrides do not reach its dependencies; overriding the parent does. It is still
    /// built afresh in the scope and dropped with it.
    @Test func overridingAChildDoesNotReachTheDependenciesOfAParentsSingleton() throws {
        let parent = makeRealRegistry(detailScope: .singleton)
        let child = parent.makeChild()
        let real = try #require(try parent.resolve(BookDetail.self) as? BookDetailImpl)
        try child.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("child mock") }
        } operation: { () throws in
            #expect(try child.resolve(ReviewSource.self).source == "child mock")
            let detail = try #require(try child.resolve(BookDetail.self) as? BookDetailImpl)
            #expect(detail.reviews.source == "real")
            #expect(detail !== real)
        }
        try parent.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("parent mock") }
        } operation: { () throws in
            #expect(try child.resolve(BookDetail.self).reviews.source == "parent mock")
        }
        #expect(try child.resolve(BookDetail.self) as? BookDetailImpl === real)
    }

    @Test func mockFactoryThatThrowsIsReportedWithItsPath() throws {
        struct OfflineError: Error {}
        let registry = makeRealRegistry()
        try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in throw OfflineError() }
        } operation: {
            let error = try #require(throws: ResolutionError.self) { try registry.resolve(ReadingPage.self) }
            #expect(error.reason == .factoryFailed)
            #expect(error.path == ["ReadingPage", "BookDetail", "ReviewSource"])
            #expect(error.underlyingError is OfflineError)
        }
    }

    @Test func configureThatThrowsSkipsTheOperation() {
        struct FixtureMissing: Error {}
        let registry = makeRealRegistry()
        let ran = Runs()
        #expect(throws: FixtureMissing.self) {
            try registry.withOverrides { _ in throw FixtureMissing() } operation: { ran.record() }
        }
        #expect(ran.count == 0)
        #expect(OverrideScope.current.isEmpty)
    }

    @Test func operationsResultAndErrorPassThrough() async throws {
        struct Stop: Error {}
        let registry = makeRealRegistry()
        let value = registry.withOverrides { _ in } operation: { 42 }
        #expect(value == 42)
        await #expect(throws: Stop.self) {
            try await registry.withOverrides { _ in } operation: {
                await Task.yield()
                throw Stop()
            }
        }
        // The scope is gone after an operation that threw.
        #expect(OverrideScope.current.isEmpty)
    }

    /// A scope looks its keys up in a list while it has few and in a dictionary past
    /// that; both must find exactly their own keys, and an inner scope of one kind must
    /// fall back to an outer scope of the other.
    @Test(arguments: [3, 40])
    func scopeFindsEachOfItsOverridesAmongFewOrMany(count: Int) throws {
        let registry = ServiceRegistry()
        for index in 0...count {
            registry.register(ReviewSource.self, name: "source-\(index)") { _ in NamedReviews("real \(index)") }
        }
        try registry.withOverrides { scope in
            for index in 0..<count {
                scope.register(ReviewSource.self, name: "source-\(index)") { _ in NamedReviews("mock \(index)") }
            }
            scope.register(BookPage.self) { (_, id: String) in TextPage(text: "mock \(id)") }
        } operation: { () throws in
            for index in 0..<count {
                #expect(try registry.resolve(ReviewSource.self, name: "source-\(index)").source == "mock \(index)")
            }
            #expect(try registry.resolve(ReviewSource.self, name: "source-\(count)").source == "real \(count)")
            #expect(try registry.resolve(BookPage.self, argument: "7").text == "mock 7")
            #expect(throws: ResolutionError.self) { try registry.resolve(ReviewSource.self) }
            #expect(throws: ResolutionError.self) { try registry.resolve(BookPage.self) }

            let innerCount = count < 8 ? 40 : 3
            try registry.withOverrides { inner in
                for index in 0..<innerCount {
                    inner.register(ReviewSource.self, name: "inner-\(index)") { _ in NamedReviews("inner \(index)") }
                }
                inner.register(ReviewSource.self, name: "source-0") { _ in NamedReviews("inner 0") }
            } operation: { () throws in
                #expect(try registry.resolve(ReviewSource.self, name: "source-0").source == "inner 0")
                #expect(try registry.resolve(ReviewSource.self, name: "source-1").source == "mock 1")
                #expect(try registry.resolve(ReviewSource.self, name: "inner-2").source == "inner 2")
            }
        }
    }

    @Test func laterRegistrationOfTheSameKeyInOneScopeWins() throws {
        let registry = makeRealRegistry()
        try registry.withOverrides {
            $0.register(ReviewSource.self) { _ in NamedReviews("first") }
            $0.register(ReviewSource.self) { _ in NamedReviews("second") }
        } operation: { () throws in
            #expect(try registry.resolve(ReviewSource.self).source == "second")
        }
    }

    /// An override replaces its key for every resolve in the scope, its own factory's too:
    /// one that resolves the service it overrides (to wrap the real one) meets itself. The
    /// error says so and how to wrap the real one, which the usual advice for a cycle
    /// (resolve the other service later) would not do; the way it gives works.
    @Test func anOverrideResolvingTheServiceItOverridesIsToldHowToWrapTheRealOne() throws {
        let registry = makeRealRegistry()
        // Through its resolver, or, as a shared override, through the registry: that build's
        // path ends at the override, so the override met again is the one being built, not
        // a loop through the service above it.
        for throughTheRegistry in [false, true] {
            let error = try #require(throws: ResolutionError.self) {
                try registry.withOverrides {
                    if throughTheRegistry {
                        $0.register(ReviewSource.self, scope: .singleton) { _ in
                            NamedReviews("spy on \(try registry.resolve(ReviewSource.self).source)")
                        }
                    } else {
                        $0.register(ReviewSource.self) { r in NamedReviews("spy on \(try r.resolve(ReviewSource.self).source)") }
                    }
                } operation: {
                    try registry.resolve(BookDetail.self)
                }
            }
            #expect(error.reason == .circularDependency)
            #expect(error.path == ["BookDetail", "ReviewSource", "ReviewSource"])
            let note = try #require(error.note)
            #expect(note.contains("`ReviewSource` here is an override, met again while it is built"))
            #expect(note.contains("resolve it in the configure closure, before the scope starts, and capture it"))
            #expect(error.description.contains(note))
            // The fix agrees with the note: resolving the other service later would meet the
            // override again, so it is not advised.
            let fix = String(error.description.split(separator: "\n").last ?? "")
            #expect(
                fix == "  Fix: resolve the real `ReviewSource` in the configure closure "
                    + "(let real = try registry.resolve(ReviewSource.self)) and capture `real` in the override's factory "
                    + "instead of resolving it there.")
        }

        // For a service that takes an argument, the resolve it shows passes one.
        registry.register(BookScreen.self) { (_, id: String) in BookScreenImpl(bookId: id) }
        let withArgument = try #require(throws: ResolutionError.self) {
            try registry.withOverrides {
                $0.register(BookScreen.self) { (r, id: String) in try r.resolve(BookScreen.self, argument: id) }
            } operation: {
                try registry.resolve(BookScreen.self, argument: "42")
            }
        }
        #expect(withArgument.description.contains("(let real = try registry.resolve(BookScreen.self, argument: ...))"))

        // For a named service, it names it: without the name it would resolve another
        // registration.
        registry.register(ReviewSource.self, name: "offline") { _ in NamedReviews("offline") }
        let named = try #require(throws: ResolutionError.self) {
            try registry.withOverrides {
                $0.register(ReviewSource.self, name: "offline") { r in
                    NamedReviews("spy on \(try r.resolve(ReviewSource.self, name: "offline").source)")
                }
            } operation: {
                try registry.resolve(ReviewSource.self, name: "offline")
            }
        }
        #expect(
            named.description.hasSuffix(
                "\n  Fix: resolve the real `ReviewSource (name: \"offline\")` in the configure closure "
                    + "(let real = try registry.resolve(ReviewSource.self, name: \"offline\")) and capture `real` "
                    + "in the override's factory instead of resolving it there."),
            "\(named)")

        try registry.withOverrides {
            let real = try registry.resolve(ReviewSource.self)
            $0.register(ReviewSource.self) { _ in NamedReviews("spy on \(real.source)") }
        } operation: { () throws in
            #expect(try registry.resolve(BookDetail.self).reviews.source == "spy on real")
        }
    }

    /// The path of an error met through an override reads as the registry's own
    /// services: the message says which of them is the override, whose factory (not the
    /// app's) resolved what is missing or threw.
    @Test func anErrorThroughAnOverrideSaysWhichServiceIsTheOverride() throws {
        let registry = makeRealRegistry()
        let overrideLine = "\n  `ReviewSource` on this path is an override: its factory is the one registered in "
            + "withOverrides (or an .overriding trait).\n"
        let missing = try #require(throws: ResolutionError.self) {
            try registry.withOverrides {
                $0.register(ReviewSource.self) { r in
                    _ = try r.resolve(BookPage.self)
                    return NamedReviews("mock")
                }
            } operation: {
                try registry.resolve(ReadingPage.self)
            }
        }
        #expect(missing.path == ["ReadingPage", "BookDetail", "ReviewSource", "BookPage"])
        #expect(missing.description.contains("  Resolution path: ReadingPage → BookDetail → ReviewSource → BookPage" + overrideLine))

        let failed = try #require(throws: ResolutionError.self) {
            try registry.withOverrides {
                $0.register(ReviewSource.self) { _ in throw ReviewsUnavailable() }
                $0.register(BookDetail.self) { r in BookDetailImpl(reviews: try r.resolve(ReviewSource.self)) }
            } operation: {
                try registry.resolve(ReadingPage.self)
            }
        }
        #expect(failed.reason == .factoryFailed)
        #expect(
            failed.description.contains(
                "\n  `BookDetail` and `ReviewSource` on this path are overrides: their factories are the ones "
                    + "registered in withOverrides (or an .overriding trait).\n"))

        // Nor is the registry's own service called an override in a scope that overrides another.
        let real = try #require(throws: ResolutionError.self) {
            try registry.withOverrides {
                $0.register(BookPage.self) { _ in TextPage(text: "mock") }
            } operation: {
                try registry.resolve(ReviewSource.self, name: "missing")
            }
        }
        #expect(!real.description.contains("override:"))
    }

    /// A registrar kept past its configure closure cannot add to the scope any more: using
    /// it stops the program with a message rather than dropping the override unseen.
    @Test func registeringAfterTheConfigureClosureReturnedStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let registry = ServiceRegistry()
            var kept: OverrideRegistrar?
            registry.withOverrides { kept = $0 } operation: {
                kept?.register(ReviewSource.self, name: "late") { _ in NamedReviews("late") }
            }
        }
        guard let result else { return }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains("OverrideRegistrar: `ReviewSource (name: \"late\")` was registered after the configure closure"))
        // A test may have kept the registrar of a trait, which it did not write as withOverrides.
        #expect(output.contains("the configure closure of withOverrides (or of an .overriding trait) returned"))
        #expect(output.contains("Register every override inside the configure closure."))
    }

    /// A resolve of an optional type that finds nothing for it resolves the wrapped type,
    /// unless the optional type is registered under that name, with another argument,
    /// in the registry or in a scope for it. A scope's override of the optional type under
    /// another name, or for another registry, is no such registration.
    @Test func anOptionalFallsBackToItsWrappedTypePastOverridesOfOtherNamesOrRegistries() throws {
        let registry = ServiceRegistry()
        let other = ServiceRegistry()
        registry.register(ReviewSource.self, name: "b") { _ in NamedReviews("real b") }
        try registry.withOverrides {
            $0.register((any ReviewSource)?.self, name: "a") { _ in nil }
        } operation: { () throws in
            #expect(try registry.resolve((any ReviewSource)?.self, name: "b")?.source == "real b")
            #expect(try registry.resolve((any ReviewSource)?.self, name: "a") == nil)
        }
        try other.withOverrides {
            $0.register((any ReviewSource)?.self, name: "b") { _ in NamedReviews("other b") }
        } operation: { () throws in
            #expect(try registry.resolve((any ReviewSource)?.self, name: "b")?.source == "real b")
            #expect(try other.resolve((any ReviewSource)?.self, name: "b")?.source == "other b")
        }
    }

    /// Overrides of one service type and name that differ only in their argument type (or
    /// take none) share a table hash; a scope tells them apart by the argument type, among
    /// few overrides (a list it scans by stored hashes) and among many (a dictionary).
    @Test(arguments: [0, 10])
    func overridesThatDifferOnlyInTheirArgumentTypeAreToldApart(otherOverrides: Int) throws {
        let registry = ServiceRegistry()
        try registry.withOverrides { scope in
            for index in 0..<otherOverrides {
                scope.register(ReviewSource.self, name: "other-\(index)") { _ in NamedReviews("other \(index)") }
            }
            scope.register(ReviewSource.self, name: "shared") { (_, count: Int) in NamedReviews("int \(count)") }
            scope.register(ReviewSource.self, name: "shared") { (_, ratio: Double) in NamedReviews("double \(ratio)") }
            scope.register(ReviewSource.self, name: "shared") { _ in NamedReviews("none") }
        } operation: { () throws in
            #expect(try registry.resolve(ReviewSource.self, name: "shared", argument: 7).source == "int 7")
            #expect(try registry.resolve(ReviewSource.self, name: "shared", argument: 0.5).source == "double 0.5")
            #expect(try registry.resolve(ReviewSource.self, name: "shared").source == "none")
        }
    }

    /// An override met twice on a cycle's path is named once as the override.
    @Test func anOverrideMetAgainOnACyclesPathIsNamedOnce() throws {
        let registry = makeRealRegistry()
        let error = try #require(throws: ResolutionError.self) {
            try registry.withOverrides {
                $0.register(ReviewSource.self) { r in
                    NamedReviews("from \(try r.resolve(BookDetail.self).reviews.source)")
                }
            } operation: {
                try registry.resolve(ReviewSource.self)
            }
        }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReviewSource", "BookDetail", "ReviewSource"])
        #expect(
            error.description.contains(
                "\n  `ReviewSource` on this path is an override: its factory is the one registered in "
                    + "withOverrides (or an .overriding trait).\n"),
            "\(error)")
    }
}
