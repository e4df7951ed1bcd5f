/// Limits and decoding choices applied whenever the router reads a URL.
///
/// The limits bound the work any single URL can cause: a URL from a push payload or a web
/// page is untrusted input, and a megabyte-long URL or one with thousands of segments
/// should be refused up front with a ``RouteError`` rather than walked. A route that only
/// URLs over these limits could match is refused when it is registered, rather than never
/// matching.
///
/// ```swift
/// var options = URLParsingOptions()
/// options.maximumLength = 8_192            // long H5 links are expected
/// options.decodesPlusAsSpace = false       // `+` in queries stays a plus sign
/// let router = ServiceRouter(registry: registry, configuration: .init(parsing: options))
/// ```
public struct URLParsingOptions: Sendable, Hashable {
    /// The longest URL accepted, in UTF-8 bytes. Defaults to 4,096.
    public var maximumLength: Int
    /// The most path segments accepted (the host is not counted). Defaults to 32.
    public var maximumSegmentCount: Int
    /// The most query items accepted. Defaults to 64.
    public var maximumQueryItemCount: Int
    /// Whether `+` in a query name or value decodes to a space, as HTML forms encode it.
    /// Defaults to `true`; `%2B` always decodes to a plus sign.
    public var decodesPlusAsSpace: Bool

    /// Creates parsing options; every argument has a default suitable for app deep links.
    ///
    /// - Parameters:
    ///   - maximumLength: The longest URL accepted, in UTF-8 bytes.
    ///   - maximumSegmentCount: The most path segments accepted.
    ///   - maximumQueryItemCount: The most query items accepted.
    ///   - decodesPlusAsSpace: Whether `+` in the query decodes to a space.
    public init(
        maximumLength: Int = 4_096,
        maximumSegmentCount: Int = 32,
        maximumQueryItemCount: Int = 64,
        decodesPlusAsSpace: Bool = true
    ) {
        self.maximumLength = maximumLength
        self.maximumSegmentCount = maximumSegmentCount
        self.maximumQueryItemCount = maximumQueryItemCount
        self.decodesPlusAsSpace = decodesPlusAsSpace
    }
}
