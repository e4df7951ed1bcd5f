import ServiceRegistry
import Testing

@Suite("Hierarchy")
struct HierarchyTests {
    @Test func childSeesParentRegistrations() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        let child = parent.makeChild()
        #expect(try child.resolve(ReviewService.self).source == "parent")
        #expect(child.isRegistered(ReviewService.self))
    }

    @Test func childRegistrationsShadowTheParent() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        #expect(try child.resolve(ReviewService.self).source == "child")
        #expect(try parent.resolve(ReviewService.self).source == "parent")
    }

    /// A child made per screen goes away with its last reference, with the singletons it
    /// cached: the parent keeps no reference to it. A factory that captures the child
    /// itself would keep it alive (the makeChild() doc says so); these resolve through `r`.
    @Test func aChildAndItsSingletonsAreFreedWithTheirLastReference() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        weak var freedChild: ServiceRegistry?
        weak var freedReviews: ReviewServiceImpl?
        do {
            let child = parent.makeChild()
            child.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl(source: "child") }
            child.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
            let reviews = try #require(try child.resolve(BookDetailService.self).reviews as? ReviewServiceImpl)
            #expect(reviews.source == "child")
            (freedChild, freedReviews) = (child, reviews)
        }
        #expect(freedChild == nil)
        #expect(freedReviews == nil)
        #expect(try parent.resolve(ReviewService.self).source == "parent")
    }

    @Test func parentNeverSeesChildRegistrations() throws {
        let parent = ServiceRegistry()
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl() }
        #expect(!parent.isRegistered(ReviewService.self))
        #expect(throws: ResolutionError.self) { try parent.resolve(ReviewService.self) }
    }

    @Test func parentSingletonThroughAChildIsTheParentsOneInstance() throws {
        let parent = ServiceRegistry()
        let built = Counter()
        parent.register(ReviewService.self, scope: .singleton) { _ in
            built.increment()
            return ReviewServiceImpl()
        }
        let first = parent.makeChild()
        let second = parent.makeChild()
        let fromFirst = try first.resolve(ReviewService.self)
        let fromSecond = try second.resolve(ReviewService.self)
        let fromParent = try parent.resolve(ReviewService.self)
        #expect(fromFirst as AnyObject === fromParent as AnyObject)
        #expect(fromSecond as AnyObject === fromParent as AnyObject)
        #expect(built.value == 1)
    }

    @Test func parentSingletonIsBuiltFromTheParentsRegistrations() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        parent.register(BookDetailService.self, scope: .singleton) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        #expect(try child.resolve(BookDetailService.self).reviews.source == "parent")
    }

    /// A parent's singleton whose dependency only the child registers cannot be built
    /// through the child. "Nothing is registered" with a fix to register it would send
    /// the reader to the child, where it is registered already: the error says where the
    /// dependency is looked for, and why the child's does not count. So does validation.
    @Test(arguments: [Scope.singleton, .weak])
    func aParentsSharedServiceMissingADependencyOnlyTheChildRegistersSaysWhy(scope: Scope) throws {
        let parent = ServiceRegistry()
        parent.register(BookDetailService.self, scope: scope) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        let error = try #require(throws: ResolutionError.self) { try child.resolve(BookDetailService.self) }
        #expect(error.reason == .notRegistered)
        #expect(error.path == ["BookDetailService", "ReviewService"])
        let note = try #require(error.note)
        #expect(note.contains("`BookDetailService`, a .\(scope) service of a parent registry"))
        #expect(note.contains("`ReviewService` is provided only below that registry"))
        #expect(note.contains("Register `ReviewService` in the parent registry too"))
        let validation = try #require(throws: ValidationError.self) { try child.validate() }
        #expect(validation.description.contains(note))

        // An override of the child provides it as the child's registration does.
        let overridden = try #require(throws: ResolutionError.self) {
            try parent.makeChild().withOverrides {
                $0.register(ReviewService.self) { _ in ReviewServiceImpl(source: "mock") }
            } operation: {
                try parent.makeChild().resolve(BookDetailService.self)
            }
        }
        // The override is for another child, not on the way: the note says so, not that
        // the service is provided only below.
        let elsewhere = try #require(overridden.note)
        #expect(elsewhere.contains("registers `ReviewService` for another registry, which this lookup does not search"))
        #expect(!elsewhere.contains("provided only below"))
        let child2 = parent.makeChild()
        let viaOverride = try #require(throws: ResolutionError.self) {
            try child2.withOverrides {
                $0.register(ReviewService.self) { _ in ReviewServiceImpl(source: "mock") }
            } operation: {
                try child2.resolve(BookDetailService.self)
            }
        }
        #expect(viaOverride.note?.contains("`ReviewService` is provided only below that registry") == true)

        // Nor does a note appear where the child does not have it either.
        let alone = try #require(throws: ResolutionError.self) { try parent.makeChild().resolve(BookDetailService.self) }
        #expect(alone.note == nil)
    }

    @Test func parentTransientResolvedThroughAChildUsesTheChildsDependencies() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        parent.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        #expect(try child.resolve(BookDetailService.self).reviews.source == "child")
        #expect(try parent.resolve(BookDetailService.self).reviews.source == "parent")
    }

    /// In one resolve on a child, a parent's singleton resolves its `.graph` dependency in
    /// the parent and the child's own resolve in the child: two instances, each built from
    /// its registry's registrations, whichever is met first.
    @Test(arguments: [false, true])
    func graphInstancesAreNotSharedBetweenAChildAndAParentsSingleton(singletonFirst: Bool) throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        parent.register(BookDetailService.self, scope: .graph) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        parent.register(ReadingService.self, scope: .singleton) { r in ReadingServiceImpl(detail: try r.resolve()) }
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        child.register(Pair.self) { r in
            if singletonFirst {
                let reading: any ReadingService = try r.resolve()
                return Pair(detail: try r.resolve(), reading: reading)
            }
            let detail: any BookDetailService = try r.resolve()
            return Pair(detail: detail, reading: try r.resolve())
        }
        let pair = try child.resolve(Pair.self)
        #expect(pair.reading.detail.reviews.source == "parent")
        #expect(pair.detail.reviews.source == "child")
    }

    @Test func grandchildFallsBackThroughEveryAncestor() throws {
        let root = ServiceRegistry()
        root.register(ReviewService.self) { _ in ReviewServiceImpl(source: "root") }
        let grandchild = root.makeChild().makeChild()
        #expect(try grandchild.resolve(ReviewService.self).source == "root")
    }

    /// A parent's `.transient` registration met again inside its own build is a cycle also
    /// when the second resolve runs in another registry of the hierarchy, which would give
    /// it other dependencies: here the child's `Clock` needs the parent's singleton, which
    /// resolves `ReviewService` in the parent, where `Clock` needs nothing. Registrations
    /// are compared, not the registries resolving them (Docs/Design.md, Known limits).
    @Test func aParentRegistrationMetAgainThroughTheParentIsACycle() throws {
        let parent = ServiceRegistry()
        parent.register(Clock.self) { _ in FixedClock(now: 1) }
        parent.register(ReviewService.self) { r in ReviewServiceImpl(source: "\(try r.resolve(Clock.self).now)") }
        parent.register(BookDetailService.self, scope: .singleton) { r in
            BookDetailServiceImpl(reviews: try r.resolve())
        }
        let child = parent.makeChild()
        child.register(Clock.self) { r in
            _ = try r.resolve(BookDetailService.self)
            return FixedClock(now: 2)
        }
        let error = try resolutionError { _ = try child.resolve(ReviewService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReviewService", "Clock", "BookDetailService", "ReviewService"])
        #expect(try parent.resolve(ReviewService.self).source == "1")
    }

    /// Why registries are not compared: a factory that resolves its own service through a
    /// fresh child at each level would meet a new registry every time, and recurse until
    /// the stack ran out instead of throwing.
    @Test func aFactoryResolvingItselfThroughAFreshChildIsACycle() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { [parent] _ in try parent.makeChild().resolve(ReviewService.self) }
        let error = try resolutionError { _ = try parent.resolve(ReviewService.self) }
        #expect(error.reason == .circularDependency)
    }
}

/// Two services resolved side by side in one resolve.
private struct Pair: Sendable {
    let detail: any BookDetailService
    let reading: any ReadingService
}
