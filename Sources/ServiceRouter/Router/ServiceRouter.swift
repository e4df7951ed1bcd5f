import ServiceRegistry

/// Opens deep links onto services resolved lazily from a ``/ServiceRegistry/ServiceRegistry``.
///
/// A route maps a URL pattern to a handler typed against a service. Registering a route
/// stores the parsed pattern and the handler, and nothing else: no component is built at
/// launch and no closure captures one. When a URL is opened, the router parses it (without
/// Foundation), finds the best route in a trie of segments, resolves the route's service
/// from the registry **then**, and calls the handler with it:
///
/// ```swift
/// let router = ServiceRouter(registry: registry)
/// try router.register("weread://book/:bookId(int)", argument: { BookID(try $0.parameters.int("bookId")) }) {
///     (detail: any BookDetailService, request) in detail.render()
/// }
/// try router.register("weread://search?q=:term") { (catalog: any CatalogService, request) in
///     catalog.search(try request.parameters.string("term")).map(\.title)
/// }
///
/// try router.open("weread://book/42?from=push", from: .external)
/// let page = try router.open("weread://book/42", as: String.self)   // open-for-object
/// router.canOpen("weread://book/oops")                               // false, nothing built
/// ```
///
/// - Matching: literal segments beat typed parameters, which beat plain parameters,
///   which beat wildcards; then more literal query and fragment requirements, then more
///   typed captures, then more plain ones; then explicit priority; see ``RoutePattern``
///   for the syntax.
///   Its cost depends on the URL's length, not on the number of routes, except that
///   routes sharing one path and differing only in query, fragment or priority are tried
///   one by one.
/// - Unmatched URLs go to the fallback for their scheme, then the global fallback, else
///   a ``RouteError``. A handler may decline (``RouteOutcome/declined``) to pass the URL on.
/// - External URLs (``URLOrigin/external``) must use an allowed scheme and cannot open
///   routes registered `inAppOnly`. Every failure is a typed ``RouteError``; no input
///   crashes the router.
/// - Thread-safe: routes may be registered while other threads open URLs. Handlers run
///   outside the router's lock, so a handler may itself open URLs or register routes.
public final class ServiceRouter: Sendable {
    /// The registry services are resolved from, at open time.
    public let registry: ServiceRegistry
    /// The router's configuration, fixed at creation.
    public let configuration: Configuration

    let state = Lock(State())

    /// Why ``Configuration/parameterTypes`` cannot be used, or `nil` when they can. The
    /// configuration is fixed, so its types are checked once, here, rather than each time a
    /// pattern is read: the check compares each type's name with the others', which cost
    /// O(n²) in the number of types on every registration and every `url(for:)`.
    let parameterTypesProblem: RouteError?

    /// Everything that changes after creation, guarded by ``state``.
    struct State: Sendable {
        var trie = SegmentTrie<Route>()
        var schemeFallbacks: [String: any RouteAction] = [:]
        var globalFallback: (any RouteAction)?
        /// How many routes outside URLs may open (not in-app only), by scheme; a scheme
        /// without any is absent. Without an allow-list, these schemes and those with a
        /// fallback are the ones external URLs may use.
        var externalRouteCounts: [String: Int] = [:]

        /// Stores `route`, keeping ``externalRouteCounts`` in step.
        ///
        /// - Returns: The route it replaced (same pattern but for parameter names, same
        ///   priority), if any.
        mutating func insert(_ route: Route) -> Route? {
            let replaced = trie.insert(route)
            let scheme = route.pattern.scheme
            // One hash of the scheme for a new route; the count changes only when a route
            // outside URLs may open comes or goes.
            switch (route.isInAppOnly ? 0 : 1) - (replaced.map { $0.isInAppOnly ? 0 : 1 } ?? 0) {
            case 1:
                externalRouteCounts[scheme, default: 0] += 1
            case -1 where externalRouteCounts[scheme] == 1:
                externalRouteCounts[scheme] = nil
            case -1:
                externalRouteCounts[scheme, default: 1] -= 1
            default:
                break
            }
            return replaced
        }

        /// Whether an external URL of `scheme` is allowed when no allow-list is configured:
        /// a route it may open or a fallback for the scheme takes it. A scheme whose routes
        /// are all in-app only is not, so that none of its URLs reaches the global fallback.
        func allowsExternalURLs(ofScheme scheme: String) -> Bool {
            externalRouteCounts[scheme] != nil || schemeFallbacks[scheme] != nil
        }

        /// The schemes ``allowsExternalURLs(ofScheme:)`` allows, sorted.
        var externallyAllowedSchemes: [String] {
            Set(externalRouteCounts.keys).union(schemeFallbacks.keys).sorted()
        }
    }

    /// Creates a router that resolves its routes' services from `registry`.
    ///
    /// - Parameters:
    ///   - registry: Where services are resolved when a URL is opened; overrides
    ///     active at that moment (`withOverrides`) apply.
    ///   - configuration: Allowed external schemes, parsing limits and custom parameter types.
    public init(registry: ServiceRegistry = .shared, configuration: Configuration = Configuration()) {
        self.registry = registry
        self.configuration = configuration
        do {
            try ParameterType.check(configuration.parameterTypes)
            parameterTypesProblem = nil
        } catch {
            parameterTypesProblem = error
        }
    }

    /// Reads `text` with the configuration's parameter types, refusing it while they
    /// cannot be used.
    func readPattern(_ text: String) throws(RouteError) -> RoutePattern {
        if let parameterTypesProblem { throw parameterTypesProblem }
        return try RoutePattern(text, checkedParameterTypes: configuration.parameterTypes)
    }

    /// How many routes are registered.
    public var routeCount: Int {
        state.withLock { $0.trie.count }
    }
}
