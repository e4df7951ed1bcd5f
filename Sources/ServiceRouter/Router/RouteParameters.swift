import ServiceRegistry

/// The values a route's pattern captured from a URL, percent-decoded, read by name.
///
/// Typed accessors throw a ``RouteError`` (not a crash, not a silent default) when a value
/// is missing or does not convert, so a handler can simply `try` them:
///
/// ```swift
/// let id = try request.parameters.int("bookId")        // Int
/// let term = try request.parameters.string("term")     // String
/// let rest = request.parameters.wildcard               // what `*` matched, if any
/// ```
public struct RouteParameters: Sendable, Sequence, CustomStringConvertible {
    private let storage: [(name: String, value: String)]
    private let wildcardName: String?
    private let pattern: String?
    private let url: String?

    /// Creates parameters, for calling a handler directly in a test.
    ///
    /// ```swift
    /// let parameters = RouteParameters(["path": "help/faq"], wildcardName: "path")
    /// parameters.wildcard   // "help/faq", as for weread://web/help/faq and weread://web/*path
    /// ```
    ///
    /// - Parameters:
    ///   - values: The parameter values by name; an unnamed wildcard's is `*`.
    ///   - wildcardName: The name of the value ``wildcard`` gives, as the pattern's
    ///     `*name` names it; `nil` gives the unnamed wildcard's (`*`), when `values` has one.
    public init(_ values: [String: String], wildcardName: String? = nil) {
        self.storage = values.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        self.wildcardName = wildcardName ?? (values["*"] == nil ? nil : "*")
        self.pattern = nil
        self.url = nil
    }

    /// The parameters of a fallback's request: none, but a name asked for is reported as
    /// missing from the fallback, for `url`, rather than from a route.
    init(fallbackFor url: RouteURL) {
        self.storage = []
        self.wildcardName = nil
        self.pattern = RouteError.fallbackPattern
        self.url = url.string
    }

    /// Captures the values `pattern` matched in `url`. The caller has matched them, so
    /// the pattern's segments line up with the URL's.
    init(pattern: RoutePattern, url: RouteURL) {
        var storage: [(name: String, value: String)] = []
        var wildcardName: String?
        var position = 0
        let count = url.matchSegmentCount
        for segment in pattern.segments where position <= count {
            switch segment {
            case .literal:
                position += 1
            case .parameter(let name, _):
                if position < count { storage.append((name, url.matchSegment(at: position))) }
                position += 1
            case .wildcard(let name):
                var rest: [String] = []
                while position < count {
                    rest.append(url.matchSegment(at: position))
                    position += 1
                }
                wildcardName = name ?? "*"
                storage.append((name ?? "*", rest.joined(separator: "/")))
            }
        }
        for item in pattern.query {
            if case .capture(let name, _) = item.value, let value = url.queryValue(item.name) {
                storage.append((name, value))
            }
        }
        if case .capture(let name, _)? = pattern.fragment, let fragment = url.fragment {
            storage.append((name, fragment))
        }
        self.storage = storage
        self.wildcardName = wildcardName
        self.pattern = pattern.canonical
        self.url = url.string
    }

    /// The value captured as `name`, or `nil` when the pattern has no such parameter.
    ///
    /// - Parameter name: The parameter name as written in the pattern (an unnamed
    ///   wildcard is `*`).
    public subscript(name: String) -> String? {
        storage.first { $0.name == name }?.value
    }

    /// What the pattern's trailing wildcard matched: the remaining decoded segments
    /// joined with `/` (empty when it matched nothing); `nil` without a wildcard.
    ///
    /// A segment's own `/` (written `%2F`) looks here like a separator: `a%2Fb/c` and
    /// `a/b/c` both give `a/b/c`. Read `request.url.pathSegments` to tell them apart.
    public var wildcard: String? {
        wildcardName.flatMap { self[$0] }
    }

    /// The captured parameter names, in the order of the pattern's canonical form: the
    /// path's, then the query's by item name, then the fragment's. Parameters made with
    /// ``init(_:wildcardName:)`` have no pattern; their names are sorted.
    public var names: [String] {
        storage.map(\.name)
    }

    /// The value captured as `name`.
    ///
    /// - Parameter name: The parameter name.
    /// - Returns: The decoded value.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/missingParameter(name:pattern:)``
    ///   when the pattern has no such parameter (a fallback's request has none); its
    ///   description lists the names the pattern has.
    public func string(_ name: String) throws(RouteError) -> String {
        guard let value = self[name] else {
            throw RouteError.missingParameter(name, pattern: pattern, declared: names, url: url)
        }
        return value
    }

    /// The value captured as `name`, as an `Int`.
    ///
    /// It reads exactly what a `:name(int)` parameter matches (``ParameterType/int``): an
    /// optional `-` then ASCII digits. So `+5`, which `Int("+5")` would read, is refused
    /// here as a typed route refuses it.
    ///
    /// - Parameter name: The parameter name.
    /// - Returns: The value as a whole number.
    /// - Throws: ``RouteError`` when the parameter is missing, or with reason
    ///   ``RouteError/Reason/invalidParameter(name:value:expected:pattern:)`` when it is not
    ///   an optional `-` then digits, or does not fit in `Int`.
    public func int(_ name: String) throws(RouteError) -> Int {
        let text = try string(name)
        guard ParameterType.int.accepts(text), let number = Int(text) else {
            throw RouteError(
                .invalidParameter(name: name, value: text, expected: ParameterType.int.description, pattern: pattern),
                url: url)
        }
        return number
    }

    /// The value captured as `name`, converted with `T`'s `init?(_ description:)`.
    ///
    /// It accepts what that initializer accepts: `value("id", as: Int.self)` reads `+5`,
    /// which ``int(_:)`` and the `int` parameter type refuse.
    ///
    /// ```swift
    /// let ratio = try request.parameters.value("ratio", as: Double.self)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The parameter name.
    ///   - type: The type to convert to.
    /// - Returns: The converted value.
    /// - Throws: ``RouteError`` when the parameter is missing or does not convert.
    public func value<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws(RouteError) -> T {
        let text = try string(name)
        guard let converted = T(text) else {
            // No article before the type: "a" reads wrongly before many names (`Int64`).
            let expected = "a value of type \(TypeName.of(T.self))"
            throw RouteError(.invalidParameter(name: name, value: text, expected: expected, pattern: pattern), url: url)
        }
        return converted
    }

    /// Iterates over `(name, value)` pairs in the order of ``names``.
    ///
    /// - Returns: An iterator over the captured parameters.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        storage.makeIterator()
    }

    /// The parameters as `name=value` pairs, for messages and debugging.
    public var description: String {
        "[" + storage.map { "\($0.name)=\($0.value)" }.joined(separator: ", ") + "]"
    }
}
