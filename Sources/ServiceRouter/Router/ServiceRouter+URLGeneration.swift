extension ServiceRouter {
    /// Builds a URL for `pattern` from parameter values, with this router's parameter
    /// types; opening the result reaches the route registered with that pattern, unless a
    /// route that ranks above it matches the URL too: a value that spells another route's
    /// literal (`new` for `weread://book/:slug` beside `weread://book/new`) opens that one.
    ///
    /// The URL is built from `pattern` alone, which need not be registered. A pattern that
    /// a later registration replaced (one differing from it only in parameter names) still
    /// builds URLs, with its own names, and they open the route that replaced it.
    ///
    /// ```swift
    /// let url = try router.url(for: "weread://book/:bookId(int)", parameters: ["bookId": 42], query: [QueryItem(name: "from", value: "share")])
    /// // "weread://book/42?from=share"
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: A route pattern; see ``RoutePattern``.
    ///   - parameters: A value for every parameter of the pattern, by name. A wildcard
    ///     left out matches nothing: `weread://web/*path` without `path` is `weread://web`.
    ///   - query: Extra query items to append. One named like an item the pattern fixes or
    ///     captures must have the value the pattern gives it (it is then written once). Each
    ///     needs a name or a value: `QueryItem(name: "", value: nil)` has no text in a URL.
    ///   - fragment: A fragment, for a pattern that does not fix or capture one; for one
    ///     that does, it must equal the pattern's.
    /// - Returns: The percent-encoded URL text.
    /// - Throws: ``RouteError`` for an invalid pattern (or custom parameter type), a
    ///   missing, unknown or ill-typed parameter value (a host value with capital letters
    ///   counts as ill-typed, since a URL's host is read in lowercase; so does a wildcard
    ///   value with an empty segment, since a URL's empty segments are dropped), an extra
    ///   query item or fragment the pattern already gives another value
    ///   (``RouteError/Reason/conflictingQueryItem(name:value:pattern:)``,
    ///   ``RouteError/Reason/conflictingFragment(value:pattern:)``: a URL opened would keep
    ///   only the pattern's), an extra query item with neither a name nor a value
    ///   (``RouteError/Reason/emptyQueryItem(pattern:)``: a URL has no text for it), or, as
    ///   opening would, for a URL over this router's limits
    ///   (``URLParsingOptions``): too long, too many path segments or query items.
    public func url(
        for pattern: String,
        parameters: [String: any CustomStringConvertible] = [:],
        query: [QueryItem] = [],
        fragment: String? = nil
    ) throws(RouteError) -> String {
        let url = try readPattern(pattern)
            .url(parameters: parameters, query: query, fragment: fragment)
        // Refused here rather than when it is opened, far from the values that made it too big.
        _ = try RouteURL(url, options: configuration.parsing)
        return url
    }
}
