/// What happens to a URL that no route eligible for its origin takes, decided from one
/// reading of the router's state.
///
/// Whether the scheme is allowed, which in-app-only route refuses an external URL, and
/// which fallbacks may receive it all change as routes and fallbacks are registered on
/// other threads; read under separate locks, they could mix two moments (a scheme's
/// fallback removed between the check that allowed the scheme and the reading of the
/// fallbacks handed its external URL to the global fallback).
enum RouteMiss {
    /// An external URL refused without trying a fallback.
    case refused(Refusal)
    /// The fallbacks to try, the scheme's first; none when neither is set.
    case unmatched(fallbacks: [any RouteAction])

    enum Refusal {
        /// The URL's scheme is not in the configured allow-list.
        case schemeNotInAllowList
        /// Without an allow-list, the URL's scheme is not allowed: the schemes that are,
        /// sorted, and whether the scheme has routes, all of them in-app only.
        case schemeNotAllowed(allowed: [String], schemeRoutesAreInAppOnly: Bool)
        /// The best in-app-only route matching the URL, which no public route takes (or
        /// every public one that does has declined).
        case inAppOnly(Route)
    }
}

extension ServiceRouter.State {
    /// What happens to `url` from `origin` when no route eligible for that origin takes it
    /// (or every one that does has declined it), as this state says.
    ///
    /// - Parameter allowList: The configuration's allowed external schemes, if any.
    func miss(for url: RouteURL, from origin: URLOrigin, allowList: Set<String>?) -> RouteMiss {
        guard origin == .external else { return .unmatched(fallbacks: fallbacks(for: url.scheme)) }
        if let allowList, !allowList.contains(url.scheme) {
            return .refused(.schemeNotInAllowList)
        }
        if allowList == nil, !allowsExternalURLs(ofScheme: url.scheme) {
            // When the scheme has routes, all in-app only, the error says so: the fix is then
            // not to add the scheme to a list.
            return .refused(
                .schemeNotAllowed(
                    allowed: externallyAllowedSchemes, schemeRoutesAreInAppOnly: trie.hasRoutes(forScheme: url.scheme)))
        }
        if let route = trie.bestMatch(for: url, where: { $0.isInAppOnly }) {
            return .refused(.inAppOnly(route))
        }
        return .unmatched(fallbacks: fallbacks(for: url.scheme))
    }

    private func fallbacks(for scheme: String) -> [any RouteAction] {
        [schemeFallbacks[scheme], globalFallback].compactMap { $0 }
    }
}
