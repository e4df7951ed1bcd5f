/// Reads pattern text into a ``RoutePattern``'s parts, reporting the first problem as a
/// ``RouteError/Reason/invalidPattern(pattern:problem:)``.
struct PatternParser {
    /// The parts of a parsed pattern.
    struct Parsed: Sendable {
        var scheme: String
        var hasAuthority: Bool
        var segments: [PatternSegment]
        var query: [QueryConstraint]
        var fragment: ValueConstraint?
        var canonical: String
    }

    let text: String
    let parameterTypes: [ParameterType]
    /// Whether ``ParameterType/check(_:)`` has accepted `parameterTypes` already (a router
    /// checks its configuration's once), so that reading the pattern need not.
    let typesAreChecked: Bool
    private var parameterNames: Set<String> = []
    /// The pattern's UTF-8. Patterns are parsed once, at registration, so one copy into an
    /// array (whose every index is checked) is cheap; pieces are slices of it.
    private let bytes: [UInt8]

    /// A piece of the pattern's UTF-8, split at ASCII delimiters, so it holds whole
    /// characters.
    typealias Piece = ArraySlice<UInt8>

    init(text: String, parameterTypes: [ParameterType], typesAreChecked: Bool = false) {
        self.text = text
        self.parameterTypes = parameterTypes
        self.typesAreChecked = typesAreChecked
        self.bytes = Array(text.utf8)
    }

    mutating func parse() throws(RouteError) -> Parsed {
        if !typesAreChecked, !parameterTypes.isEmpty { try ParameterType.check(parameterTypes) }
        // A ':' after '/', '?' or '#' starts a parameter (`book/:id`), not a scheme.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            !bytes[..<colon].contains(where: isPathQueryOrFragmentDelimiter)
        else {
            throw invalid("it has no scheme; write it as scheme://host/path, e.g. weread://book/:bookId")
        }
        let schemeBytes = bytes[..<colon]
        guard let first = schemeBytes.first, isASCIILetter(first),
            schemeBytes.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            throw invalid("the scheme must start with a letter and contain only letters, digits, '+', '-' or '.'")
        }
        let scheme = lowercased(schemeBytes)
        var rest = bytes[(colon + 1)...]
        if let byte = rest.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw invalid("it contains \(byte == 0x20 ? "a space" : "a control character"); percent-encode it")
        }
        if let brace = rest.firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            throw braceInPattern(rest[brace...])
        }

        var fragment: ValueConstraint?
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = try readFragment(rest[(hash + 1)...])
            rest = rest[..<hash]
        }
        var query: [QueryConstraint] = []
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = try readQuery(rest[(question + 1)...])
            rest = rest[..<question]
        }

        var segments: [PatternSegment] = []
        let hasAuthority = rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
        if hasAuthority {
            let start = rest.startIndex + 2
            let end = rest[start...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            segments.append(try readHost(rest[start..<end]))
            rest = rest[end...]
        }
        for piece in rest.split(separator: UInt8(ascii: "/")) {
            if case .wildcard? = segments.last {
                throw invalid("the wildcard '*' must be the last segment")
            }
            segments.append(try readSegment(piece))
        }
        query.sort { $0.name < $1.name }
        for (item, next) in zip(query, query.dropFirst()) where item.name == next.name {
            throw invalid("the query item '\(item.name)' is named twice")
        }
        let canonical = Self.render(
            scheme: scheme, hasAuthority: hasAuthority, segments: segments, query: query, fragment: fragment
        )
        return Parsed(
            scheme: scheme, hasAuthority: hasAuthority, segments: segments, query: query,
            fragment: fragment, canonical: canonical
        )
    }

    /// The error for a raw `{` or `}` (at the start of `rest`): most likely a parameter
    /// written as other routers write one (`{id}`, `{id:int}`), which this router would
    /// read as literal text, a route that matches only links spelling those braces.
    private func braceInPattern(_ rest: Piece) -> RouteError {
        let inside = rest.dropFirst().prefix { $0 != UInt8(ascii: "}") }
        let closed = rest.first == UInt8(ascii: "{") && inside.endIndex < rest.endIndex
        let name = inside.prefix { $0 != UInt8(ascii: ":") }
        let type = inside.dropFirst(name.count + 1)
        let isParameter = closed && isIdentifier(name)
        let parameter = suggestion(
            ":" + (isParameter ? Self.string(name) : "name"), type: isParameter && !type.isEmpty ? Self.string(type) : nil
        ).text
        let spelled = closed ? "{" + Self.string(inside) + "}" : Self.string(rest.prefix(1))
        return invalid(
            "it contains '\(spelled)', which is literal text here, not a parameter; write a parameter as \(parameter), "
                + "as a whole path segment or a query item's value, or a literal brace as %7B or %7D")
    }

    /// Reads the host, refusing what a URL's host could not be for what it is, in the
    /// order the URL parser checks: credentials, an IP literal, then a port.
    private mutating func readHost(_ authority: Piece) throws(RouteError) -> PatternSegment {
        let spelled = Self.string(authority)
        if authority.contains(UInt8(ascii: "@")) {
            throw invalid("the host '\(spelled)' contains credentials ('@'); remove the user part")
        }
        if authority.first == UInt8(ascii: "[") {
            throw invalid(
                "the host '\(spelled)' is an IP literal ('[...]'), which the router does not support (it refuses "
                    + "URLs with one as malformed); write a host name")
        }
        // An empty port is no port, as in a URL (RFC 3986 §3.2.3): `weread://book:/x` is
        // `weread://book/x`. A lone ':' stays a parameter without a name.
        let host = authority.count > 1 && authority.last == UInt8(ascii: ":") ? authority.dropLast() : authority
        // Digits after a ':' that does not start the host are a port, whether the host is a
        // literal, a parameter (`:screen:8080`) or a wildcard (`*:8080`).
        if let colon = host.dropFirst().lastIndex(of: UInt8(ascii: ":")), colon + 1 < host.endIndex,
            host[(colon + 1)...].allSatisfy(isASCIIDigit)
        {
            throw invalid(
                "the host '\(spelled)' names the port '\(Self.string(host[colon...]))'; "
                    + "routes match a host whatever the URL's port, so remove it")
        }
        let first = host.first
        if first == UInt8(ascii: ":") || first == UInt8(ascii: "*") {
            return try readSegment(host)
        }
        if host.contains(UInt8(ascii: ":")) {
            throw invalid(
                "the host '\(spelled)' contains ':', which would start a port in a URL; write a literal ':' as %3A")
        }
        return .literal(lowercasedASCII(try decode(host, what: "host")[...]))
    }

    private mutating func readSegment(_ piece: Piece) throws(RouteError) -> PatternSegment {
        switch piece.first {
        case UInt8(ascii: ":"):
            let (name, type) = try readCapture(piece.dropFirst(), in: "segment '\(Self.string(piece))'")
            return .parameter(name: name, type: type)
        case UInt8(ascii: "*"):
            let name = piece.dropFirst()
            if name.isEmpty {
                // Its value is read as `*`, a name `?*` could also capture under.
                try claim("*")
                return .wildcard(name: nil)
            }
            guard isIdentifier(name) else {
                throw wildcardWithType(piece) ?? invalid(
                    "the wildcard name '\(Self.string(name))' may contain only letters, digits and '_'")
            }
            try claim(Self.string(name))
            return .wildcard(name: Self.string(name))
        default:
            if let colon = parameterAfterStart(piece) { throw colonInsideSegment(piece, at: colon) }
            return .literal(try decode(piece, what: "segment '\(Self.string(piece))'"))
        }
    }

    /// The position of a ':' inside a literal segment that starts what reads as a parameter
    /// written after a prefix, as Express-style routers write one (`book-:id`, `file.:ext`):
    /// a name follows it, and a character that is not a letter or digit comes before it.
    /// `nil` for a segment such as `12:30`, `urn:isbn:978` or `é:x`, where a ':' is the
    /// text's own.
    private func parameterAfterStart(_ piece: Piece) -> Piece.Index? {
        guard var index = piece.indices.first else { return nil }
        while let colon = piece[(index + 1)...].firstIndex(of: UInt8(ascii: ":")) {
            if colon + 1 < piece.endIndex, isASCIILetter(piece[colon + 1]) || piece[colon + 1] == UInt8(ascii: "_"),
                !endsInLetterOrDigit(piece[..<colon])
            {
                return colon
            }
            index = colon
        }
        return nil
    }

    /// Whether the text `prefix` spells ends in a letter or digit, of any script.
    ///
    /// Read decoded, as the literal will match: `x%2D` ends in '-' as `x-` does, and
    /// `%C3%A9` in 'é' as `é` does; the raw byte before a ':' is a hex digit of an escape,
    /// or one byte of a character. A prefix that does not decode counts as ending in one,
    /// so the segment's decoding reports it (``decode(_:what:)``).
    private func endsInLetterOrDigit(_ prefix: Piece) -> Bool {
        // An ASCII byte that no escape ends in is the character itself: no decoding, so a
        // segment with many ':' stays linear to check.
        let last = prefix[prefix.endIndex - 1]
        let endsInEscape = prefix.count >= 3 && prefix[prefix.endIndex - 3] == UInt8(ascii: "%")
        if last < 0x80, !endsInEscape {
            return isASCIILetter(last) || isASCIIDigit(last)
        }
        guard let text = try? PercentEncoding.decode(prefix, plusAsSpace: false), let last = text.last else {
            return true
        }
        return last.isLetter || last.isNumber
    }

    /// The error for a literal segment with a parameter after a prefix (`book-:id`; see
    /// ``parameterAfterStart(_:)``).
    ///
    /// A parameter is a whole segment, so `book-:id` would be the literal text `book-:id`,
    /// which only a link spelling that text matches: the route would silently miss every
    /// `book-42`.
    private func colonInsideSegment(_ piece: Piece, at colon: Piece.Index) -> RouteError {
        let name = piece[(colon + 1)...].prefix(while: isNameByte)
        return invalid(
            "the segment '\(Self.string(piece))' contains ':\(Self.string(name))' after its start, but a parameter is "
                + "a whole segment (':\(Self.string(name))' alone between '/'), so it would match only that literal text; "
                + "give the parameter a segment of its own, or write a literal ':' as %3A")
    }

    /// The error for a wildcard written with a type (`*rest(int)`, `*(int)`), or `nil`
    /// when `piece` is not one: its name is then what is wrong.
    private func wildcardWithType(_ piece: Piece) -> RouteError? {
        let spec = piece.dropFirst()
        guard let open = spec.firstIndex(of: UInt8(ascii: "(")) else { return nil }
        let name = spec[..<open]
        guard name.isEmpty || isIdentifier(name) else { return nil }
        let type = Self.string(spec[(open + 1)...].prefix { $0 != UInt8(ascii: ")") })
        let wildcard = "*" + Self.string(name)
        let parameter = suggestion(":" + (name.isEmpty ? "name" : Self.string(name)), type: type)
        let oneSegment = parameter.text + (parameter.typed ? " to match one segment of that type" : " to match one segment")
        return invalid(
            "the wildcard '\(Self.string(piece))' has a type, which a wildcard cannot take: it matches the rest of "
                + "the path, any number of segments; write '\(wildcard)' and check the value in the handler, "
                + "or \(oneSegment)")
    }

    /// How a fix-it writes `parameter` (`:id`, `?q=:q`) with the type the pattern gave it:
    /// typed when this router knows the type; otherwise untyped, saying how a typed one is
    /// written, since a fix naming a type the router does not know would be refused next.
    /// `typed` tells which.
    private func suggestion(_ parameter: String, type: String?) -> (text: String, typed: Bool) {
        if let type, lookUpType(type) != nil { return ("'\(parameter)(\(type))'", true) }
        return ("'\(parameter)' ('\(parameter)(type)' for a typed one)", false)
    }

    /// Reads `name` or `name(type)` (the text after a `:`).
    private mutating func readCapture(
        _ spec: Piece, in context: @autoclosure () -> String
    ) throws(RouteError) -> (String, ParameterType?) {
        var name = spec
        var type: ParameterType?
        if let open = spec.firstIndex(of: UInt8(ascii: "(")) {
            guard spec.last == UInt8(ascii: ")") else {
                throw invalid("in \(context()), a parameter type is written ':name(type)' with a closing ')' at the end")
            }
            // `open` is before the closing ')', which is the last byte, so the range is valid.
            let typeName = Self.string(spec[(open + 1)..<(spec.endIndex - 1)])
            guard let found = lookUpType(typeName) else {
                let known = (ParameterType.builtIn.map(\.name) + parameterTypes.map(\.name))
                throw invalid("in \(context()), the parameter type '\(typeName)' is unknown (known: \(Set(known).sorted().joined(separator: ", "))); add custom types to Configuration.parameterTypes")
            }
            type = found
            name = spec[..<open]
        }
        guard isIdentifier(name) else {
            throw invalid("in \(context()), a parameter name must be one or more letters, digits or '_'")
        }
        try claim(Self.string(name))
        return (Self.string(name), type)
    }

    private mutating func readQuery(_ query: Piece) throws(RouteError) -> [QueryConstraint] {
        var constraints: [QueryConstraint] = []
        for item in query.split(separator: UInt8(ascii: "&")) {
            // A URL's query reads `+` as a space by default (URLParsingOptions.decodesPlusAsSpace),
            // a pattern could not say which it means.
            guard !item.contains(UInt8(ascii: "+")) else {
                throw invalid(
                    "the query item '\(Self.string(item))' contains '+', which URLs read as a space; "
                        + "write %20 for a space or %2B for a plus sign")
            }
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let rawName = equals.map { item[..<$0] } ?? item
            if rawName.first == UInt8(ascii: ":") {
                throw queryNameStartingWithColon(rawName, value: equals.map { item[($0 + 1)...] })
            }
            let name = try decode(rawName, what: "query item name '\(Self.string(rawName))'")
            guard !name.isEmpty else { throw invalid("a query item has no name") }
            let rawValue = equals.map { item[($0 + 1)...] } ?? []
            if rawValue.isEmpty {
                try claim(name)
                constraints.append(QueryConstraint(name: name, value: .capture(name: name, type: nil)))
            } else if rawValue.first == UInt8(ascii: ":") {
                let (parameter, type) = try readCapture(rawValue.dropFirst(), in: "query item '\(name)'")
                constraints.append(QueryConstraint(name: name, value: .capture(name: parameter, type: type)))
            } else {
                let value = try decode(rawValue, what: "value of query item '\(name)'")
                constraints.append(QueryConstraint(name: name, value: .literal(value)))
            }
        }
        return constraints
    }

    /// The error for a query item name written with a leading `:` (`?:x`): a parameter's
    /// sigil where the item's name goes, almost certainly meant as a capture, which would
    /// otherwise require an item literally named `:x`.
    private func queryNameStartingWithColon(_ rawName: Piece, value rawValue: Piece?) -> RouteError {
        let spec = Self.string(rawName.dropFirst())
        let name = String(spec.prefix { $0 != "(" })
        // Each spelling suggested must read: an item needs a name, and a capture a parameter
        // name of letters, digits and '_', which an item's own name need not be (`from-page`).
        let item = name.isEmpty ? "name" : name
        let nameIsIdentifier = isIdentifier(rawName.dropFirst().prefix { $0 != UInt8(ascii: "(") })
        let parameter = nameIsIdentifier ? name : "name"
        let meant: String
        if let rawValue {
            meant = "to require the item '\(item)' write '?\(item)=\(Self.string(rawValue))'"
        } else if spec == name, !name.isEmpty {
            meant = "to capture the item '\(name)' write '?\(name)'" + (nameIsIdentifier ? " or '?\(name)=:\(name)'" : "")
        } else {
            // `(type)`, or nothing.
            let typeSpec = spec.dropFirst(name.count)
            let capture = "?\(item)=:\(parameter)"
            if typeSpec.isEmpty {
                meant = "to capture the item '\(item)' write '\(capture)'"
            } else {
                let type = typeSpec.hasPrefix("(") && typeSpec.hasSuffix(")") ? typeSpec.dropFirst().dropLast() : nil
                meant = "to capture the item '\(item)' write " + suggestion(capture, type: type.map(String.init)).text
            }
        }
        return invalid(
            "the query item name '\(Self.string(rawName))' starts with ':', so it would require an item literally "
                + "named so; a query item is written '?name' (captured as 'name'), '?name=:param' or "
                + "'?name=:param(type)' (captured as 'param'), or '?name=value' (required to equal 'value'): "
                + "\(meant), or write a literal ':' as '%3A'")
    }

    private mutating func readFragment(_ fragment: Piece) throws(RouteError) -> ValueConstraint {
        guard !fragment.isEmpty else { throw invalid("the fragment after '#' is empty; remove the '#' or name it") }
        if fragment.first == UInt8(ascii: ":") {
            let (name, type) = try readCapture(fragment.dropFirst(), in: "the fragment")
            return .capture(name: name, type: type)
        }
        return .literal(try decode(fragment, what: "fragment"))
    }

    /// Records a parameter name, refusing duplicates: two captures with one name would
    /// make ``RouteParameters`` ambiguous.
    private mutating func claim(_ name: String) throws(RouteError) {
        guard parameterNames.insert(name).inserted else {
            throw invalid("the parameter name '\(name)' is used twice")
        }
    }

    private func lookUpType(_ name: String) -> ParameterType? {
        // ParameterType.check has made every name unique, built-ins included.
        ParameterType.builtIn.first(where: { $0.name == name }) ?? parameterTypes.first(where: { $0.name == name })
    }

    private func isIdentifier(_ name: Piece) -> Bool {
        !name.isEmpty && name.allSatisfy(isNameByte)
    }

    private static func string(_ piece: Piece) -> String {
        String(decoding: piece, as: UTF8.self)
    }

    private func lowercased(_ piece: Piece) -> String {
        String(decoding: piece.map { isASCIIUppercase($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private func decode(_ piece: Piece, what: @autoclosure () -> String) throws(RouteError) -> String {
        do {
            return try PercentEncoding.decode(piece, plusAsSpace: false)
        } catch {
            throw invalid("the \(what()) has bad percent-encoding (\(error.problem))")
        }
    }

    private func invalid(_ problem: String) -> RouteError {
        RouteError(.invalidPattern(pattern: text, problem: problem))
    }

    /// Spells parsed parts back as pattern text; literals are re-encoded so the result
    /// parses to the same pattern.
    static func render(
        scheme: String, hasAuthority: Bool, segments: [PatternSegment], query: [QueryConstraint],
        fragment: ValueConstraint?
    ) -> String {
        func spell(_ segment: PatternSegment, host: Bool) -> String {
            switch segment {
            case .literal(let text):
                return PercentEncoding.encode(text, allowing: host ? isAllowedInHost : PercentEncoding.isAllowedInPathSegment)
            case .parameter(let name, let type):
                return ":" + name + (type.map { "(\($0.name))" } ?? "")
            case .wildcard(let name):
                return "*" + (name ?? "")
            }
        }
        func spell(_ constraint: ValueConstraint, encoding isAllowed: (UInt8) -> Bool) -> String {
            switch constraint {
            case .literal(let text):
                // A leading ':' would read back as a capture, so it is always escaped.
                text.utf8.first == UInt8(ascii: ":")
                    ? "%3A" + PercentEncoding.encode(String(droppingFirstByte(text[...])), allowing: isAllowed)
                    : PercentEncoding.encode(text, allowing: isAllowed)
            case .capture(let name, let type): ":" + name + (type.map { "(\($0.name))" } ?? "")
            }
        }
        var result = scheme + ":"
        var path = segments[...]
        if hasAuthority, let host = path.first {
            result += "//" + spell(host, host: true)
            path = path.dropFirst()
        }
        for (offset, segment) in path.enumerated() {
            if hasAuthority || offset > 0 { result += "/" }
            result += spell(segment, host: false)
        }
        for (offset, item) in query.enumerated() {
            // A leading ':' in a name would read back as a mistyped capture (`?:x`), so it is escaped.
            result += (offset == 0 ? "?" : "&")
                + (item.name.utf8.first == UInt8(ascii: ":")
                    ? "%3A" + PercentEncoding.encode(String(droppingFirstByte(item.name[...])), allowing: PercentEncoding.isAllowedInQuery)
                    : PercentEncoding.encode(item.name, allowing: PercentEncoding.isAllowedInQuery))
            // `?q` captures `q` under the item's own name, which need not be an identifier
            // (`?from-page`), so that shorthand is kept rather than spelled `?q=:q`.
            if case .capture(item.name, nil) = item.value { continue }
            result += "=" + spell(item.value, encoding: PercentEncoding.isAllowedInQuery)
        }
        if let fragment {
            result += "#" + spell(fragment, encoding: PercentEncoding.isAllowedInFragment)
        }
        return result
    }
}

/// Bytes that may stand unescaped in a host: those of a path segment (which already
/// leave out `:`, which would read as a port), minus `@`, which would read as the end of
/// credentials.
func isAllowedInHost(_ byte: UInt8) -> Bool {
    byte != UInt8(ascii: "@") && PercentEncoding.isAllowedInPathSegment(byte)
}

/// `text` without its first byte, which the caller knows is an ASCII sigil (`:` or `*`).
/// `dropFirst()` would drop a whole `Character`, swallowing a combining mark after it.
func droppingFirstByte(_ text: Substring) -> Substring {
    guard !text.isEmpty else { return text }
    return text[text.utf8.index(after: text.startIndex)...]
}

/// Whether `byte` may be part of a parameter's or a parameter type's name: an ASCII letter,
/// digit or `_`.
func isNameByte(_ byte: UInt8) -> Bool {
    isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "_")
}
