/// The seed's URL + block scheme, done faithfully: at launch every component is
/// initialised and registers closures under URL strings; a call looks a closure up by
/// its URL and passes it an untyped `[String: Any]` dictionary; the caller casts the
/// `Any` it gets back.
///
/// Modelled on MGJRouter-style routers: the table is filled during launch and only read
/// after that (so, like them, reads take no lock), and the handler's dictionary carries
/// the caller's user info plus the URL itself under ``urlParameterKey``. URLs are matched
/// as whole strings, with no pattern parsing: the cheapest version of the scheme, which
/// flatters it.
final class URLBlockRouter: Sendable {
    /// What a URL is registered with: given the call's parameters and the router (to
    /// reach other components), returns the object, or `nil` when the parameters are wrong.
    typealias Handler = @Sendable (_ parameters: [String: Any], _ router: URLBlockRouter) -> Any?

    /// The key under which every call's parameters carry the URL called.
    static let urlParameterKey = "URLBlockRouter.url"

    /// Collects registrations while components initialise at launch.
    struct Registrar {
        fileprivate(set) var handlers: [String: Handler] = [:]

        /// Registers `handler` under `url`, replacing any earlier one.
        ///
        /// - Parameters:
        ///   - url: The whole URL string callers will use.
        ///   - handler: Builds or returns the object for that URL.
        mutating func register(_ url: String, handler: @escaping Handler) {
            handlers[url] = handler
        }
    }

    private let handlers: [String: Handler]

    /// A component: an object initialised at launch that registers its URLs.
    typealias Component = AnyObject & Sendable

    /// Initialises one component, which registers its URLs, and returns it.
    typealias Launcher = (inout Registrar) -> Component

    /// The components alive for the whole run: the scheme needs every one initialised at
    /// launch, and the handlers' captures keep them anyway.
    let components: [any Component]

    /// Launches the app's routing: initialises every component, in order, letting each
    /// register its URLs, then freezes the table.
    ///
    /// - Parameter launchers: One closure per component; each initialises its component
    ///   (which registers its URLs) and returns it.
    init(launching launchers: [Launcher]) {
        var registrar = Registrar()
        var components: [any Component] = []
        components.reserveCapacity(launchers.count)
        for launch in launchers {
            components.append(launch(&registrar))
        }
        self.handlers = registrar.handlers
        self.components = components
    }

    /// How many URLs are registered.
    var urlCount: Int { handlers.count }

    /// Calls the handler registered under `url`.
    ///
    /// - Parameters:
    ///   - url: The whole URL string.
    ///   - userInfo: The call's parameters, untyped.
    /// - Returns: What the handler returned, or `nil` when no handler is registered or
    ///   the handler rejected the parameters.
    func object(forURL url: String, userInfo: [String: Any] = [:]) -> Any? {
        guard let handler = handlers[url] else { return nil }
        var parameters = userInfo
        parameters[Self.urlParameterKey] = url
        return handler(parameters, self)
    }
}
