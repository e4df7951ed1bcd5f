import ServiceRegistry

extension ServiceRouter {
    /// Explains why no route matched `url`: when a route matches it once parameter types
    /// and query and fragment requirements are ignored, the first requirement it fails
    /// becomes an ``RouteError/Reason/invalidParameter(name:value:expected:pattern:)``;
    /// otherwise ``RouteError/Reason/noRoute``.
    func explainMiss(_ url: RouteURL, from origin: URLOrigin) -> RouteError {
        let hasHost = url.host != nil
        let respelled = withHostFromPath(url)
        let lowercased = url.pathSegments.map { $0.lowercased() }
        let inLowercase = lowercased == url.pathSegments ? nil : url.withPathSegments(lowercased)
        let (nearest, onlyOtherForm, routeOfRespelled, routeInLowercase) = state.withLock { state in
            (
                state.trie.nearestMiss(for: url) { $0.admits(origin) },
                !state.trie.hasRoutes(forScheme: url.scheme, withAuthority: hasHost)
                    && state.trie.hasRoutes(forScheme: url.scheme, withAuthority: !hasHost),
                // Only a route the other spelling opens is named: advice that ends in another
                // error is none.
                respelled.flatMap { state.trie.bestMatch(for: $0) { $0.admits(origin) } },
                inLowercase.flatMap { state.trie.bestMatch(for: $0) { $0.admits(origin) } }
            )
        }
        guard let route = nearest else {
            var error = RouteError(.noRoute, url: url.string)
            // `weread:/book/42` for `weread://book/42`: every route of the scheme has the
            // other form, so none can match, and the fix is in the URL.
            if onlyOtherForm {
                error.routesOfSchemeHaveHost = !hasHost
            } else if let respelled, let routeOfRespelled {
                // `weread:///book/42`: a third '/' made the host empty and `book` a segment.
                // (More '/' do the same.)
                error.emptyHostRespelling = (respelled.string, routeOfRespelled.pattern.canonical)
            } else if let routeInLowercase {
                // `weread://book/Reviews`: paths match letter for letter.
                error.routeForPathInLowercase = routeInLowercase.pattern.canonical
            }
            return error
        }
        let pattern = route.pattern
        func invalid(_ name: String, _ value: String?, _ expected: String) -> RouteError {
            RouteError(.invalidParameter(name: name, value: value, expected: expected, pattern: pattern.canonical), url: url.string)
        }
        for (position, segment) in pattern.segments.enumerated() where position < url.matchSegmentCount {
            // A typed segment is checked as a typed capture is: only the host may be empty
            // (`weread:///x`), and `unmet` says then that the value may not be.
            if case .parameter(let name, let type?) = segment,
                let problem = unmet(.capture(name: name, type: type), url.matchSegment(at: position))
            {
                return invalid(name, url.matchSegment(at: position), problem)
            }
        }
        for requirement in pattern.query {
            // An item written without '=' (`?q`) is in the URL with an empty value, not missing.
            let value = url.queryValue(requirement.name)
                ?? (url.queryItems.contains { $0.name == requirement.name } ? "" : nil)
            if let problem = unmet(requirement.value, value) {
                var error = invalid(requirement.name, value, problem)
                // Only a captured value may be optional: a fixed one tells routes apart.
                if value == nil, case .capture = requirement.value { error.missingPart = .queryItem }
                return error
            }
        }
        if let requirement = pattern.fragment, let problem = unmet(requirement, url.fragment) {
            var name = "fragment"
            if case .capture(let captured, _) = requirement { name = captured }
            var error = invalid(name, url.fragment, problem)
            if url.fragment == nil, case .capture = requirement { error.missingPart = .fragment }
            return error
        }
        return RouteError(.noRoute, url: url.string)
    }

    /// `url` with its first path segment as its host (`weread://book/42` for
    /// `weread:///book/42`), when its host is empty and it has a path; `nil` otherwise.
    private func withHostFromPath(_ url: RouteURL) -> RouteURL? {
        guard url.host == "", !url.pathSegments.isEmpty,
            let colon = url.string.utf8.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        let afterSlashes = url.string[url.string.index(after: colon)...].drop { $0 == "/" }
        let text = String(url.string[...colon]) + "//" + afterSlashes
        guard let respelled = try? RouteURL(text, options: configuration.parsing), respelled.host?.isEmpty == false
        else { return nil }
        return respelled
    }

    /// What `value` should have been to meet `constraint`, or `nil` when it meets it.
    private func unmet(_ constraint: ValueConstraint, _ value: String?) -> String? {
        switch constraint {
        case .literal(let text):
            return value == text ? nil : "'\(text)'"
        case .capture(_, let type):
            guard let value else { return type?.description ?? "a non-empty value" }
            guard !value.isEmpty else { return ParameterType.expectation(ofNonEmpty: type) }
            guard let type, !type.accepts(value) else { return nil }
            return type.description
        }
    }
}
