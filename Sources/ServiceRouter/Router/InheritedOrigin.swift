/// The origin of the URL whose handler is running on the current task, which a URL opened
/// from that handler without a `from:` inherits.
///
/// A handler, fallback or `argument:` closure that opens another URL (a redirect route
/// `weread://open?url=…`, a fallback that retries a normalised spelling) usually opens
/// text that came with the URL it is handling. Were that URL external and the new one
/// opened as `.inApp`, any outside link could reach an `inAppOnly` route through it. So
/// ``ServiceRouter/open(_:)`` and its siblings without `from:` read the origin from here:
/// `.external` inside the handling of an external URL, `.inApp` elsewhere. It is a task
/// local, so a `Task { }` a handler starts inherits it too; work handed to another thread
/// by other means (a dispatch queue, `Task.detached`) does not, and must pass
/// `request.origin` itself.
enum InheritedOrigin {
    @TaskLocal static var current: URLOrigin = .inApp

    /// Runs `body` with ``current`` set to `origin`, binding it only when it is not that
    /// already.
    static func binding<Value>(_ origin: URLOrigin, _ body: () -> Value) -> Value {
        origin == current ? body() : bind(origin, body)
    }

    /// Runs `body` with ``current`` set to `origin`.
    static func bind<Value, Failure: Error>(
        _ origin: URLOrigin, _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        // `withValue` rethrows untyped errors, so the typed error travels in a `Result`.
        try $current.withValue(origin) {
            Result { () throws(Failure) in try body() }
        }.get()
    }
}
