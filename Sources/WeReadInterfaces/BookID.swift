/// The identifier of a book in the WeRead catalog.
///
/// A distinct type rather than a bare `Int`, so a book id cannot be confused with a page
/// number or a rating, and so resolving a service that takes a book id is checked by the
/// compiler: `registry.resolve(BookDetailService.self, argument: BookID(42))`.
///
/// Write `BookID(42)` explicitly when passing one as a resolve argument: a bare literal
/// `42` would be inferred as `Int`, which is a different argument type.
public struct BookID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The catalog's number for the book.
    public let rawValue: Int

    /// Creates an id from the catalog's number for a book.
    ///
    /// - Parameter rawValue: The catalog's number, such as `42`.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Parses an id typed by a person or carried in a URL, such as `"42"`.
    ///
    /// Only plain decimal digits are accepted (no sign, spaces or other characters),
    /// because anything else is not an id a person meant.
    ///
    /// - Parameter text: The text to parse.
    /// - Returns: `nil` when `text` is not a positive whole number, or is one too large
    ///   for an `Int` (`"99999999999999999999"`).
    public init?(parsing text: some StringProtocol) {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(text), value > 0
        else { return nil }
        self.rawValue = value
    }

    /// The number, as a person would write it.
    public var description: String { String(rawValue) }

    /// Orders ids by their catalog number.
    ///
    /// - Parameters:
    ///   - lhs: An id.
    ///   - rhs: Another id.
    /// - Returns: Whether `lhs` comes before `rhs` in catalog order.
    public static func < (lhs: BookID, rhs: BookID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
