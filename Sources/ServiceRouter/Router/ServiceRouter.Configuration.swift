extension ServiceRouter {
    /// How a router treats URLs: which schemes outside URLs may use, parsing limits, and
    /// custom parameter types.
    ///
    /// ```swift
    /// let router = ServiceRouter(
    ///     registry: registry,
    ///     configuration: .init(allowedExternalSchemes: ["weread", "https"], parameterTypes: [isbn])
    /// )
    /// ```
    public struct Configuration: Sendable {
        /// The schemes an ``URLOrigin/external`` URL may use, kept lowercase and without a
        /// trailing `:` or `://` (`"WeRead://"` is kept as `weread`).
        ///
        /// `nil` (the default) allows exactly the schemes that have a route outside URLs may
        /// open (one not registered `inAppOnly`) or a scheme fallback, as they are when the
        /// URL is opened. So a global fallback never opens `javascript:` or `file:` links
        /// from outside, nor any URL of a scheme whose routes are all in-app only (such as a
        /// `debug` scheme for app code).
        public var allowedExternalSchemes: Set<String>? {
            // Schemes are compared lowercase and without their `:`; normalising here keeps
            // `"WeRead"` and `"weread://"` working.
            didSet { allowedExternalSchemes = allowedExternalSchemes.map(Self.keyed) }
        }
        /// Length, segment and query limits, and `+` decoding.
        public var parsing: URLParsingOptions
        /// Parameter types usable as `:name(type)` beyond `int`, `string` and `uuid`.
        ///
        /// Each needs a name of ASCII letters, digits and `_` that no built-in type and no
        /// other type of the list has; while one does not, the router refuses every pattern
        /// (``RouteError/Reason/invalidParameterType(name:problem:)``), since the type would
        /// otherwise be silently unusable or change what a built-in means.
        public var parameterTypes: [ParameterType]

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - allowedExternalSchemes: Schemes outside URLs may use (any case, with or
        ///     without the `:` or `://` after them), or `nil` for "the schemes that have
        ///     routes outside URLs may open, or scheme fallbacks".
        ///   - parsing: Parsing limits and options.
        ///   - parameterTypes: Custom parameter types, each with its own name, none a built-in's.
        public init(
            allowedExternalSchemes: Set<String>? = nil,
            parsing: URLParsingOptions = URLParsingOptions(),
            parameterTypes: [ParameterType] = []
        ) {
            self.allowedExternalSchemes = allowedExternalSchemes.map(Self.keyed)
            self.parsing = parsing
            self.parameterTypes = parameterTypes
        }

        private static func keyed(_ schemes: Set<String>) -> Set<String> {
            Set(schemes.map(schemeKey))
        }
    }
}
