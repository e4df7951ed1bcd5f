/// What the trie needs to know about a stored route.
protocol TrieRoute: Sendable {
    /// The route's pattern.
    var pattern: RoutePattern { get }
    /// The route's explicit priority, higher first.
    var priority: Int { get }
}

/// A trie of pattern segments: matching a URL walks one edge per URL segment, so its cost
/// depends on the URL's length, not on how many routes are stored. The exception is the
/// routes ending at one node (the same path, differing in query, fragment or priority):
/// they are checked in turn, in precedence order, each against the URL's query items.
///
/// Nodes live in one flat array and refer to their children by index. Reading a child is
/// then an array access rather than a copy of a nested value, and inserting never moves
/// existing nodes. Each node has literal children (a dictionary keyed by decoded segment),
/// typed-parameter children (sorted by type name), at most one plain-parameter child, and
/// two route lists: routes that end at the node and routes whose wildcard starts there.
///
/// The trie is a plain value with no locking; ``ServiceRouter`` keeps it inside its mutex.
struct SegmentTrie<Route: TrieRoute>: Sendable {
    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var typed: [(type: ParameterType, child: Int)] = []
        var parameter: Int?
        /// Routes ending here, sorted by ``RoutePrecedence/precedesAtSameNode(_:_:)``.
        var exact: [Route] = []
        /// Routes whose trailing wildcard starts here, sorted the same way.
        var wildcard: [Route] = []
    }

    private struct Roots: Sendable {
        var withAuthority: Int
        var withoutAuthority: Int
    }

    private var nodes: [Node] = []
    private var roots: [String: Roots] = [:]

    /// How many routes are stored.
    private(set) var count = 0

    /// Adds `route`, or replaces the stored route with the same shape and priority: the same
    /// pattern but for its parameter names (``RoutePattern/compareShapes(_:_:)``).
    ///
    /// - Parameter route: The route to store.
    /// - Returns: The route it replaced, if any.
    @discardableResult
    mutating func insert(_ route: Route) -> Route? {
        let pattern = route.pattern
        var node = root(for: pattern.scheme, authority: pattern.hasAuthority)
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                if let child = nodes[node].literals[text] {
                    node = child
                } else {
                    let child = makeNode()
                    nodes[node].literals[text] = child
                    node = child
                }
            case .parameter(_, let type?):
                if let edge = nodes[node].typed.first(where: { $0.type.name == type.name }) {
                    node = edge.child
                } else {
                    let child = makeNode()
                    nodes[node].typed.append((type, child))
                    nodes[node].typed.sort { $0.type.name < $1.type.name }
                    node = child
                }
            case .parameter(_, nil):
                if let child = nodes[node].parameter {
                    node = child
                } else {
                    let child = makeNode()
                    nodes[node].parameter = child
                    node = child
                }
            case .wildcard:
                return store(Self.insert(route, into: &nodes[node].wildcard))
            }
        }
        return store(Self.insert(route, into: &nodes[node].exact))
    }

    private mutating func store(_ replaced: Route?) -> Route? {
        if replaced == nil { count += 1 }
        return replaced
    }

    /// The best route matching `url` among those `isEligible` accepts.
    ///
    /// Routes whose query or fragment requirements the URL does not meet are never
    /// returned. The walk prunes by precedence: once a literal child yields a match, the
    /// parameter and wildcard alternatives at that position cannot win and are skipped.
    ///
    /// - Parameters:
    ///   - url: The parsed URL.
    ///   - isEligible: A further filter (the router's in-app-only rule); it must be cheap.
    /// - Returns: The winning route, or `nil`.
    func bestMatch(for url: RouteURL, where isEligible: (Route) -> Bool) -> Route? {
        guard let roots = roots[url.scheme] else { return nil }
        let root = url.host == nil ? roots.withoutAuthority : roots.withAuthority
        return search(root, url, position: 0, relaxed: false, isEligible)
    }

    /// The route that would match `url` if parameter types and query and fragment
    /// requirements were ignored, for explaining why nothing matched.
    ///
    /// - Parameters:
    ///   - url: The parsed URL.
    ///   - isEligible: A further filter.
    /// - Returns: The closest route, or `nil` when even the relaxed walk finds none.
    func nearestMiss(for url: RouteURL, where isEligible: (Route) -> Bool) -> Route? {
        guard let roots = roots[url.scheme] else { return nil }
        let root = url.host == nil ? roots.withoutAuthority : roots.withAuthority
        return search(root, url, position: 0, relaxed: true, isEligible)
    }

    /// Every route matching `url` that `isEligible` accepts, best first.
    ///
    /// Used when a handler declines and the next candidate must be tried; the common path
    /// uses ``bestMatch(for:where:)``, which allocates nothing.
    ///
    /// - Parameters:
    ///   - url: The parsed URL.
    ///   - isEligible: A further filter.
    /// - Returns: The matching routes in precedence order.
    func allMatches(for url: RouteURL, where isEligible: (Route) -> Bool) -> [Route] {
        guard let roots = roots[url.scheme] else { return [] }
        var found: [Route] = []
        collect(url.host == nil ? roots.withoutAuthority : roots.withAuthority, url, position: 0, into: &found) {
            isEligible($0) && Self.meetsRequirements($0.pattern, url)
        }
        return found.sorted { RoutePrecedence.precedes(($0.pattern, $0.priority), ($1.pattern, $1.priority)) }
    }

    /// Whether any route uses `scheme` (lowercase).
    func hasRoutes(forScheme scheme: String) -> Bool {
        roots[scheme] != nil
    }

    /// Whether any route of `scheme` (lowercase) is written with a host
    /// (`scheme://host/...`), or, for `false`, without one (`scheme:path`).
    func hasRoutes(forScheme scheme: String, withAuthority: Bool) -> Bool {
        guard let roots = roots[scheme] else { return false }
        let root = nodes[withAuthority ? roots.withAuthority : roots.withoutAuthority]
        return !root.literals.isEmpty || !root.typed.isEmpty || root.parameter != nil || !root.exact.isEmpty
            || !root.wildcard.isEmpty
    }

    /// Every stored route, in no particular order.
    var allRoutes: [Route] {
        nodes.flatMap { $0.exact + $0.wildcard }
    }

    private func search(
        _ node: Int, _ url: RouteURL, position: Int, relaxed: Bool, _ isEligible: (Route) -> Bool
    ) -> Route? {
        let count = url.matchSegmentCount
        if position == count {
            return firstEligible(nodes[node].exact, url, relaxed, isEligible)
                ?? firstEligible(nodes[node].wildcard, url, relaxed, isEligible)
        }
        let segment = url.matchSegment(at: position)
        if let child = nodes[node].literals[segment],
            let found = search(child, url, position: position + 1, relaxed: relaxed, isEligible)
        {
            return found
        }
        // Typed edges all rank the same at this position, so the deeper segments decide
        // between them; that needs the full comparison rather than "first found".
        var bestTyped: Route?
        for edge in nodes[node].typed where relaxed || edge.type.accepts(segment) {
            guard let found = search(edge.child, url, position: position + 1, relaxed: relaxed, isEligible) else {
                continue
            }
            if let current = bestTyped,
                !RoutePrecedence.precedes((found.pattern, found.priority), (current.pattern, current.priority))
            {
                continue
            }
            bestTyped = found
        }
        if let bestTyped { return bestTyped }
        if let child = nodes[node].parameter,
            let found = search(child, url, position: position + 1, relaxed: relaxed, isEligible)
        {
            return found
        }
        return firstEligible(nodes[node].wildcard, url, relaxed, isEligible)
    }

    private func collect(_ node: Int, _ url: RouteURL, position: Int, into found: inout [Route], _ accept: (Route) -> Bool) {
        found += nodes[node].wildcard.filter(accept)
        guard position < url.matchSegmentCount else {
            found += nodes[node].exact.filter(accept)
            return
        }
        let segment = url.matchSegment(at: position)
        if let child = nodes[node].literals[segment] {
            collect(child, url, position: position + 1, into: &found, accept)
        }
        for edge in nodes[node].typed where edge.type.accepts(segment) {
            collect(edge.child, url, position: position + 1, into: &found, accept)
        }
        if let child = nodes[node].parameter {
            collect(child, url, position: position + 1, into: &found, accept)
        }
    }

    private func firstEligible(_ routes: [Route], _ url: RouteURL, _ relaxed: Bool, _ isEligible: (Route) -> Bool) -> Route? {
        routes.first { isEligible($0) && (relaxed || Self.meetsRequirements($0.pattern, url)) }
    }

    /// Whether `url` has the query items and fragment `pattern` requires, with values of
    /// the right type. Captured values must be non-empty, like path segments.
    static func meetsRequirements(_ pattern: RoutePattern, _ url: RouteURL) -> Bool {
        for requirement in pattern.query {
            guard let value = url.queryValue(requirement.name), meets(requirement.value, value) else { return false }
        }
        if let requirement = pattern.fragment {
            guard let fragment = url.fragment, meets(requirement, fragment) else { return false }
        }
        return true
    }

    private static func meets(_ constraint: ValueConstraint, _ value: String) -> Bool {
        switch constraint {
        case .literal(let text): return value == text
        case .capture(_, let type): return !value.isEmpty && (type?.accepts(value) ?? true)
        }
    }

    /// Stores `route` in a node's sorted list, replacing the route with the same shape and
    /// priority if there is one, whatever its parameters are named.
    ///
    /// The list is sorted by ``RoutePrecedence/precedesAtSameNode(_:_:)``, a total order in
    /// which a route ties only with one of the same shape and priority. So a
    /// binary search finds both the route to replace and, when there is none, where the new
    /// one goes: O(log n) comparisons. Scanning the list instead made registering n routes
    /// that share a path and differ in their query, fragment or priority take O(n²)
    /// comparisons (2.4 s for 10,000 routes `app://h/page?id=v<i>`).
    private static func insert(_ route: Route, into list: inout [Route]) -> Route? {
        let key = (route.pattern, route.priority)
        var low = list.startIndex
        var high = list.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if RoutePrecedence.precedesAtSameNode((list[middle].pattern, list[middle].priority), key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        // `list[low]` is the first route that does not precede `route`: the tie, if any.
        if low < list.endIndex, list[low].priority == route.priority,
            RoutePattern.compareShapes(list[low].pattern, route.pattern) == .same
        {
            let replaced = list[low]
            list[low] = route
            return replaced
        }
        list.insert(route, at: low)
        return nil
    }

    private mutating func root(for scheme: String, authority: Bool) -> Int {
        if let roots = roots[scheme] {
            return authority ? roots.withAuthority : roots.withoutAuthority
        }
        let made = Roots(withAuthority: makeNode(), withoutAuthority: makeNode())
        roots[scheme] = made
        return authority ? made.withAuthority : made.withoutAuthority
    }

    private mutating func makeNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }
}
