import ServiceRegistry

extension ServiceRouter {
    /// Registers a route whose handler runs against a service resolved at open time.
    ///
    /// Registering parses the pattern and stores it with the handler; the service is not
    /// resolved and nothing is built until a matching URL is opened.
    ///
    /// ```swift
    /// try router.register("weread://shelf") { (shelf: any BookshelfService, request) in
    ///     shelf.entries.map(\.book.title)
    /// }
    /// ```
    ///
    /// A route is identified by what it matches and its priority. Registering, with the
    /// same priority, the same pattern again (after normalisation) or one that differs
    /// from it only in its parameter names (`weread://book/:id` and
    /// `weread://book/:bookID`, `?q=:text` and `?q=:query`, `*rest` and `*`) replaces the
    /// earlier route: both would match the same URLs, and one would never run. The later
    /// pattern is the one used afterwards: its handler reads its own parameter names, and
    /// ``routes`` and ``RouteRequest/pattern`` show it. With another priority, the two are
    /// separate routes, ranked by priority.
    ///
    /// The router keeps the handler, and what it captures, until it is replaced or the
    /// router is freed: a handler that captures its router keeps it alive for good.
    ///
    /// - Parameters:
    ///   - pattern: The URL pattern; see ``RoutePattern`` for the syntax.
    ///   - service: The service type, usually inferred from the handler's first parameter.
    ///   - serviceName: The registration name to resolve, or `nil` for the unnamed one.
    ///   - priority: Breaks ties between routes that are equally specific; higher first.
    ///   - inAppOnly: Whether only app code (``URLOrigin/inApp``) may open the route. By
    ///     default, a scheme whose routes are all in-app only is refused to outside URLs
    ///     (see ``Configuration/allowedExternalSchemes``).
    ///   - handler: Runs with the resolved service and the request; its return value is
    ///     what ``open(_:as:from:)`` returns.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/invalidPattern(pattern:problem:)``
    ///   when the pattern cannot be read, or when only URLs over the limits of
    ///   ``Configuration/parsing`` could match it; with reason
    ///   ``RouteError/Reason/invalidParameterType(name:problem:)`` while a type of
    ///   ``Configuration/parameterTypes`` cannot be used.
    public func register<Service, Result>(
        _ pattern: String,
        service: Service.Type = Service.self,
        serviceName: String? = nil,
        priority: Int = 0,
        inAppOnly: Bool = false,
        handler: @escaping @Sendable (Service, RouteRequest) throws -> Result
    ) throws(RouteError) {
        try add(pattern, priority, inAppOnly, ServiceAction(serviceName: serviceName, handler: .handles(handler)))
    }

    /// Registers a route whose handler may decline a URL, passing it to the next
    /// matching route and then to the fallbacks.
    ///
    /// ```swift
    /// try router.register("weread://book/:bookId(int)", priority: 1) { (catalog: any CatalogService, request) -> RouteOutcome<String> in
    ///     guard let book = catalog.book(withID: BookID(try request.parameters.int("bookId"))) else { return .declined }
    ///     return .handled(book.title)
    /// }
    /// ```
    ///
    /// Like every `register`, it replaces an earlier route of the same priority whose
    /// pattern differs at most in its parameter names.
    ///
    /// - Parameters:
    ///   - pattern: The URL pattern; see ``RoutePattern`` for the syntax.
    ///   - service: The service type, usually inferred from the handler's first parameter.
    ///   - serviceName: The registration name to resolve, or `nil` for the unnamed one.
    ///   - priority: Breaks ties between routes that are equally specific; higher first.
    ///   - inAppOnly: Whether only app code (``URLOrigin/inApp``) may open the route. By
    ///     default, a scheme whose routes are all in-app only is refused to outside URLs
    ///     (see ``Configuration/allowedExternalSchemes``).
    ///   - handler: Runs with the resolved service and the request; returns
    ///     ``RouteOutcome/handled(_:)`` or ``RouteOutcome/declined``.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/invalidPattern(pattern:problem:)``
    ///   when the pattern cannot be read, or when only URLs over the limits of
    ///   ``Configuration/parsing`` could match it; with reason
    ///   ``RouteError/Reason/invalidParameterType(name:problem:)`` while a type of
    ///   ``Configuration/parameterTypes`` cannot be used.
    public func register<Service, Result>(
        _ pattern: String,
        service: Service.Type = Service.self,
        serviceName: String? = nil,
        priority: Int = 0,
        inAppOnly: Bool = false,
        handler: @escaping @Sendable (Service, RouteRequest) throws -> RouteOutcome<Result>
    ) throws(RouteError) {
        try add(pattern, priority, inAppOnly, ServiceAction(serviceName: serviceName, handler: .mayDecline(handler)))
    }

    /// Registers a route whose service is registered with a resolve-time argument, made
    /// from the request (typically a parameter converted to an id type).
    ///
    /// ```swift
    /// try router.register("weread://book/:bookId(int)", argument: { BookID(try $0.parameters.int("bookId")) }) {
    ///     (detail: any BookDetailService, request) in detail.render()
    /// }
    /// ```
    ///
    /// Like every `register`, it replaces an earlier route of the same priority whose
    /// pattern differs at most in its parameter names.
    ///
    /// - Parameters:
    ///   - pattern: The URL pattern; see ``RoutePattern`` for the syntax.
    ///   - service: The service type, usually inferred from the handler's first parameter.
    ///   - serviceName: The registration name to resolve, or `nil` for the unnamed one.
    ///   - priority: Breaks ties between routes that are equally specific; higher first.
    ///   - inAppOnly: Whether only app code (``URLOrigin/inApp``) may open the route. By
    ///     default, a scheme whose routes are all in-app only is refused to outside URLs
    ///     (see ``Configuration/allowedExternalSchemes``).
    ///   - argument: Makes the resolve argument from the request. Keep it a pure
    ///     conversion: ``canOpen(_:from:)`` runs it to stay exact. What it throws reaches
    ///     the caller of `open` as the handler's errors do.
    ///   - handler: Runs with the resolved service and the request.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/invalidPattern(pattern:problem:)``
    ///   when the pattern cannot be read, or when only URLs over the limits of
    ///   ``Configuration/parsing`` could match it; with reason
    ///   ``RouteError/Reason/invalidParameterType(name:problem:)`` while a type of
    ///   ``Configuration/parameterTypes`` cannot be used.
    public func register<Service, Argument, Result>(
        _ pattern: String,
        service: Service.Type = Service.self,
        serviceName: String? = nil,
        priority: Int = 0,
        inAppOnly: Bool = false,
        argument: @escaping @Sendable (RouteRequest) throws -> Argument,
        handler: @escaping @Sendable (Service, RouteRequest) throws -> Result
    ) throws(RouteError) {
        let action = ArgumentServiceAction(serviceName: serviceName, argument: argument, handler: .handles(handler))
        try add(pattern, priority, inAppOnly, action)
    }

    /// Registers a route whose service takes a resolve-time argument and whose handler
    /// may decline the URL.
    ///
    /// Like every `register`, it replaces an earlier route of the same priority whose
    /// pattern differs at most in its parameter names.
    ///
    /// - Parameters:
    ///   - pattern: The URL pattern; see ``RoutePattern`` for the syntax.
    ///   - service: The service type, usually inferred from the handler's first parameter.
    ///   - serviceName: The registration name to resolve, or `nil` for the unnamed one.
    ///   - priority: Breaks ties between routes that are equally specific; higher first.
    ///   - inAppOnly: Whether only app code (``URLOrigin/inApp``) may open the route. By
    ///     default, a scheme whose routes are all in-app only is refused to outside URLs
    ///     (see ``Configuration/allowedExternalSchemes``).
    ///   - argument: Makes the resolve argument from the request; a pure conversion.
    ///   - handler: Runs with the resolved service and the request; returns
    ///     ``RouteOutcome/handled(_:)`` or ``RouteOutcome/declined``.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/invalidPattern(pattern:problem:)``
    ///   when the pattern cannot be read, or when only URLs over the limits of
    ///   ``Configuration/parsing`` could match it; with reason
    ///   ``RouteError/Reason/invalidParameterType(name:problem:)`` while a type of
    ///   ``Configuration/parameterTypes`` cannot be used.
    public func register<Service, Argument, Result>(
        _ pattern: String,
        service: Service.Type = Service.self,
        serviceName: String? = nil,
        priority: Int = 0,
        inAppOnly: Bool = false,
        argument: @escaping @Sendable (RouteRequest) throws -> Argument,
        handler: @escaping @Sendable (Service, RouteRequest) throws -> RouteOutcome<Result>
    ) throws(RouteError) {
        try add(pattern, priority, inAppOnly, ArgumentServiceAction(serviceName: serviceName, argument: argument, handler: .mayDecline(handler)))
    }

    private func add(_ text: String, _ priority: Int, _ inAppOnly: Bool, _ action: any ServiceRouteAction) throws(RouteError) {
        let pattern = try readPattern(text)
        try requireMatchableURLs(pattern, text)
        let route = Route(pattern: pattern, priority: priority, isInAppOnly: inAppOnly, action: action)
        // A route with the same pattern but for parameter names, and the same priority, is
        // replaced; it is dropped after the lock is released, since what its handler
        // captured may have a `deinit` that uses this router.
        let replaced = state.withLock { $0.insert(route) }
        withExtendedLifetime(replaced) {}
    }

    /// Refuses a pattern that only URLs over this router's parsing limits could match: the
    /// parser refuses every such URL before matching starts, so the route would sit in the
    /// trie and never run.
    private func requireMatchableURLs(_ pattern: RoutePattern, _ text: String) throws(RouteError) {
        let limits = configuration.parsing
        let problem: String
        // The parser counts segments and items only as it meets them, so a URL with none
        // passes those limits whatever their value, even one below zero.
        if pattern.requiredPathSegmentCount > max(0, limits.maximumSegmentCount) {
            problem = "it needs \(RouteError.count(pattern.requiredPathSegmentCount, "path segment")) but URLs may have at most \(limits.maximumSegmentCount) (URLParsingOptions.maximumSegmentCount), so it could never match"
        } else if pattern.query.count > max(0, limits.maximumQueryItemCount) {
            problem = "it needs \(RouteError.count(pattern.query.count, "query item")) but URLs may have at most \(limits.maximumQueryItemCount) (URLParsingOptions.maximumQueryItemCount), so it could never match"
        } else if pattern.minimumURLLength > limits.maximumLength {
            problem = "the URLs it matches are at least \(pattern.minimumURLLength) bytes long but URLs may be at most \(limits.maximumLength) (URLParsingOptions.maximumLength), so it could never match"
        } else {
            return
        }
        throw RouteError(.invalidPattern(pattern: text, problem: problem))
    }
}
