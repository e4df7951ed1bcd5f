/// What a handler receives: the parsed URL, the parameters its pattern captured, and
/// where the URL came from.
///
/// ```swift
/// try router.register("weread://book/:bookId(int)") { (catalog: any CatalogService, request) in
///     let id = try request.parameters.int("bookId")
///     let source = request.query("from") ?? "app"
///     return "\(catalog.book(withID: BookID(id))?.title ?? "?") via \(source)"
/// }
/// ```
public struct RouteRequest: Sendable {
    /// The URL being opened, parsed and decoded.
    public let url: RouteURL
    /// The values captured by the route's pattern.
    public let parameters: RouteParameters
    /// The canonical pattern of the route handling the URL, or `nil` in a fallback.
    public let pattern: String?
    /// Where the URL came from.
    public let origin: URLOrigin

    /// Creates a request, for calling a handler directly in a test.
    ///
    /// - Parameters:
    ///   - url: The parsed URL.
    ///   - parameters: The captured parameters.
    ///   - pattern: The canonical pattern of the route, or `nil` for a fallback.
    ///   - origin: Where the URL came from.
    public init(url: RouteURL, parameters: RouteParameters, pattern: String?, origin: URLOrigin) {
        self.url = url
        self.parameters = parameters
        self.pattern = pattern
        self.origin = origin
    }

    /// The decoded value of the first query item called `name`, whether or not the
    /// pattern names it; `nil` when it is absent or has no `=`.
    ///
    /// - Parameter name: The decoded item name.
    /// - Returns: The item's decoded value.
    public func query(_ name: String) -> String? {
        url.queryValue(name)
    }
}
