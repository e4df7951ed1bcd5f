extension RoutePattern {
    /// How many path segments every URL this pattern matches has, at least. The host is
    /// not a path segment, and a trailing wildcard may match none.
    var requiredPathSegmentCount: Int {
        var count = segments.count - (hasAuthority ? 1 : 0)
        if count > 0, case .wildcard = segments.last { count -= 1 }
        return count
    }

    /// How many UTF-8 bytes every URL this pattern matches has, at least.
    ///
    /// Only what every such URL must spell is counted: the scheme and its `:`; `//` before
    /// the host; a `/` before each path segment but a first one without a host
    /// (`mailto:someone`); a byte for each parameter segment, since a URL's empty path
    /// segments are dropped (the host alone may be empty: `weread:///a`); `?` or `&`, `=`
    /// and a non-empty value for each required query item; `#` and a non-empty fragment.
    ///
    /// A literal counts a byte for each of its ASCII characters, and at least one. Writing
    /// it percent-encoded only lengthens a URL, but literals match every canonically
    /// equivalent spelling (Swift compares strings that way), and one of its non-ASCII
    /// text may be shorter: `é` is two bytes, `e` and U+0301 three. No spelling saves an
    /// ASCII character, since no character decomposes into two of them.
    var minimumURLLength: Int {
        var length = scheme.utf8.count + 1
        var path = segments[...]
        if hasAuthority, let host = path.popFirst() {
            length += 2
            if case .literal(let text) = host { length += Self.minimumLength(ofLiteral: text) }
        }
        for (offset, segment) in path.enumerated() {
            let separator = hasAuthority || offset > 0 ? 1 : 0
            switch segment {
            case .literal(let text): length += separator + Self.minimumLength(ofLiteral: text)
            case .parameter: length += separator + 1
            // A trailing wildcard may match nothing, and needs no separator then.
            case .wildcard: break
            }
        }
        for item in query {
            length += 1 + Self.minimumLength(ofLiteral: item.name) + 1 + Self.minimumLength(of: item.value)
        }
        if let fragment {
            length += 1 + Self.minimumLength(of: fragment)
        }
        return length
    }

    private static func minimumLength(of constraint: ValueConstraint) -> Int {
        switch constraint {
        case .literal(let text): minimumLength(ofLiteral: text)
        // A captured value must not be empty.
        case .capture: 1
        }
    }

    private static func minimumLength(ofLiteral text: String) -> Int {
        text.isEmpty ? 0 : max(1, text.utf8.count(where: { $0 < 0x80 }))
    }
}
