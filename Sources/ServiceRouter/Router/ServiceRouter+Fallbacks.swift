import ServiceRegistry

extension ServiceRouter {
    /// Sets the handler for URLs no route takes: those of one scheme, or (with `nil`)
    /// all of them after the scheme's own fallback.
    ///
    /// A fallback also receives URLs every matching route declined. It does not receive
    /// external URLs refused for their scheme, nor external URLs that an in-app-only route
    /// matches and no public route takes (one that declines does not take it).
    ///
    /// ```swift
    /// router.setFallback(forScheme: "weread") { request in "WeRead cannot open \(request.url) yet" }
    /// router.setFallback { request in "Unsupported link: \(request.url)" }
    /// ```
    ///
    /// - Parameters:
    ///   - scheme: The scheme (any case, with or without the `:` or `://` after it), or
    ///     `nil` for the global fallback.
    ///   - handler: Runs with the request (no parameters); replaces an earlier fallback.
    public func setFallback<Result>(
        forScheme scheme: String? = nil,
        handler: @escaping @Sendable (RouteRequest) throws -> Result
    ) {
        replaceFallback(scheme, with: RequestAction(handler: { .handled(try handler($0)) }))
    }

    /// Sets a fallback that may decline a URL, as a route's handler may: a scheme's
    /// fallback that declines passes the URL on to the global fallback; when that declines
    /// too, opening fails with ``RouteError/Reason/declined(patterns:)``.
    ///
    /// ```swift
    /// router.setFallback(forScheme: "weread") { request -> RouteOutcome<String> in
    ///     request.url.host == "legacy" ? .handled("Please update WeRead") : .declined
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - scheme: The scheme (any case, with or without the `:` or `://` after it), or
    ///     `nil` for the global fallback.
    ///   - handler: Runs with the request (no parameters); replaces an earlier fallback.
    public func setFallback<Result>(
        forScheme scheme: String? = nil,
        handler: @escaping @Sendable (RouteRequest) throws -> RouteOutcome<Result>
    ) {
        replaceFallback(scheme, with: RequestAction(handler: handler))
    }

    /// Sets a fallback that runs against a service resolved at open time, such as a web
    /// view service that shows unknown `https` links.
    ///
    /// - Parameters:
    ///   - scheme: The scheme (any case, with or without the `:` or `://` after it), or
    ///     `nil` for the global fallback.
    ///   - service: The service type, usually inferred from the handler's first parameter.
    ///   - serviceName: The registration name to resolve, or `nil` for the unnamed one.
    ///   - handler: Runs with the resolved service and the request; replaces an earlier fallback.
    public func setFallback<Service, Result>(
        forScheme scheme: String? = nil,
        service: Service.Type = Service.self,
        serviceName: String? = nil,
        handler: @escaping @Sendable (Service, RouteRequest) throws -> Result
    ) {
        replaceFallback(scheme, with: ServiceAction(serviceName: serviceName, handler: .handles(handler)))
    }

    /// Sets a fallback that runs against a service resolved at open time and may decline
    /// the URL, passing it on to the global fallback.
    ///
    /// - Parameters:
    ///   - scheme: The scheme (any case, with or without the `:` or `://` after it), or
    ///     `nil` for the global fallback.
    ///   - service: The service type, usually inferred from the handler's first parameter.
    ///   - serviceName: The registration name to resolve, or `nil` for the unnamed one.
    ///   - handler: Runs with the resolved service and the request; replaces an earlier fallback.
    public func setFallback<Service, Result>(
        forScheme scheme: String? = nil,
        service: Service.Type = Service.self,
        serviceName: String? = nil,
        handler: @escaping @Sendable (Service, RouteRequest) throws -> RouteOutcome<Result>
    ) {
        replaceFallback(scheme, with: ServiceAction(serviceName: serviceName, handler: .mayDecline(handler)))
    }

    /// Removes the fallback for `scheme`, or the global one for `nil`.
    ///
    /// - Parameter scheme: The scheme (any case, with or without the `:` or `://` after it),
    ///   or `nil` for the global fallback.
    public func removeFallback(forScheme scheme: String? = nil) {
        replaceFallback(scheme, with: nil)
    }

    /// Stores `action` (or removes the fallback, for `nil`) and drops the one it replaces
    /// after the lock is released: whatever the old handler captured may have a `deinit`
    /// that uses this router, and taking the lock again there stops the program.
    private func replaceFallback(_ scheme: String?, with action: (any RouteAction)?) {
        let replaced = state.withLock { state -> (any RouteAction)? in
            if let scheme {
                let key = schemeKey(scheme)
                let old = state.schemeFallbacks[key]
                state.schemeFallbacks[key] = action
                return old
            }
            let old = state.globalFallback
            state.globalFallback = action
            return old
        }
        withExtendedLifetime(replaced) {}
    }
}
