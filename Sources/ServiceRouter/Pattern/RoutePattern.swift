/// A parsed route pattern: what URLs a route matches and which parameters it captures.
///
/// Syntax, `scheme://host/segment/...?item=value#fragment`:
///
/// | piece | matches |
/// |---|---|
/// | `book` | exactly that segment (percent-decoded; write a literal `:` as `%3A`) |
/// | `:bookId` | any one segment, captured as `bookId` |
/// | `:bookId(int)` | one segment its ``ParameterType`` accepts (`int`, `string`, `uuid`, custom) |
/// | `*` or `*path` | the rest of the path, zero or more segments (last segment only; no type) |
/// | `?q` or `?q=` | requires a non-empty query item `q`, captured as `q` |
/// | `?page=:page(int)` | requires query item `page`, captured as `page` if it is an int |
/// | `?tab=reviews` | requires the query item `tab` to equal `reviews` |
/// | `#:section` / `#reviews` | captures / requires the fragment |
///
/// A query item's name is literal text (a parameter goes after its `=`), so `?:q` is
/// refused: write `?q` or `?q=:q`, or `%3A` for a name that starts with `:`. A parameter
/// is a whole segment written with `:`, so `book-:id` and `{id}` are refused rather than
/// read as literal text (write `%3A`, `%7B` and `%7D` for literal ones; a `:` after a
/// letter or digit of any script, as in `12:30`, is literal as it stands). The host is
/// the first segment and may itself be a parameter (`weread://:screen`), but not an IP
/// literal (`[::1]`).
/// Routes match hosts whatever the URL's port, so a pattern names none; an empty one
/// (`weread://book:/:id`) is no port, as in a URL. Scheme and host literals are
/// case-insensitive for ASCII letters (a URL's host is lowercased only there); path
/// literals are case-sensitive. Literals compare as Swift strings do, by Unicode
/// canonical equivalence: a precomposed `é` matches `e` followed by U+0301, either way
/// round. Query items not named in the pattern are allowed and reach the handler through
/// ``RouteRequest/query(_:)``.
///
/// ```swift
/// let pattern = try RoutePattern("weread://book/:bookId(int)/reviews?sort=:order")
/// let url = try pattern.url(parameters: ["bookId": 42, "order": "newest first"])
/// // "weread://book/42/reviews?sort=newest%20first"
/// ```
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The parsed parts, in one immutable object: a pattern is copied on every match (into
    /// requests, between trie and router), and a copy is then one reference count.
    private let storage: Storage

    private final class Storage: Sendable {
        let text: String
        let parsed: PatternParser.Parsed

        init(text: String, parsed: PatternParser.Parsed) {
            self.text = text
            self.parsed = parsed
        }
    }

    /// Parses a pattern.
    ///
    /// - Parameters:
    ///   - text: The pattern, e.g. `weread://book/:bookId(int)`.
    ///   - parameterTypes: Types beyond the built-in ``ParameterType/int``,
    ///     ``ParameterType/string`` and ``ParameterType/uuid``, each with its own name, none
    ///     of those three.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/invalidPattern(pattern:problem:)``
    ///   saying which part is wrong, or ``RouteError/Reason/invalidParameterType(name:problem:)``
    ///   for a type of `parameterTypes` that cannot be used (a name no pattern can spell,
    ///   a built-in's name, or another type's).
    public init(_ text: String, parameterTypes: [ParameterType] = []) throws(RouteError) {
        try self.init(parsing: PatternParser(text: text, parameterTypes: parameterTypes))
    }

    /// Parses a pattern with parameter types that ``ParameterType/check(_:)`` has accepted
    /// already, as a router's are.
    ///
    /// - Parameters:
    ///   - text: The pattern.
    ///   - checkedParameterTypes: Custom types known to be usable.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/invalidPattern(pattern:problem:)``.
    init(_ text: String, checkedParameterTypes: [ParameterType]) throws(RouteError) {
        try self.init(parsing: PatternParser(text: text, parameterTypes: checkedParameterTypes, typesAreChecked: true))
    }

    private init(parsing parser: PatternParser) throws(RouteError) {
        var parser = parser
        let parsed = try parser.parse()
        let text = parser.text
        // Most patterns are written canonically; sharing the string then saves its copy.
        storage = Storage(text: parsed.canonical == text ? parsed.canonical : text, parsed: parsed)
    }

    /// The pattern as it was written.
    public var text: String { storage.text }
    /// The scheme, lowercased.
    var scheme: String { storage.parsed.scheme }
    /// Whether the pattern has a `//host` part (its first segment is then the host).
    var hasAuthority: Bool { storage.parsed.hasAuthority }
    /// The host (when ``hasAuthority``) and the path segments.
    var segments: [PatternSegment] { storage.parsed.segments }
    /// The required query items, sorted by name so that spelling order does not matter.
    var query: [QueryConstraint] { storage.parsed.query }
    /// The fragment requirement, if any.
    var fragment: ValueConstraint? { storage.parsed.fragment }
    /// The normalised spelling: two patterns with the same canonical form match the same
    /// URLs the same way, under the same parameter names. Patterns that differ only in
    /// their names match alike too, and are one route in a router
    /// (``compareShapes(_:_:)``).
    var canonical: String { storage.parsed.canonical }

    /// The normalised pattern (lowercased scheme and host, query items sorted).
    public var description: String { canonical }

    /// The names of every parameter the pattern captures, in the order of its canonical
    /// form (``description``): the path's, then the query's (sorted by item name), then the
    /// fragment's; an unnamed wildcard is listed as `*`.
    public var parameterNames: [String] {
        var names: [String] = []
        for segment in segments {
            switch segment {
            case .literal: break
            case .parameter(let name, _): names.append(name)
            case .wildcard(let name): names.append(name ?? "*")
            }
        }
        for item in query {
            if case .capture(let name, _) = item.value { names.append(name) }
        }
        if case .capture(let name, _)? = fragment { names.append(name) }
        return names
    }

    /// Two patterns are equal when they are the same after normalisation, parameter names
    /// included.
    ///
    /// `weread://book/:id` and `weread://book/:bookID` are not equal, since they capture
    /// under other names, though they match the same URLs: a router keeps only the one
    /// registered last (with the same priority).
    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool {
        lhs.canonical == rhs.canonical
    }

    /// Hashes the normalised form, consistently with ``==(_:_:)``.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonical)
    }
}
