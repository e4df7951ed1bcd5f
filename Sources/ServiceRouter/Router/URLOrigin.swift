/// Where a URL being opened comes from, which decides how far it is trusted.
///
/// ```swift
/// try router.open("weread://book/42", from: .external)   // a push payload or web link
/// try router.open("weread://debug/reset")                 // app code: .inApp when left out
/// ```
///
/// Left out, the origin is that of the URL whose handler is running on the current task:
/// a URL a handler of an external URL opens without `from:` is external too.
public enum URLOrigin: Sendable, Hashable {
    /// App code opened the URL: every route may take it.
    case inApp
    /// The URL arrived from outside (push, web page, another app, remote configuration):
    /// its scheme must be allowed and routes registered `inAppOnly` refuse it.
    case external
}
