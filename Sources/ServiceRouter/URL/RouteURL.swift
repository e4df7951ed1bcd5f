/// A URL read into the parts the router matches on: scheme, host, path segments, query
/// items and fragment, each percent-decoded.
///
/// The router parses every URL itself (it may not import Foundation) and never trusts its
/// input: the length limit of ``URLParsingOptions`` is checked before any other work, and
/// the segment and query-item limits at the first segment or item over them, so no URL
/// costs more than its length allows; everything malformed is reported as a ``RouteError``
/// (a URL both malformed and over the segment or query-item limit may be refused for either).
///
/// Normalisation, so that equivalent spellings route alike:
/// - the scheme and host are lowercased (ASCII only; path segments keep their case);
/// - an empty port is no port (`weread://book:/42`, as RFC 3986 reads it);
/// - empty path segments are dropped, so `weread://book/42/` and `weread://book//42` both
///   have the segments `["42"]` under the host `book`;
/// - `%2F` inside a segment decodes to a `/` that stays part of that one segment.
///
/// ```swift
/// let url = try RouteURL("weread://book/42?from=push#reviews")
/// url.host          // "book"
/// url.pathSegments  // ["42"]
/// url.queryItems    // [from=push]
/// url.fragment      // "reviews"
/// ```
public struct RouteURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL exactly as it was given.
    public let string: String
    /// The scheme, lowercased (`weread`, `https`).
    public let scheme: String
    /// The host, decoded and lowercased; `nil` when the URL has no `//` authority
    /// (`mailto:someone`), empty for `weread:///path`.
    public let host: String?
    /// The port, when the authority names one; `nil` for an empty port
    /// (`weread://book:/42`), which RFC 3986 reads as none.
    public let port: Int?
    /// The decoded, non-empty path segments.
    public let pathSegments: [String]
    /// The decoded query items, in URL order, empty items dropped.
    public let queryItems: [QueryItem]
    /// The decoded fragment, or `nil` when the URL has no `#`.
    public let fragment: String?

    /// Parses `string` as a URL.
    ///
    /// - Parameters:
    ///   - string: The URL text, e.g. `weread://book/42?from=push`.
    ///   - options: Limits and decoding choices; the defaults suit app deep links.
    /// - Throws: ``RouteError`` with reason ``RouteError/Reason/urlTooLong(length:limit:)``,
    ///   ``RouteError/Reason/tooManySegments(limit:)``,
    ///   ``RouteError/Reason/tooManyQueryItems(limit:)``,
    ///   ``RouteError/Reason/malformedURL(problem:)`` or
    ///   ``RouteError/Reason/invalidPercentEncoding(component:problem:)``.
    public init(_ string: String, options: URLParsingOptions = URLParsingOptions()) throws(RouteError) {
        let parts = try URLParser(string: string, options: options).parse()
        self.init(
            string: string, scheme: parts.scheme, host: parts.host, port: parts.port,
            pathSegments: parts.pathSegments, queryItems: parts.queryItems, fragment: parts.fragment)
    }

    /// This URL with `pathSegments` in place of its own, for the matcher to try another
    /// spelling of it; ``string`` stays the text given.
    func withPathSegments(_ pathSegments: [String]) -> RouteURL {
        RouteURL(
            string: string, scheme: scheme, host: host, port: port, pathSegments: pathSegments,
            queryItems: queryItems, fragment: fragment)
    }

    private init(
        string: String, scheme: String, host: String?, port: Int?, pathSegments: [String],
        queryItems: [QueryItem], fragment: String?
    ) {
        self.string = string
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathSegments = pathSegments
        self.queryItems = queryItems
        self.fragment = fragment
    }

    /// The first value of the query item called `name`, or `nil` when it is absent or has
    /// no `=`.
    ///
    /// - Parameter name: The decoded item name.
    /// - Returns: The decoded value of the first item with that name.
    public func queryValue(_ name: String) -> String? {
        for item in queryItems where item.name == name {
            return item.value
        }
        return nil
    }

    /// The URL as given.
    public var description: String { string }

    /// How many segments the matcher walks: the host (when there is an authority) and
    /// then every path segment.
    var matchSegmentCount: Int {
        pathSegments.count + (host == nil ? 0 : 1)
    }

    /// The matcher's segment at `position`: the host first when there is an authority.
    /// Callers stay below ``matchSegmentCount``.
    func matchSegment(at position: Int) -> String {
        guard let host else { return pathSegments[position] }
        return position == 0 ? host : pathSegments[position - 1]
    }
}
