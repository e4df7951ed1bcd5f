import ServiceRegistry
import Testing

/// An argument of a zero-sized type.
private struct NoOptions: Sendable {}

@Suite("Resolution")
struct ResolutionTests {
    /// A zero-sized value may have no address (an AddressSanitizer debug build gave `()` and
    /// an empty struct a null one, which the engine read as "no argument", and the factory's
    /// unwrap stopped the program): such an argument reaches its factory all the same, in a
    /// resolve, through a resolver, and in validation. Scripts/check-address-sanitizer.sh
    /// runs this where it failed; in other builds the address happened not to be null.
    @Test func aZeroSizedArgumentReachesItsFactory() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { (_, _: NoOptions) in ReviewServiceImpl(source: "no options") }
        registry.register(ReviewService.self, name: "void") { (_, _: Void) in ReviewServiceImpl(source: "void") }
        registry.register(ReviewService.self, name: "through r") { r in
            try r.resolve(ReviewService.self, argument: NoOptions())
        }
        #expect(try registry.resolve(ReviewService.self, argument: NoOptions()).source == "no options")
        #expect(try registry.resolve(ReviewService.self, name: "void", argument: ()).source == "void")
        #expect(try registry.resolve(ReviewService.self, name: "through r").source == "no options")
        let report = try registry.validate(sampleArguments: [NoOptions(), ()])
        #expect(report.built.count == 3)
    }

    @Test func factoriesResolveDependenciesThroughTheResolver() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl(source: "dependency") }
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
        }
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        #expect(try registry.resolve(ReadingService.self).detail.reviews.source == "dependency")
    }

    @Test func factoriesPassArgumentsToDependencies() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, id: String) in BookScreenImpl(bookId: id) }
        registry.register(BookScreen.self, name: "first") { r in try r.resolve(BookScreen.self, argument: "1") }
        #expect(try registry.resolve(BookScreen.self, name: "first").bookId == "1")
    }

    @Test func factoryMayResolveThroughTheRegistryItself() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .singleton) { [registry] _ in
            BookDetailServiceImpl(reviews: try registry.resolve(ReviewService.self))
        }
        let detail = try registry.resolve(BookDetailService.self)
        #expect(detail.reviews as AnyObject === (try registry.resolve(ReviewService.self)) as AnyObject)
    }

    @Test func singletonsDependingOnSingletonsShareInstances() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
        registry.register(BookDetailService.self, scope: .singleton) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReadingService.self, scope: .singleton) { r in ReadingServiceImpl(detail: try r.resolve()) }
        let reading = try registry.resolve(ReadingService.self)
        #expect(reading.detail as AnyObject === (try registry.resolve(BookDetailService.self)) as AnyObject)
        #expect(reading.detail.reviews as AnyObject === (try registry.resolve(ReviewService.self)) as AnyObject)
    }

    /// `let x: P? = try registry.resolve()` and `if let x: P = try? registry.resolve()`
    /// infer `Optional<P>` as the service type; with nothing registered for the optional
    /// itself, they resolve `P`, with the same name and argument, instead of failing (or
    /// giving a silent `nil` through `try?`).
    @Test func optionalInferredTypeResolvesTheWrappedService() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl(source: "real") }
        registry.register(BookScreen.self, name: "compact") { (_, id: String) in BookScreenImpl(bookId: id) }

        let inferred: (any ReviewService)? = try registry.resolve()
        #expect(inferred?.source == "real")
        guard let viaTry: any ReviewService = try? registry.resolve() else {
            Issue.record("`try?` with an inferred optional type gave nil")
            return
        }
        #expect(viaTry.source == "real")
        let screen: (any BookScreen)? = try registry.resolve(name: "compact", argument: "42")
        #expect(screen?.bookId == "42")
        #expect(registry.isRegistered((any ReviewService)?.self))

        registry.register(ReadingService.self) { r in
            guard let detail: any BookDetailService = try? r.resolve() else {
                throw FactoryError(message: "`try?` through the resolver gave nil")
            }
            return ReadingServiceImpl(detail: detail)
        }
        registry.register(BookDetailService.self) { _ in BookDetailServiceImpl(reviews: ReviewServiceImpl(source: "detail")) }
        #expect(try registry.resolve(ReadingService.self).detail.reviews.source == "detail")
    }

    @Test func optionalRegisteredItselfWinsOverTheWrappedService() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl(source: "real") }
        registry.register((any ReviewService)?.self) { _ in nil }
        let resolved: (any ReviewService)? = try registry.resolve()
        if resolved != nil { Issue.record("the registration of the optional type itself was not used") }
    }

    /// An optional type registered under the name asked for, but taking an argument, is a
    /// mismatch to report, not a reason to resolve the wrapped type instead.
    @Test func optionalRegisteredWithAnArgumentIsAMismatchNotTheWrappedService() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl(source: "real") }
        registry.register((any ReviewService)?.self) { (_, source: String) in ReviewServiceImpl(source: source) }
        let error = try resolutionError { let _: (any ReviewService)? = try registry.resolve() }
        #expect(error.reason == .argumentMismatch)
        #expect(!registry.isRegistered((any ReviewService)?.self))
    }

    /// The same when the optional type's registration that takes an argument is in a parent
    /// registry or in an override scope: the resolve looks for it wherever a resolve of its
    /// key would.
    @Test func optionalRegisteredWithAnArgumentInAParentOrAScopeIsAMismatchToo() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self, name: "n") { _ in ReviewServiceImpl(source: "real") }
        parent.register((any ReviewService)?.self, name: "n") { (_, source: String) in ReviewServiceImpl(source: source) }
        let error = try resolutionError { let _: (any ReviewService)? = try parent.makeChild().resolve(name: "n") }
        #expect(error.reason == .argumentMismatch)

        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in ReviewServiceImpl(source: "real") }
        try registry.withOverrides {
            $0.register((any ReviewService)?.self) { (_, source: String) in ReviewServiceImpl(source: source) }
        } operation: {
            let error = try resolutionError { let _: (any ReviewService)? = try registry.resolve() }
            #expect(error.reason == .argumentMismatch)
        }
        let outside: (any ReviewService)? = try registry.resolve()
        #expect(outside?.source == "real")
    }

    @Test func optionalWithNothingRegisteredNamesTheWrappedService() throws {
        let registry = ServiceRegistry()
        let error = try resolutionError { let _: (any ReviewService)? = try registry.resolve() }
        #expect(error.reason == .notRegistered)
        #expect(error.path == ["ReviewService"])
        #expect(!registry.isRegistered((any ReviewService)?.self))
    }

    @Test(arguments: [50, 300, 500])
    func deepGraphsResolve(depth: Int) throws {
        // Level n depends on level n - 1; level 0 is a leaf.
        let registry = ServiceRegistry()
        registry.register(Int.self, name: "level 0") { _ in 0 }
        for level in 1...depth {
            registry.register(Int.self, name: "level \(level)") { r in
                try r.resolve(Int.self, name: "level \(level - 1)") + 1
            }
        }
        #expect(try registry.resolve(Int.self, name: "level \(depth)") == depth)
    }

    @Test func deepSingletonGraphsResolve() throws {
        let registry = ServiceRegistry()
        let depth = 300
        registry.register(Int.self, name: "level 0", scope: .singleton) { _ in 0 }
        for level in 1...depth {
            registry.register(Int.self, name: "level \(level)", scope: .singleton) { r in
                try r.resolve(Int.self, name: "level \(level - 1)") + 1
            }
        }
        #expect(try registry.resolve(Int.self, name: "level \(depth)") == depth)
    }
}
