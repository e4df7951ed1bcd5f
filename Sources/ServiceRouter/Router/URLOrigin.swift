/// Where a URL being opened comes from, which decides how far it is trusted.
///
/// ```swift
/// try router.open("weread://book/42", from: .external)   // a push payload or web link
/// try router.open("weread://debug/reset")                 // app code: .inApp by default
/// ```
public enum URLOrigin: Sendable, Hashable {
    /// App code opened the URL: every route may take it.
    case inApp
    /// The URL arrived from outside (push, web page, another app, remote configuration):
    /// its scheme must be allowed and routes registered `inAppOnly` refuse it.
    case external
}
