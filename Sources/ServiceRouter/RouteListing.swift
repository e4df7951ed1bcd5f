import ServiceRegistry

/// One row of a router's route listing, for documentation and debugging.
///
/// ```swift
/// for route in router.routes { print(route) }
/// // weread://book/:bookId(int) → WeReadInterfaces.BookDetailService
/// // weread://debug/reset → App.DebugService (in-app only)
/// ```
public struct RouteDescription: Sendable, Hashable, CustomStringConvertible {
    /// The route's canonical pattern.
    public let pattern: String
    /// The fully qualified name of the service type the handler runs against, such as
    /// `WeReadInterfaces.ReviewService` (without the address the runtime puts in a private
    /// type's name).
    public let serviceType: String
    /// The registration name of the service, if any.
    public let serviceName: String?
    /// The route's explicit priority.
    public let priority: Int
    /// Whether only app code may open the route.
    public let isInAppOnly: Bool

    /// `pattern → Service`, with the name, priority and in-app-only flag when they apply.
    public var description: String {
        var text = "\(pattern) → \(serviceType)"
        // As the registry's errors write it: quotes escaped, invisible characters spelled out.
        if let serviceName { text += " (name: \(TypeName.literal(serviceName)))" }
        if priority != 0 { text += " [priority \(priority)]" }
        if isInAppOnly { text += " (in-app only)" }
        return text
    }
}

extension ServiceRouter {
    /// Every registered route, sorted by pattern and then by priority (highest first).
    ///
    /// Type names are formatted here, on demand, never while registering or matching.
    public var routes: [RouteDescription] {
        let stored = state.withLock { $0.trie.allRoutes }
        return stored.map { route in
            RouteDescription(
                pattern: route.pattern.canonical, serviceType: route.action.serviceTypeName,
                serviceName: route.action.serviceName, priority: route.priority, isInAppOnly: route.isInAppOnly
            )
        }
        // Compared, not negated: `-Int.min` would trap.
        .sorted { $0.pattern != $1.pattern ? $0.pattern < $1.pattern : $0.priority > $1.priority }
    }
}
