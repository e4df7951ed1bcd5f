import ServiceRegistry

/// What runs when a route or a fallback is chosen: resolve the route's service (a
/// fallback has none), then call the handler. Registering captures only this small
/// object; nothing is resolved or built until a URL is opened.
protocol RouteAction: Sendable {
    /// Whether ``run(in:request:)`` would get as far as the handler: the service is
    /// registered (and any argument converts). Builds nothing.
    func canRun(in registry: ServiceRegistry, request: RouteRequest) -> Bool

    /// Resolves the service from `registry` and runs the handler.
    ///
    /// - Throws: ``RouteError``: a resolution failure as ``RouteError/Reason/serviceUnavailable(_:pattern:)``,
    ///   a `RouteError` of the handler or the argument closure unchanged, anything else
    ///   they throw as ``RouteError/Reason/handlerFailed(_:pattern:)``.
    func run(in registry: ServiceRegistry, request: RouteRequest) throws(RouteError) -> RouteOutcome<Any>
}

/// A route's action, which resolves a service that a route listing names. (A fallback's
/// action resolves none.)
protocol ServiceRouteAction: RouteAction {
    /// The service type, whose name is formatted only when a route listing asks for it.
    var serviceType: Any.Type { get }
    /// The registration name of the service, if any.
    var serviceName: String? { get }
}

extension RouteAction {
    /// Runs `body` (handler code), passing its `RouteError`s through and wrapping others.
    func callHandler<Value>(_ request: RouteRequest, _ body: () throws -> RouteOutcome<Value>) throws(RouteError) -> RouteOutcome<Any> {
        do {
            switch try body() {
            case .handled(let value): return .handled(value)
            case .declined: return .declined
            }
        } catch let error as RouteError {
            throw error
        } catch {
            throw handlerFailure(error, request)
        }
    }

    func unavailable(_ error: ResolutionError, _ request: RouteRequest) -> RouteError {
        RouteError(.serviceUnavailable(error, pattern: request.pattern ?? RouteError.fallbackPattern), url: request.url.string)
    }

    /// What a handler's (or an argument closure's) error other than a `RouteError` becomes.
    func handlerFailure(_ error: any Error, _ request: RouteRequest) -> RouteError {
        RouteError(.handlerFailed(error, pattern: request.pattern ?? RouteError.fallbackPattern), url: request.url.string)
    }
}

/// A route's handler as it was registered: one that always handles, or one that may
/// decline. Kept as written rather than wrapped in an adapting closure, which would cost
/// every route one more heap object.
enum RouteHandler<Service, Result>: Sendable {
    case handles(@Sendable (Service, RouteRequest) throws -> Result)
    case mayDecline(@Sendable (Service, RouteRequest) throws -> RouteOutcome<Result>)

    func callAsFunction(_ service: Service, _ request: RouteRequest) throws -> RouteOutcome<Result> {
        switch self {
        case .handles(let handler): .handled(try handler(service, request))
        case .mayDecline(let handler): try handler(service, request)
        }
    }
}

/// Resolves a service whose factory takes no argument, then runs the handler with it.
final class ServiceAction<Service, Result>: ServiceRouteAction {
    let serviceName: String?
    private let handler: RouteHandler<Service, Result>

    init(serviceName: String?, handler: RouteHandler<Service, Result>) {
        self.serviceName = serviceName
        self.handler = handler
    }

    var serviceType: Any.Type { Service.self }

    func canRun(in registry: ServiceRegistry, request: RouteRequest) -> Bool {
        registry.isRegistered(Service.self, name: serviceName)
    }

    func run(in registry: ServiceRegistry, request: RouteRequest) throws(RouteError) -> RouteOutcome<Any> {
        let service: Service
        do {
            service = try registry.resolve(Service.self, name: serviceName)
        } catch {
            throw unavailable(error, request)
        }
        return try callHandler(request) { try handler(service, request) }
    }
}

/// Resolves a service whose factory takes an argument made from the request (a
/// `BookID` from `:bookId`), then runs the handler with it.
final class ArgumentServiceAction<Service, Argument, Result>: ServiceRouteAction {
    let serviceName: String?
    private let argument: @Sendable (RouteRequest) throws -> Argument
    private let handler: RouteHandler<Service, Result>

    init(
        serviceName: String?, argument: @escaping @Sendable (RouteRequest) throws -> Argument,
        handler: RouteHandler<Service, Result>
    ) {
        self.serviceName = serviceName
        self.argument = argument
        self.handler = handler
    }

    var serviceType: Any.Type { Service.self }

    func canRun(in registry: ServiceRegistry, request: RouteRequest) -> Bool {
        // The argument closure is a pure conversion of the request, so running it here
        // keeps `canOpen` exact (an unconvertible id answers `false`) without side effects.
        // It runs with the request's origin, as in `open`, in case it opens or checks a URL.
        registry.isRegistered(Service.self, name: serviceName, argumentType: Argument.self)
            && InheritedOrigin.binding(request.origin) { (try? argument(request)) != nil }
    }

    func run(in registry: ServiceRegistry, request: RouteRequest) throws(RouteError) -> RouteOutcome<Any> {
        let value: Argument
        switch callArgument(request) {
        case .success(let made): value = made
        case .failure(let error): throw error
        }
        let service: Service
        do {
            service = try registry.resolve(Service.self, name: serviceName, argument: value)
        } catch {
            throw unavailable(error, request)
        }
        return try callHandler(request) { try handler(service, request) }
    }

    private func callArgument(_ request: RouteRequest) -> Swift.Result<Argument, RouteError> {
        do {
            return .success(try argument(request))
        } catch let error as RouteError {
            return .failure(error)
        } catch {
            return .failure(handlerFailure(error, request))
        }
    }
}

/// Runs a fallback handler that needs no service.
final class RequestAction<Result>: RouteAction {
    private let handler: @Sendable (RouteRequest) throws -> RouteOutcome<Result>

    init(handler: @escaping @Sendable (RouteRequest) throws -> RouteOutcome<Result>) {
        self.handler = handler
    }

    func canRun(in registry: ServiceRegistry, request: RouteRequest) -> Bool { true }

    func run(in registry: ServiceRegistry, request: RouteRequest) throws(RouteError) -> RouteOutcome<Any> {
        try callHandler(request) { try handler(request) }
    }
}
