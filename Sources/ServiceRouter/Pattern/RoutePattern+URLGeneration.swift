extension RoutePattern {
    /// Builds a URL that this pattern matches, percent-encoding every value.
    ///
    /// Values are checked against their parameter types and encoded for the part of the URL
    /// they land in, so any string (spaces, `/`, `?`, `%`, emoji, 中文) survives the round
    /// trip: matching the generated URL yields exactly the values given here. A `/` in a
    /// wildcard value separates segments, and in another path segment or the host it is
    /// escaped (`%2F`); in a query item or the fragment it stays as it is (as `?` does),
    /// since a URL reads it there as text.
    ///
    /// ```swift
    /// let pattern = try RoutePattern("weread://search?q=:term")
    /// try pattern.url(parameters: ["term": "红楼梦 & more"])
    /// // "weread://search?q=%E7%BA%A2%E6%A5%BC%E6%A2%A6%20%26%20more"
    /// ```
    ///
    /// - Parameters:
    ///   - parameters: A value for every parameter of the pattern, by name (an unnamed
    ///     wildcard is `*`); values are turned into text with `description`. A wildcard
    ///     left out matches nothing: `weread://web/*path` without `path` is `weread://web`.
    ///   - extraQuery: Extra query items appended after the ones the pattern requires. One
    ///     named like an item the pattern fixes or captures must have the value the pattern
    ///     gives it (it is then written once), since a URL opened reads only the first. Each
    ///     needs a name or a value: `QueryItem(name: "", value: nil)` has no text in a URL.
    ///   - extraFragment: A fragment, for a pattern that does not fix or capture one; for
    ///     one that does, it must equal the pattern's (a URL has one fragment).
    /// - Returns: The URL text.
    /// - Throws: ``RouteError`` with reason
    ///   ``RouteError/Reason/invalidParameter(name:value:expected:pattern:)`` for a missing
    ///   or ill-typed value (or a host value with capital letters, which a URL's host cannot
    ///   keep: it is read in lowercase; or a wildcard value with an empty segment, `a//b`,
    ///   `/a` or `a/`, which a URL cannot keep either), or
    ///   ``RouteError/Reason/missingParameter(name:pattern:)`` for a name the pattern does
    ///   not declare (its description lists those it does), or
    ///   ``RouteError/Reason/conflictingQueryItem(name:value:pattern:)`` or
    ///   ``RouteError/Reason/conflictingFragment(value:pattern:)`` for an extra query item or
    ///   fragment that the pattern already gives another value, or
    ///   ``RouteError/Reason/emptyQueryItem(pattern:)`` for an extra query item with neither
    ///   a name nor a value, which a URL cannot hold.
    public func url(
        parameters: [String: any CustomStringConvertible] = [:],
        query extraQuery: [QueryItem] = [],
        fragment extraFragment: String? = nil
    ) throws(RouteError) -> String {
        let names = parameterNames
        let declared = Set(names)
        for name in parameters.keys.sorted() where !declared.contains(name) {
            throw RouteError.missingParameter(name, pattern: canonical, declared: names, url: nil)
        }
        var result = scheme + ":"
        for (position, segment) in segments.enumerated() {
            let isHost = hasAuthority && position == 0
            result += isHost ? "//" : (hasAuthority || position > 0 ? "/" : "")
            let allowed: (UInt8) -> Bool
            if isHost { allowed = isAllowedInHost } else { allowed = PercentEncoding.isAllowedInPathSegment }
            switch segment {
            case .literal(let text):
                result += PercentEncoding.encode(text, allowing: allowed)
            case .parameter(let name, let type):
                // An empty segment would vanish when the URL is read back, so it is refused; an
                // empty host stays, but no typed parameter matches it.
                let value = try value(named: name, type: type, in: parameters, allowEmpty: isHost && type == nil)
                if isHost { try requireLowercaseHost(value[...], name: name, expected: type?.description) }
                result += PercentEncoding.encode(value, allowing: allowed)
            case .wildcard(let name):
                let value = parameters[name ?? "*"].map { String(describing: $0) } ?? ""
                let pieces = splitASCII(value[...], on: UInt8(ascii: "/"))
                // Empty segments are dropped when a URL is read, so a value with one would
                // come back changed ('a//b' as 'a/b').
                guard pieces.count == value.utf8.count(where: { $0 == UInt8(ascii: "/") }) + 1 || value.isEmpty else {
                    throw RouteError(.invalidParameter(
                        name: name ?? "*", value: value,
                        expected: "a path without empty segments (no '/' at either end, no '//')", pattern: canonical))
                }
                if isHost, let host = pieces.first { try requireLowercaseHost(host, name: name ?? "*", expected: nil) }
                if pieces.isEmpty, result.utf8.last == UInt8(ascii: "/"), !isHost {
                    result.removeLast()
                }
                result += pieces.map { PercentEncoding.encode(String($0), allowing: allowed) }.joined(separator: "/")
            }
        }
        var extraItems: [QueryItem] = []
        for extra in extraQuery {
            // Written, it would be nothing between its delimiters, which reading skips.
            if extra.name.isEmpty, extra.value == nil { throw RouteError(.emptyQueryItem(pattern: canonical)) }
            if try !repeatsThePattern(extra, parameters: parameters) { extraItems.append(extra) }
        }
        if let extraFragment, let fragment {
            try requireAgreement(fragment, extraFragment, parameters: parameters)
        }
        var items: [(String, String?)] = []
        for item in query {
            switch item.value {
            case .literal(let text):
                items.append((item.name, text))
            case .capture(let name, let type):
                items.append((item.name, try value(named: name, type: type, in: parameters, allowEmpty: false)))
            }
        }
        items += extraItems.map { ($0.name, $0.value) }
        for (offset, (name, value)) in items.enumerated() {
            result += offset == 0 ? "?" : "&"
            result += PercentEncoding.encode(name, allowing: PercentEncoding.isAllowedInQuery)
            if let value {
                result += "=" + PercentEncoding.encode(value, allowing: PercentEncoding.isAllowedInQuery)
            }
        }
        var fragmentText = extraFragment
        switch fragment {
        case .literal(let text)?: fragmentText = text
        case .capture(let name, let type)?: fragmentText = try value(named: name, type: type, in: parameters, allowEmpty: false)
        case nil: break
        }
        if let fragmentText {
            result += "#" + PercentEncoding.encode(fragmentText, allowing: PercentEncoding.isAllowedInFragment)
        }
        return result
    }

    /// Whether `extra` is an item the pattern writes already, with the same value (it is
    /// then written once). One named like a pattern's item with another value is refused:
    /// a URL opened reads only the first item of a name, the pattern's.
    private func repeatsThePattern(
        _ extra: QueryItem, parameters: [String: any CustomStringConvertible]
    ) throws(RouteError) -> Bool {
        guard let item = query.first(where: { $0.name == extra.name }) else { return false }
        guard extra.value != nil, extra.value == patternValue(item.value, parameters: parameters) else {
            var error = RouteError(.conflictingQueryItem(name: extra.name, value: extra.value, pattern: canonical))
            error.patternConstraint = item.value
            throw error
        }
        return true
    }

    /// Refuses a fragment that differs from the one the pattern fixes or captures: a URL
    /// has one fragment, so it would be lost.
    private func requireAgreement(
        _ fragment: ValueConstraint, _ extra: String, parameters: [String: any CustomStringConvertible]
    ) throws(RouteError) {
        guard extra != patternValue(fragment, parameters: parameters) else { return }
        var error = RouteError(.conflictingFragment(value: extra, pattern: canonical))
        error.patternConstraint = fragment
        throw error
    }

    /// The value the pattern writes for a query item or the fragment: its literal, or the
    /// capture's value from `parameters` (`nil` when none is given).
    private func patternValue(_ constraint: ValueConstraint, parameters: [String: any CustomStringConvertible]) -> String? {
        switch constraint {
        case .literal(let text): text
        case .capture(let name, _): parameters[name].map { String(describing: $0) }
        }
    }

    /// Refuses a host value with an ASCII capital letter: a URL's host is read in
    /// lowercase, so the value would not come back as given.
    private func requireLowercaseHost(_ value: Substring, name: String, expected: String?) throws(RouteError) {
        guard value.utf8.contains(where: isASCIIUppercase) else { return }
        throw RouteError(.invalidParameter(
            name: name, value: String(value),
            expected: (expected ?? "a value") + " without capital letters (a URL's host is read in lowercase)",
            pattern: canonical))
    }

    private func value(
        named name: String, type: ParameterType?, in parameters: [String: any CustomStringConvertible], allowEmpty: Bool
    ) throws(RouteError) -> String {
        let expected = type?.description ?? "a non-empty value"
        guard let given = parameters[name] else {
            throw RouteError(.invalidParameter(name: name, value: nil, expected: expected, pattern: canonical))
        }
        let value = String(describing: given)
        guard allowEmpty || !value.isEmpty else {
            throw RouteError(.invalidParameter(
                name: name, value: value, expected: ParameterType.expectation(ofNonEmpty: type), pattern: canonical))
        }
        guard type?.accepts(value) ?? true else {
            throw RouteError(.invalidParameter(name: name, value: value, expected: expected, pattern: canonical))
        }
        return value
    }
}
