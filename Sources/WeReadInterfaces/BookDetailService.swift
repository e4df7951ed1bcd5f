/// The detail screen of one book: its facts, its rating and its best reviews.
///
/// Provided by the `WeReadBookDetail` component, registered with a ``BookID`` argument,
/// so each screen is built for the book it shows:
///
/// ```swift
/// let detail = try registry.resolve(BookDetailService.self, argument: BookID(42))
/// print(detail.render())
/// ```
///
/// Resolving it for an id the catalog does not have fails, with ``UnknownBookError`` as
/// the underlying cause.
public protocol BookDetailService: Sendable {
    /// The book the screen shows.
    var book: Book { get }

    /// The book's aggregate rating.
    var rating: RatingSummary { get }

    /// The reviews the screen highlights, the most helpful first.
    var highlightedReviews: [Review] { get }

    /// The screen as text, one line per row, ready to print.
    ///
    /// - Returns: The rendered screen, without a trailing newline.
    func render() -> String
}
