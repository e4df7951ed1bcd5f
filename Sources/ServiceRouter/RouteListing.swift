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
    /// The service type the handler runs against as written in code, such as
    /// `ReviewService`, as the registry's `DependencyGraph.Node.serviceType` and
    /// `ResolutionEvent.serviceType` write it.
    ///
    /// Two modules' types of one name read alike here; ``qualifiedServiceType`` tells them
    /// apart.
    public let serviceType: String
    /// The service type with the module and the types it is nested in, such as
    /// `WeReadInterfaces.ReviewService` (without the address the runtime puts in a private
    /// type's name), as the listing's ``description`` writes it.
    public let qualifiedServiceType: String
    /// The registration name of the service, if any.
    public let serviceName: String?
    /// The route's explicit priority.
    public let priority: Int
    /// Whether only app code may open the route.
    public let isInAppOnly: Bool

    /// `pattern → Module.Service`, with the name, priority and in-app-only flag when they
    /// apply.
    public var description: String {
        var text = "\(pattern) → \(qualifiedServiceType)"
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
                pattern: route.pattern.canonical, serviceType: TypeName.of(route.action.serviceType),
                qualifiedServiceType: TypeName.qualified(route.action.serviceType), serviceName: route.action.serviceName,
                priority: route.priority, isInAppOnly: route.isInAppOnly
            )
        }
        // Compared, not negated: `-Int.min` would trap.
        .sorted { $0.pattern != $1.pattern ? $0.pattern < $1.pattern : $0.priority > $1.priority }
    }
}
