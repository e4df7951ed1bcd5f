/// What `weread --help` prints.
enum HelpText {
    static let lines = [
        "weread — WeRead, a componentized reading app in miniature, wired with ServiceRegistry.",
        "",
        "Usage:",
        "  weread                      Play a scripted session: launch, open the shelf, open book 42,",
        "                              start reading; after each step, what was built and what reused.",
        "  weread open <book-id>       Show a book's detail screen (its facts, rating, best reviews).",
        "  weread reviews <book-id>    List all of a book's reviews, the most helpful first.",
        "  weread search <text>        Find books whose title or author contains the text.",
        "  weread graph                Print how the services depend on each other, as a tree.",
        "  weread graph --dot          The same graph as Graphviz DOT (pipe it to `dot -Tsvg`).",
        "  weread open-url <url>       Open a weread:// link through the router, e.g. weread://book/42.",
        "  weread --help               Show this help (also -h or help; weread help open, weread open -h).",
        "",
        "Book ids are whole numbers from 1; `weread search <text>` shows them.",
        "After --, every argument is a value: weread search -- -h looks for \"-h\".",
        "",
        "Exit status: 0 success, 1 nothing found (unknown book, no match),",
        "64 a command line that cannot be run as written, 70 the app is wired wrong.",
        "",
        "Examples:",
        "  weread open 42",
        "  weread search tolkien",
        "  weread graph --dot | dot -Tsvg > weread.svg",
    ]
}
