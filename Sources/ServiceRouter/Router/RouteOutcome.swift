/// What a handler that may decline returns: a result, or "not mine, try the next route".
///
/// A handler declines when the URL matches its pattern but it cannot serve it (an unknown
/// id, a feature switched off). The router then tries the next matching route in
/// precedence order, then the fallbacks. Spell the return type out so the router knows
/// the handler may decline:
///
/// ```swift
/// try router.register("weread://book/:bookId(int)", priority: 1) { (catalog: any CatalogService, request) -> RouteOutcome<String> in
///     guard let book = catalog.book(withID: BookID(try request.parameters.int("bookId"))) else {
///         return .declined
///     }
///     return .handled(book.title)
/// }
/// ```
public enum RouteOutcome<Value> {
    /// The handler served the URL and produced `Value`.
    case handled(Value)
    /// The handler does not serve this URL; the next candidate is tried.
    case declined
}

extension RouteOutcome: Sendable where Value: Sendable {}

/// Outcomes compare as their cases and values do, so a test that calls a handler directly
/// (with a ``RouteRequest`` it made) can check what it returned with `==`.
extension RouteOutcome: Equatable where Value: Equatable {}
