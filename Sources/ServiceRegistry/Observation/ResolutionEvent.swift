/// A service a resolve built or handed out again, as reported to resolution observers.
///
/// ```swift
/// let token = registry.addResolutionObserver { event in
///     print("\(event.outcome) \(event.serviceType) (\(event.scope))")
/// }
/// _ = try registry.resolve(BookDetailService.self)
/// // built ReviewService (singleton)
/// // built BookDetailService (transient)
/// registry.removeResolutionObserver(token)
/// ```
///
/// Events are delivered on the resolving thread as each service is done, so a service's
/// dependencies are reported before the service itself. The event carries the instance
/// (when it is an object) so an observer can hold it weakly and see when it goes away; it
/// is not `Sendable` for that reason. An event kept keeps that instance, and nothing else
/// of the registry: not the registration, its factory or what the factory captured.
public struct ResolutionEvent {
    /// Whether the service was built or reused.
    public enum Outcome: Hashable, Sendable, CustomStringConvertible {
        /// The factory ran.
        case built
        /// A cached instance was handed out (a `.singleton`, a `.weak` instance still
        /// held, or a `.graph` instance within one resolve).
        case reused

        /// `built` or `reused`.
        public var description: String {
            switch self {
            case .built: "built"
            case .reused: "reused"
            }
        }
    }

    /// Whether the service was built or reused.
    public let outcome: Outcome
    /// The service type as written in code, such as `ReviewService`.
    ///
    /// Two modules' types of one name, such as each component's `Config`, read alike
    /// here; ``qualifiedServiceType`` tells them apart. Formatted when read, not for every
    /// event, so an observer that looks at some events only pays for those.
    public var serviceType: String { TypeName.of(service) }
    /// The service type with the module and the types it is nested in, such as
    /// `WeReadInterfaces.ReviewService`. Formatted when read, not for every event.
    public var qualifiedServiceType: String { TypeName.qualified(service) }
    /// The registration name, if any.
    public let name: String?
    /// The registration's scope.
    public let scope: Scope
    /// 0 for the service a top-level `resolve` asked for, 1 for its dependencies, and so on.
    public let depth: Int
    /// The instance, when it is a class instance (or an optional that wraps one); `nil`
    /// for a value type.
    public let instance: AnyObject?

    /// The service type, whose names ``serviceType`` and ``qualifiedServiceType`` format
    /// on demand. The type, not the registration that answered: an observer may keep its
    /// events, and a registration would keep its factory, what that captured and the
    /// instance it cached, also after it was replaced or its registry freed.
    let service: Any.Type
}

/// Identifies an observer added with ``ServiceRegistry/addResolutionObserver(_:)``.
public struct ResolutionObserverToken: Hashable, Sendable {
    let id: Int
}
