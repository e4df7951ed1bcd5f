import ServiceRegistry
import ServiceRouter

/// The router's cases, side by side with the URL + block baseline:
///
/// - `route-10`, `route-10000`: opening `app://book/42` among 10 or 10,000 routes (the
///   others are `app://component<i>/service`). `router-match` parses the URL and walks
///   the trie (``ServiceRouter/match(_:from:)``); `router-open` also resolves the
///   `BookScreen` for the id and runs the handler (open-for-object); `url-block` looks the
///   whole URL string up and calls its block with `["bookId": "42"]`. A trie means the two
///   sizes cost the same.
/// - `route-register`: `router` registers 10,000 routes into a fresh router per sample;
///   the held-bytes figure is what each route keeps. `url-block` launches 10,000 components,
///   each initialised eagerly and registering one block, as that scheme requires.
enum RouterCases {
    /// Case names.
    static let route10 = "route-10"
    static let route10000 = "route-10000"
    static let routeRegister = "route-register"

    /// Subject names.
    static let routerMatch = "router-match"
    static let routerOpen = "router-open"
    static let router = "router"

    /// The matching cases and how many routes (or URLs) each subject holds in them.
    static let sizes = [(route10, 10), (route10000, 10_000)]

    /// How many routes one `route-register` sample registers.
    static let registrationsPerSample = 10_000

    /// The URL every routing case opens, and the pattern that takes it.
    static let bookURL = "app://book/42"
    static let bookPattern = "app://book/:bookId(int)"

    /// The router benchmarks.
    ///
    /// - Parameter options: Unused; the sizes are fixed by the case names.
    /// - Returns: Two matching cases × three subjects, and the registration case × two.
    ///   Wired in by listing `RouterCases.benchmarks` in ``BenchmarkCatalog/groups``.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        let matching = sizes.flatMap { caseName, routes -> [Benchmark] in
            [
                Benchmark(caseName: caseName, subject: routerMatch, workload: .calls {
                    let router = try makeRouter(fillers: routes - 1)
                    return { operations in
                        for _ in 0..<operations { blackHole(try router.match(bookURL)) }
                        return nil
                    }
                }),
                Benchmark(caseName: caseName, subject: routerOpen, workload: .calls {
                    let router = try makeRouter(fillers: routes - 1)
                    return { operations in
                        for _ in 0..<operations { blackHole(try router.open(bookURL, as: (any BookScreen).self)) }
                        return nil
                    }
                }),
                Benchmark(caseName: caseName, subject: SubjectName.urlBlock, workload: .calls {
                    let router = makeURLBlockRouter(fillers: routes - 1)
                    let userInfo: [String: Any] = [URLBlockComponents.Parameter.bookID: BookScreenImpl.sampleBookID]
                    return { operations in
                        for _ in 0..<operations {
                            blackHole(router.object(forURL: URLBlockComponents.URL.bookScreen, userInfo: userInfo) as? any BookScreen)
                        }
                        return nil
                    }
                }),
            ]
        }
        let registering = [
            Benchmark(caseName: routeRegister, subject: router, workload: .holdings(operations: registrationsPerSample) {
                // Built before timing: an app's patterns are literals, which cost no allocation.
                let patterns = fillerPatterns(registrationsPerSample)
                let registry = RegistrySubject.makeRegistry()
                return { _ in
                    let router = ServiceRouter(registry: registry)
                    for pattern in patterns {
                        try router.register(pattern) { (service: any SharedService, _) in service.serial }
                    }
                    return router
                }
            }),
            Benchmark(caseName: routeRegister, subject: SubjectName.urlBlock, workload: .holdings(
                operations: registrationsPerSample, instancesBuilt: { URLBlockComponents.fillerComponentsInitialised }
            ) {
                let launchers = URLBlockComponents.fillerComponents(count: registrationsPerSample)
                return { _ in URLBlockRouter(launching: launchers) }
            }),
        ]
        return matching + registering
    }

    /// A router holding the book route and `fillers` other routes, on a registry with the
    /// benchmark services (nothing resolved yet).
    ///
    /// - Parameter fillers: How many filler routes to register.
    /// - Returns: The router.
    static func makeRouter(fillers: Int) throws -> ServiceRouter {
        let router = ServiceRouter(registry: RegistrySubject.makeRegistry())
        for pattern in fillerPatterns(fillers) {
            try router.register(pattern) { (service: any SharedService, _) in service.serial }
        }
        try router.register(bookPattern, argument: { try $0.parameters.string("bookId") }) { (screen: any BookScreen, _) in
            screen
        }
        return router
    }

    /// The URL + block counterpart of ``makeRouter(fillers:)``: the book component and
    /// `fillers` one-URL components, all launched.
    ///
    /// - Parameter fillers: How many filler components to launch.
    /// - Returns: The launched router.
    static func makeURLBlockRouter(fillers: Int) -> URLBlockRouter {
        URLBlockRouter(
            launching: URLBlockComponents.fillerComponents(count: fillers)
                + [{ URLBlockComponents.BookComponent(registrar: &$0) }])
    }

    /// The filler patterns, `app://component<i>/service`, like the baseline's URLs.
    ///
    /// - Parameter count: How many patterns.
    /// - Returns: The pattern strings.
    static func fillerPatterns(_ count: Int) -> [String] {
        (0..<count).map(URLBlockComponents.URL.filler)
    }
}
