/// One `name=value` item of a URL's query, already percent-decoded.
///
/// An item written without `=` (`?debug`) has a `nil` value; one written as `?q=` has an
/// empty value, so the two stay distinguishable.
public struct QueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value, or `nil` when the item had no `=`.
    public var value: String?

    /// Creates a query item.
    ///
    /// - Parameters:
    ///   - name: The item's name, unencoded.
    ///   - value: The item's value, unencoded, or `nil` for a bare name.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// The item as `name=value` (or `name`), unencoded, for messages and debugging.
    public var description: String {
        value.map { "\(name)=\($0)" } ?? name
    }
}
