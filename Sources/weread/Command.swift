import WeReadInterfaces

/// One thing the `weread` executable can do, parsed from its arguments.
enum Command: Equatable, Sendable {
    /// Play the scripted session (no arguments).
    case session
    /// Show a book's detail screen.
    case open(BookID)
    /// List a book's reviews.
    case reviews(BookID)
    /// Find books by title or author.
    case search(String)
    /// Print the wiring, as a text tree or as Graphviz DOT.
    case graph(dot: Bool)
    /// Open a `weread://` link through the router.
    case openURL(String)
    /// Explain the commands.
    case help
}
