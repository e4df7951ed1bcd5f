/// A registered route: its pattern, how it ranks, whether outside URLs may open it, and
/// the action that resolves its service. Immutable once registered.
final class Route: TrieRoute {
    let pattern: RoutePattern
    let priority: Int
    let isInAppOnly: Bool
    let action: any ServiceRouteAction

    init(pattern: RoutePattern, priority: Int, isInAppOnly: Bool, action: any ServiceRouteAction) {
        self.pattern = pattern
        self.priority = priority
        self.isInAppOnly = isInAppOnly
        self.action = action
    }

    /// Whether a URL from `origin` may be handled by this route.
    func admits(_ origin: URLOrigin) -> Bool {
        origin == .inApp || !isInAppOnly
    }

    /// The request this route's handler receives for `url`.
    func request(for url: RouteURL, from origin: URLOrigin) -> RouteRequest {
        RouteRequest(url: url, parameters: RouteParameters(pattern: pattern, url: url), pattern: pattern.canonical, origin: origin)
    }
}
