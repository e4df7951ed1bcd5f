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

    @Test func parentTransientResolvedThroughAChildUsesTheChildsDependencies() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { _ in ReviewServiceImpl(source: "parent") }
        parent.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let child = parent.makeChild()
        child.register(ReviewService.self) { _ in ReviewServiceImpl(source: "child") }
        #expect(try child.resolve(BookDetailService.self).reviews.source == "child")
        #expect(try parent.resolve(BookDetailService.self).reviews.source == "parent")
    }

    @Test func grandchildFallsBackThroughEveryAncestor() throws {
        let root = ServiceRegistry()
        root.register(ReviewService.self) { _ in ReviewServiceImpl(source: "root") }
        let grandchild = root.makeChild().makeChild()
        #expect(try grandchild.resolve(ReviewService.self).source == "root")
    }
}
