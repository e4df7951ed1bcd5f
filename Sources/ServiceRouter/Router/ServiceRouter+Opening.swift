import ServiceRegistry

extension ServiceRouter {
    /// Opens `url`: finds the best route, resolves its service and runs its handler.
    ///
    /// ```swift
    /// try router.open("weread://book/42?from=push", from: .external)
    /// ```
    ///
    /// If the route's handler declines, the next matching route is tried, then the
    /// fallback for the scheme, then the global fallback. An external URL that no public
    /// route takes but an in-app-only route matches is refused instead, without fallbacks.
    ///
    /// While a handler, fallback or `argument:` closure runs, a URL it opens with this
    /// method or another that takes `from:` keeps the origin it is given: `.inApp` there
    /// lets an external link that reached the handler open in-app-only routes, so pass it
    /// only for a URL the app wrote itself. ``open(_:)`` inherits the origin instead.
    ///
    /// - Parameters:
    ///   - url: The URL text.
    ///   - origin: Where the URL came from; ``URLOrigin/external`` applies the scheme
    ///     allow-list and refuses in-app-only routes.
    /// - Throws: ``RouteError``: the URL is malformed or over a limit, its scheme is not
    ///   allowed, only in-app-only routes match, no route or fallback takes it (with the
    ///   closest route's unmet parameter when there is one), the service cannot be
    ///   resolved, or the handler fails.
    public func open(_ url: String, from origin: URLOrigin) throws(RouteError) {
        _ = try dispatch(url, from: origin)
    }

    /// Opens `url` with the origin of the URL being handled on this task: `.inApp` from app
    /// code, and `.external` from inside the handler, fallback or `argument:` closure of an
    /// external URL, so that a handler that opens another URL (a redirect) cannot lift an
    /// outside link past the scheme allow-list or into an in-app-only route.
    ///
    /// ```swift
    /// try router.register("weread://open?url=:target") { [weak router] (catalog: any CatalogService, request) in
    ///     try router?.open(try request.parameters.string("target"))   // external when the request is
    /// }
    /// ```
    ///
    /// The origin travels through the task: a `Task { }` started in the handler inherits
    /// it, but work sent to another thread otherwise (a dispatch queue, `Task.detached`)
    /// does not; pass `from: request.origin` there.
    ///
    /// - Parameter url: The URL text.
    /// - Throws: Everything ``open(_:from:)`` throws.
    public func open(_ url: String) throws(RouteError) {
        _ = try dispatch(url, from: nil)
    }

    /// Opens `url` and returns what the handler produced (open-for-object).
    ///
    /// ```swift
    /// let page = try router.open("weread://book/42", as: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL text.
    ///   - type: The type the handler returns.
    ///   - origin: Where the URL came from.
    /// - Returns: The handler's result.
    /// - Throws: Everything ``open(_:from:)`` throws, and
    ///   ``RouteError/Reason/resultTypeMismatch(expected:actual:pattern:)`` when the handler
    ///   returned another type.
    public func open<Value>(_ url: String, as type: Value.Type, from origin: URLOrigin) throws(RouteError) -> Value {
        try cast(dispatch(url, from: origin), url, as: type)
    }

    /// What `open(_:as:)` returns for the handler's `result`, or the type mismatch it throws.
    private func cast<Value>(_ result: (Any, String?), _ url: String, as type: Value.Type) throws(RouteError) -> Value {
        let (value, pattern) = result
        guard let typed = value as? Value else {
            // Named as code writes them (`(Int, Int)`, `String`), with modules only when
            // the two read the same (two modules' `BookPage`), as the registry names types.
            let names = TypeName.distinguishing([Value.self, Swift.type(of: value)])
            throw RouteError(.resultTypeMismatch(expected: names[0], actual: names[1], pattern: pattern), url: url)
        }
        return typed
    }

    /// Opens `url` and returns what the handler produced, with the origin of the URL being
    /// handled on this task, as ``open(_:)`` takes it: `.inApp` from app code, `.external`
    /// inside the handling of an external URL.
    ///
    /// ```swift
    /// let page = try router.open("weread://book/42", as: String.self)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL text.
    ///   - type: The type the handler returns.
    /// - Returns: The handler's result.
    /// - Throws: Everything ``open(_:as:from:)`` throws.
    public func open<Value>(_ url: String, as type: Value.Type) throws(RouteError) -> Value {
        try cast(dispatch(url, from: nil), url, as: type)
    }

    /// Whether ``open(_:from:)`` would reach a handler for `url`, without resolving or
    /// building anything.
    ///
    /// It is exact about everything decided before a handler runs: parsing and limits,
    /// the scheme allow-list, in-app-only routes, parameter types, required query items,
    /// fallbacks, whether the route's service is registered, and whether a route's
    /// `argument:` conversion succeeds. It cannot know whether a handler will decline.
    /// The conversion runs with `origin` as the origin a URL it opens or checks inherits,
    /// as it would in ``open(_:from:)``.
    ///
    /// - Parameters:
    ///   - url: The URL text.
    ///   - origin: Where the URL would come from.
    /// - Returns: `true` when opening would run a route's or fallback's handler.
    public func canOpen(_ url: String, from origin: URLOrigin) -> Bool {
        guard let parsed = try? RouteURL(url, options: configuration.parsing) else { return false }
        switch findRoute(parsed, from: origin) {
        case .route(let best):
            return best.action.canRun(in: registry, request: best.request(for: parsed, from: origin))
        case .miss(.unmatched(let fallbacks)):
            guard let fallback = fallbacks.first else { return false }
            return fallback.canRun(in: registry, request: fallbackRequest(parsed, origin))
        case .miss(.refused):
            return false
        }
    }

    /// Whether ``open(_:)`` would reach a handler for `url`: ``canOpen(_:from:)`` with the
    /// origin of the URL being handled on this task (`.inApp` from app code, `.external`
    /// inside the handling of an external URL), the one ``open(_:)`` would use.
    ///
    /// - Parameter url: The URL text.
    /// - Returns: `true` when opening would run a route's or fallback's handler.
    public func canOpen(_ url: String) -> Bool {
        canOpen(url, from: InheritedOrigin.current)
    }

    /// The request the best route for `url` would receive, without resolving its service
    /// or running its handler; fallbacks are not consulted.
    ///
    /// ```swift
    /// let request = try router.match("weread://book/42/reviews")
    /// request.pattern                // "weread://book/:bookId(int)/reviews"
    /// request.parameters["bookId"]   // "42"
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL text.
    ///   - origin: Where the URL would come from.
    /// - Returns: The matched route's canonical pattern and captured parameters.
    /// - Throws: ``RouteError`` as ``open(_:from:)`` would before running a handler; and,
    ///   since fallbacks are not consulted, ``RouteError/Reason/noRoute`` or
    ///   ``RouteError/Reason/invalidParameter(name:value:expected:pattern:)`` for a URL no
    ///   route takes even when a fallback would (its description then says so).
    public func match(_ url: String, from origin: URLOrigin) throws(RouteError) -> RouteRequest {
        let parsed = try RouteURL(url, options: configuration.parsing)
        switch findRoute(parsed, from: origin) {
        case .route(let best):
            return best.request(for: parsed, from: origin)
        case .miss(.unmatched(let fallbacks)):
            var error = explainMiss(parsed, from: origin)
            // `open` would hand the URL to a fallback: the error must not say it cannot.
            error.fallbackNotConsulted = !fallbacks.isEmpty
            throw error
        case .miss(.refused(let refusal)):
            throw error(for: refusal, parsed)
        }
    }

    /// ``match(_:from:)`` with the origin of the URL being handled on this task, the one
    /// ``open(_:)`` would use.
    ///
    /// - Parameter url: The URL text.
    /// - Returns: The matched route's canonical pattern and captured parameters.
    /// - Throws: Everything ``match(_:from:)`` throws.
    public func match(_ url: String) throws(RouteError) -> RouteRequest {
        try match(url, from: InheritedOrigin.current)
    }

    /// What the common path finds: kept small, because it is returned on every open. A
    /// miss is boxed, allocated only when no route takes the URL.
    private enum Found {
        case route(Route)
        indirect case miss(RouteMiss)
    }

    /// The best route for `url` from `origin`, or what to do without one, under one lock:
    /// the whole common path.
    private func findRoute(_ url: RouteURL, from origin: URLOrigin) -> Found {
        let allowList = configuration.allowedExternalSchemes
        return state.withLock { state in
            if origin != .external || (allowList?.contains(url.scheme) ?? state.allowsExternalURLs(ofScheme: url.scheme)),
                let route = state.trie.bestMatch(for: url, where: { $0.admits(origin) })
            {
                return .route(route)
            }
            return .miss(state.miss(for: url, from: origin, allowList: allowList))
        }
    }

    /// The error for an external URL refused outright.
    private func error(for refusal: RouteMiss.Refusal, _ url: RouteURL) -> RouteError {
        switch refusal {
        case .schemeNotInAllowList:
            // Sorted here, outside the lock: the list is configuration, not state.
            let allowed = configuration.allowedExternalSchemes?.sorted() ?? []
            return RouteError(.schemeNotAllowed(scheme: url.scheme, allowed: allowed), url: url.string)
        case .schemeNotAllowed(let allowed, let schemeRoutesAreInAppOnly):
            var error = RouteError(.schemeNotAllowed(scheme: url.scheme, allowed: allowed), url: url.string)
            // Set only when true: setting it copies the error's storage.
            if schemeRoutesAreInAppOnly { error.schemeRoutesAreInAppOnly = true }
            return error
        case .inAppOnly(let route):
            return RouteError(.inAppOnly(pattern: route.pattern.canonical), url: url.string)
        }
    }

    /// Opens `text` from `given`, or, for `nil`, from the origin of the URL being handled on
    /// this task. Handlers, fallbacks and `argument:` closures run with
    /// ``InheritedOrigin/current`` set to that origin, so a URL they open without `from:` is
    /// trusted no more than the one they handle.
    private func dispatch(_ text: String, from given: URLOrigin?) throws(RouteError) -> (Any, String?) {
        let url = try RouteURL(text, options: configuration.parsing)
        // One task-local read per open; a binding only when the origin changes, which app
        // code opening an in-app URL outside any handler (the common path) never does.
        let inherited = InheritedOrigin.current
        guard let given, given != inherited else { return try dispatch(url, text, from: inherited) }
        return try InheritedOrigin.bind(given) { () throws(RouteError) in try dispatch(url, text, from: given) }
    }

    private func dispatch(_ url: RouteURL, _ text: String, from origin: URLOrigin) throws(RouteError) -> (Any, String?) {
        switch findRoute(url, from: origin) {
        case .route(let best):
            switch try best.action.run(in: registry, request: best.request(for: url, from: origin)) {
            case .handled(let value):
                return (value, best.pattern.canonical)
            case .declined:
                return try dispatchAfterDecline(of: best, url, from: origin)
            }
        case .miss(.unmatched(let fallbacks)):
            if let handled = try runFallbacks(fallbacks, url, origin) { return handled }
            if !fallbacks.isEmpty { throw RouteError(.declined(patterns: []), url: text) }
            throw explainMiss(url, from: origin)
        case .miss(.refused(let refusal)):
            throw error(for: refusal, url)
        }
    }

    /// The rare path: the best route declined, so every other matching route is tried in
    /// precedence order, then the fallbacks.
    ///
    /// An external URL that an in-app-only route matches is then refused with
    /// ``RouteError/Reason/inAppOnly(pattern:)``, as when no public route matches it at
    /// all: public routes that decline it do not take it, so no fallback runs. What
    /// happens when every candidate declines is decided as for a URL no route takes
    /// (``RouteMiss``), from the same reading of the state as the candidates: a handler
    /// that changes routes or fallbacks before it declines changes what later opens do,
    /// not the rest of this one.
    private func dispatchAfterDecline(of declined: Route, _ url: RouteURL, from origin: URLOrigin) throws(RouteError) -> (Any, String?) {
        let allowList = configuration.allowedExternalSchemes
        let (candidates, miss) = state.withLock { state in
            (state.trie.allMatches(for: url) { $0.admits(origin) }, state.miss(for: url, from: origin, allowList: allowList))
        }
        var declinedPatterns = [declined.pattern.canonical]
        for candidate in candidates where candidate !== declined {
            switch try candidate.action.run(in: registry, request: candidate.request(for: url, from: origin)) {
            case .handled(let value): return (value, candidate.pattern.canonical)
            case .declined: declinedPatterns.append(candidate.pattern.canonical)
            }
        }
        switch miss {
        case .unmatched(let fallbacks):
            if let handled = try runFallbacks(fallbacks, url, origin) { return handled }
            throw RouteError(.declined(patterns: declinedPatterns), url: url.string)
        case .refused(let refusal):
            throw error(for: refusal, url)
        }
    }

    private func runFallbacks(_ fallbacks: [any RouteAction], _ url: RouteURL, _ origin: URLOrigin) throws(RouteError) -> (Any, String?)? {
        for fallback in fallbacks {
            if case .handled(let value) = try fallback.run(in: registry, request: fallbackRequest(url, origin)) {
                return (value, nil)
            }
        }
        return nil
    }

    private func fallbackRequest(_ url: RouteURL, _ origin: URLOrigin) -> RouteRequest {
        RouteRequest(url: url, parameters: RouteParameters(fallbackFor: url), pattern: nil, origin: origin)
    }
}
