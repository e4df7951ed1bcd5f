import ServiceRegistry
import Testing
import ThreadTestSupport

@Suite("Scopes")
struct ScopeTests {
    @Test func transientBuildsANewInstanceEveryTime() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        let a = try registry.resolve(ReviewService.self)
        let b = try registry.resolve(ReviewService.self)
        #expect(a as AnyObject !== b as AnyObject)
    }

    @Test func transientInstancesAreNotKeptByTheRegistry() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl() }
        weak let instance = try registry.resolve(ReviewService.self) as? ReviewServiceImpl
        #expect(instance == nil)
    }

    @Test func singletonIsBuiltOnceAndShared() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            built.increment()
            return ReviewServiceImpl()
        }
        let a = try registry.resolve(ReviewService.self)
        let b = try registry.resolve(ReviewService.self)
        #expect(a as AnyObject === b as AnyObject)
        #expect(built.value == 1)
    }

    @Test func singletonOfValueTypeIsBuiltOnce() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(Clock.self, scope: .singleton) { _ in FixedClock(now: built.increment()) }
        #expect(try registry.resolve(Clock.self).now == 1)
        #expect(try registry.resolve(Clock.self).now == 1)
    }

    @Test func throwingSingletonFactoryCachesNothingAndIsRetried() throws {
        let registry = ServiceRegistry()
        let attempts = Counter()
        registry.register(ReviewService.self, scope: .singleton) { _ in
            if attempts.increment() == 1 { throw FactoryError(message: "offline") }
            return ReviewServiceImpl(source: "second try")
        }
        #expect(throws: ResolutionError.self) { try registry.resolve(ReviewService.self) }
        #expect(try registry.resolve(ReviewService.self).source == "second try")
        #expect(try registry.resolve(ReviewService.self).source == "second try")
        #expect(attempts.value == 2)
    }

    @Test func weakIsSharedWhileHeld() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .weak) { _ in
            built.increment()
            return ReviewServiceImpl()
        }
        let held = try registry.resolve(ReviewService.self)
        let again = try registry.resolve(ReviewService.self)
        #expect(held as AnyObject === again as AnyObject)
        #expect(built.value == 1)
    }

    @Test func weakValueTypeIsBuiltEveryTime() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(Clock.self, scope: .weak) { _ in FixedClock(now: built.increment()) }
        #expect(try registry.resolve(Clock.self).now == 1)
        #expect(try registry.resolve(Clock.self).now == 2)
    }

    /// An optional service type (a service that may be absent) registered as `.weak`: the
    /// object it wraps is what is held, so it is shared while held like any other object,
    /// and observers are handed it.
    @Test func weakOptionalHoldingAnObjectIsSharedWhileHeld() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register((any ReviewService)?.self, scope: .weak) { _ in
            ReviewServiceImpl(source: "build \(built.increment())")
        }
        let held = try #require(try registry.resolve((any ReviewService)?.self))
        let again = try #require(try registry.resolve((any ReviewService)?.self))
        #expect(held as AnyObject === again as AnyObject)
        #expect(built.value == 1)

        let observed = Guarded<[ObjectIdentifier?]>([])
        let token = registry.addResolutionObserver { event in
            observed.withLock { $0.append(event.instance.map(ObjectIdentifier.init)) }
        }
        defer { registry.removeResolutionObserver(token) }
        _ = try registry.resolve((any ReviewService)?.self)
        #expect(observed.withLock { $0 } == [ObjectIdentifier(held as AnyObject)])
    }

    @Test func weakInstanceIsRebuiltAfterTheLastHolderLetsGo() throws {
        let registry = ServiceRegistry()
        let built = Counter()
        registry.register(ReviewService.self, scope: .weak) { _ in
            ReviewServiceImpl(source: "build \(built.increment())")
        }
        func resolveAndDrop() throws -> String {
            try registry.resolve(ReviewService.self).source
        }
        #expect(try resolveAndDrop() == "build 1")
        #expect(try resolveAndDrop() == "build 2")
        let held = try registry.resolve(ReviewService.self)
        #expect(held.source == "build 3")
        #expect(try resolveAndDrop() == "build 3")
    }

    @Test func graphIsSharedWithinOneResolveAndFreshForTheNext() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .graph) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReadingService.self) { r in
            let first: any BookDetailService = try r.resolve()
            let second: any BookDetailService = try r.resolve()
            #expect(first as AnyObject !== second as AnyObject)
            #expect(first.reviews as AnyObject === second.reviews as AnyObject)
            return ReadingServiceImpl(detail: first)
        }
        let one = try registry.resolve(ReadingService.self)
        let two = try registry.resolve(ReadingService.self)
        #expect(one.detail.reviews as AnyObject !== two.detail.reviews as AnyObject)
    }

    @Test func severalGraphServicesAreEachSharedWithinOneResolveAndFreedAfterIt() throws {
        let names = ["a", "b", "c"]
        let registry = ServiceRegistry()
        for name in names {
            registry.register(ReviewService.self, name: name, scope: .graph) { _ in ReviewServiceImpl(source: name) }
        }
        let seen = Guarded<[AnyObject]>([])
        registry.register(Clock.self) { r in
            for name in names + names.reversed() {
                let reviews = try r.resolve(ReviewService.self, name: name)
                #expect(reviews.source == name)
                seen.withLock { $0.append(reviews as AnyObject) }
            }
            return FixedClock(now: 0)
        }
        _ = try registry.resolve(Clock.self)
        let identities = seen.withLock { $0.map(ObjectIdentifier.init) }
        #expect(identities == identities.prefix(3) + identities.prefix(3).reversed())
        #expect(Set(identities).count == 3)
        weak let first = seen.withLock { $0.first }
        weak let third = seen.withLock { $0[2] }
        seen.withLock { $0 = [] }
        #expect(first == nil && third == nil)
    }

    @Test func graphInstancesAreNotKeptAfterTheResolve() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .graph) { _ in ReviewServiceImpl() }
        weak let instance = try registry.resolve(ReviewService.self) as? ReviewServiceImpl
        #expect(instance == nil)
    }

    @Test(arguments: [(Scope.transient, "transient"), (.singleton, "singleton"), (.weak, "weak"), (.graph, "graph")])
    func scopeDescriptionIsItsName(scope: Scope, name: String) {
        #expect(scope.description == name)
    }
}
