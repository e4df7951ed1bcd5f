/// A named constraint on a parameter's value, written `:name(type)` in a pattern.
///
/// A typed parameter matches only values its type accepts, and a route with a typed
/// parameter takes precedence over one with a plain `:name` at the same position, so
/// `weread://book/:bookId(int)` and `weread://book/:slug` can coexist. The built-in types
/// are ``int``, ``string`` and ``uuid``; add your own through
/// ``ServiceRouter/Configuration/parameterTypes``:
///
/// ```swift
/// let isbn = ParameterType(name: "isbn", description: "a 13-digit ISBN") { value in
///     value.utf8.count == 13 && value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
/// }
/// let router = ServiceRouter(registry: registry, configuration: .init(parameterTypes: [isbn]))
/// try router.register("weread://isbn/:code(isbn)") { (catalog: any CatalogService, request) in ... }
/// ```
public struct ParameterType: Sendable, CustomStringConvertible {
    /// One immutable object, so that copying a type while matching is one reference count.
    private let storage: Storage

    private final class Storage: Sendable {
        let name: String
        let description: String
        let accepts: @Sendable (String) -> Bool

        init(name: String, description: String, accepts: @escaping @Sendable (String) -> Bool) {
            self.name = name
            self.description = description
            self.accepts = accepts
        }
    }

    /// The name used in patterns, e.g. `int` in `:bookId(int)`.
    public var name: String { storage.name }
    /// What a valid value looks like, for error messages ("an int").
    public var description: String { storage.description }

    /// Creates a parameter type.
    ///
    /// - Parameters:
    ///   - name: The name used in patterns: one or more ASCII letters, digits and `_`, and
    ///     none of the built-in types' (`int`, `string`, `uuid`). A router refuses patterns
    ///     while its configuration has a type that breaks this, or two of one name.
    ///   - description: What a valid value looks like, shown in errors ("a 13-digit ISBN").
    ///   - accepts: Whether a decoded value is valid. It runs while matching, under the
    ///     router's lock, so keep it cheap, free of side effects, and away from the router.
    ///     It is never asked about an empty value, which no typed parameter matches, so it
    ///     may read `$0.first!`.
    public init(name: String, description: String, accepts: @escaping @Sendable (String) -> Bool) {
        storage = Storage(name: name, description: description, accepts: accepts)
    }

    /// Whether `value` (already percent-decoded) is valid for this type.
    ///
    /// An empty value never is, and the type's closure is not asked about one: no capture
    /// is empty but a URL's host (`weread:///x`), and the closure may take `$0.first!`.
    ///
    /// - Parameter value: A decoded parameter value.
    /// - Returns: `true` when a route with this type may match it.
    public func accepts(_ value: String) -> Bool {
        !value.isEmpty && storage.accepts(value)
    }

    /// A whole number that fits in `Int`: an optional `-` then ASCII digits (no `+`).
    ///
    /// ``RouteParameters/int(_:)`` reads exactly these values.
    public static let int = ParameterType(name: "int", description: "an int") { value in
        var digits = value.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        // `Int(_:)` returns nil on overflow rather than trapping, so long digit runs are safe.
        return !digits.isEmpty && digits.allSatisfy(isASCIIDigit) && Int(value) != nil
    }

    /// Any non-empty value; ranks as a typed parameter (above a plain `:name`).
    public static let string = ParameterType(name: "string", description: "a non-empty string") { value in
        !value.isEmpty
    }

    /// A UUID in its canonical text form, `8-4-4-4-12` hex digits in either case.
    public static let uuid = ParameterType(name: "uuid", description: "a UUID (8-4-4-4-12 hex digits)") { value in
        let utf8 = value.utf8
        guard utf8.count == 36 else { return false }
        for (offset, byte) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isASCIIDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f")) else {
                    return false
                }
            }
        }
        return true
    }

    /// The types every router knows without configuration.
    static let builtIn: [ParameterType] = [.int, .string, .uuid]

    /// What a capture of `type` must be, for an error about an empty value, which no capture
    /// but the host may have: the type's description, and for a custom type that the value
    /// may not be empty, since its description alone might say the value is what it must be
    /// (`{ $0.allSatisfy(...) }` accepts ''). A custom type is not asked whether it accepts
    /// '': its closure never sees an empty capture, and may rely on that (`$0.first!`), so
    /// asking could trap while an error about untrusted input is written. The built-in
    /// types refuse ''.
    static func expectation(ofNonEmpty type: ParameterType?) -> String {
        guard let type else { return "a non-empty value" }
        let isBuiltIn = builtIn.contains { $0.name == type.name }
        return isBuiltIn ? type.description : type.description + " (not empty)"
    }

    /// Checks custom types before a pattern is read with them, so that each is one a
    /// pattern can name, and names exactly one type.
    ///
    /// A name that is not an identifier could never be written `:name(type)`; two types of
    /// one name would leave one silently unused; and a type named like a built-in would
    /// change what `:id(int)` matches while ``RouteParameters/int(_:)`` still reads the
    /// built-in's values. A configuration is written at once, not registered over time, so
    /// unlike re-registering a service or a route, a second type of a name replaces nothing:
    /// it is a mistake, refused.
    ///
    /// - Throws: ``RouteError`` with reason
    ///   ``RouteError/Reason/invalidParameterType(name:problem:)`` for the first bad type.
    static func check(_ types: [ParameterType]) throws(RouteError) {
        for (index, type) in types.enumerated() {
            let name = type.name
            guard !name.isEmpty, name.utf8.allSatisfy(isNameByte)
            else {
                throw RouteError(.invalidParameterType(
                    name: name,
                    problem: "a pattern names a type as ':name(type)', with one or more letters, digits or '_', "
                        + "which cannot spell '\(name)'; give the type such a name"))
            }
            if builtIn.contains(where: { $0.name == name }) {
                throw RouteError(.invalidParameterType(
                    name: name,
                    problem: "'\(name)' is a built-in type, and ':name(\(name))' means the same in every router (so "
                        + "RouteParameters reads what it matches); give the custom type another name, such as one "
                        + "saying what it accepts"))
            }
            if let other = types[..<index].first(where: { $0.name == name }) {
                throw RouteError(.invalidParameterType(
                    name: name,
                    problem: "two custom types have this name ('\(other.description)' and '\(type.description)'), and "
                        + "':name(\(name))' can mean only one; remove one, or give each its own name"))
            }
        }
    }
}
