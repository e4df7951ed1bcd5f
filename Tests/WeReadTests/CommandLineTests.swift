import ServiceRegistry
import Testing
import WeReadInterfaces

@testable import weread

/// The `weread` commands, run as the executable would run them, minus printing.
@Suite struct CommandLineTests {
    @Test func openShowsTheBookDetailScreen() {
        let result = WeReadCommandLine.run(["open", "42"])
        #expect(result.exitCode == .success)
        #expect(result.errorOutput.isEmpty)
        #expect(
            result.output == """
                The Hitchhiker's Guide to the Galaxy
                Douglas Adams · 1979 · 224 pages
                4.0★ from 3 reviews
                  ★★★★★ Arthur D.: “Don't panic: funniest book I own, and the towel advice is sound.”
                  ★★★★☆ Trillian: “Silly in the best way; the whale's monologue is perfect.”

                """)
    }

    @Test func reviewsListsEveryReviewTheMostHelpfulFirst() {
        let result = WeReadCommandLine.run(["reviews", "42"])
        #expect(result.exitCode == .success)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "Reviews of The Hitchhiker's Guide to the Galaxy (Douglas Adams, 1979) — 4.0★ from 3 reviews")
        #expect(lines.dropFirst().map { $0.split(separator: ":").first.map(String.init) } == [
            "  ★★★★★ Arthur D.", "  ★★★★☆ Trillian", "  ★★★☆☆ Marvin",
        ])
    }

    @Test func reviewsOfAnUnreviewedBookSaysSoAndSucceeds() {
        let result = WeReadCommandLine.run(["reviews", "69"])
        #expect(result.exitCode == .success)
        #expect(result.output == "No reviews yet for The True Story of Ah Q (Lu Xun, 1921).\n")
    }

    /// The reviews screen reached by command and by link is the same screen: the link's
    /// heading names the book too, and an unreviewed book says so the same way.
    @Test(arguments: ["42", "69"])
    func theReviewsCommandAndTheReviewsLinkShowTheSameScreen(id: String) {
        let command = WeReadCommandLine.run(["reviews", id])
        let link = WeReadCommandLine.run(["open-url", "weread://book/\(id)/reviews"])
        #expect(command.exitCode == .success)
        #expect(link == command)
    }

    /// The shelf and the open book, reached by link, are the screens the scripted session
    /// shows at its steps 2 and 4 (there framed by "   │ ").
    @Test(arguments: [
        ("weread://shelf", "2. Open the shelf", Int.max),
        ("weread://book/42/read", "4. Start reading", 1),  // the progress bar's line is the session's own
    ])
    func theShelfAndReadingLinksShowTheScreensTheSessionShows(url: String, step: String, lineCount: Int) throws {
        let transcript = try ScriptedSession().run()
        let start = try #require(transcript.firstIndex(of: step)) + 1
        let screen = transcript[start...].prefix { $0.hasPrefix("   │ ") }.prefix(lineCount).map { $0.dropFirst("   │ ".count) }
        let link = WeReadCommandLine.run(["open-url", url])
        #expect(link.exitCode == .success)
        #expect(link.output == screen.map { $0 + "\n" }.joined())
    }

    @Test func searchListsMatchesWithTheirIDs() {
        let result = WeReadCommandLine.run(["search", "the", "hobbit"])
        #expect(result.exitCode == .success)
        #expect(result.output == "1 book matches “the hobbit”:\n  #33  The Hobbit — J. R. R. Tolkien (1937)\n")
    }

    @Test(arguments: ["--help", "-h", "help"])
    func helpExplainsEveryCommand(flag: String) {
        let result = WeReadCommandLine.run([flag])
        #expect(result.exitCode == .success)
        for command in ["weread open <book-id>", "weread reviews <book-id>", "weread search <text>", "weread graph",
                        "weread graph --dot", "weread open-url <url>", "weread --help"] {
            #expect(result.output.contains(command), "help lacks \(command)")
        }
    }

    /// `--help` or `-h` after a command asks for help, as with any command-line tool, not
    /// for a book, a search or a link called "--help".
    @Test(arguments: [
        ["open", "--help"], ["open", "-h"], ["open", "42", "--help"], ["reviews", "--help"],
        ["search", "--help"], ["search", "tolkien", "-h"], ["graph", "--help"], ["graph", "--dot", "-h"],
        ["open-url", "--help"], ["open-url", "weread://book/42", "--help"],
    ])
    func helpAfterACommandShowsTheHelp(arguments: [String]) {
        #expect(WeReadCommandLine.run(arguments) == WeReadCommandLine.run(["--help"]))
    }

    /// After `--` every argument is a value, as in most command-line tools: text that looks
    /// like the help or an option is searched for, and `--` itself is not a value.
    @Test func argumentsAfterTheEndOfOptionsAreValues() {
        let dashes = WeReadCommandLine.run(["search", "--", "-h"])
        #expect(dashes.exitCode == .notFound)
        #expect(dashes.errorOutput.contains("“-h”"), "\(dashes.errorOutput)")
        #expect(WeReadCommandLine.run(["search", "the", "--", "--help"]).errorOutput.contains("“the --help”"))
        #expect(WeReadCommandLine.run(["search", "--", "the", "hobbit"]) == WeReadCommandLine.run(["search", "the", "hobbit"]))
        #expect(WeReadCommandLine.run(["open", "--", "42"]) == WeReadCommandLine.run(["open", "42"]))
        let graph = WeReadCommandLine.run(["graph", "--", "--dot"])
        #expect(graph.exitCode == .usage)
        #expect(graph.errorOutput.contains("weread: graph takes no values, and '--dot' after '--' is one."))
        #expect(WeReadCommandLine.run(["graph", "--", "tree"]).errorOutput.contains("graph takes no values, and 'tree'"))
        #expect(WeReadCommandLine.run(["open-url", "--", "--help"]).exitCode != .success)
    }

    /// Help asked for about a command (`weread help open`, as `git help log` or `swift help
    /// build` ask) shows the help, as `weread open --help` does; refused, it was told to run
    /// `weread --help`, which it had just run.
    @Test(arguments: [
        ["help", "open"], ["--help", "open"], ["-h", "reviews"], ["help", "search"], ["help", "graph"],
        ["--help", "open-url"], ["help", "help"], ["help", "--help"], ["help", "open", "42"],
    ])
    func helpBeforeACommandShowsTheHelp(arguments: [String]) {
        #expect(WeReadCommandLine.run(arguments) == WeReadCommandLine.run(["--help"]))
    }

    /// The detail screen takes a book id: the graph builds it with the app's sample one,
    /// so its dependencies are drawn too.
    @Test func graphPrintsTheWiringAsATreeWithTheDetailScreensDependencies() {
        let result = WeReadCommandLine.run(["graph"])
        #expect(result.exitCode == .success)
        #expect(
            result.output == """
                BookDetailService (argument: BookID) [transient, BookDetailAssembly]
                ├── CatalogService [singleton, CatalogAssembly]
                └── ReviewService [singleton, ReviewAssembly]
                    └── CatalogService [singleton, CatalogAssembly]
                ReadingService [weak, ReadingAssembly]
                ├── BookshelfService [singleton, BookshelfAssembly]
                │   └── CatalogService [singleton, CatalogAssembly]
                └── CatalogService [singleton, CatalogAssembly]

                """)
    }

    /// A service taking an argument the app has no sample of is listed, and the tree
    /// says what it could not draw and how to fix that.
    @Test func graphSaysWhatItCouldNotDraw() {
        let result = WeReadCommandLine.run(["graph"]) { registry in
            WeReadApp.install(into: registry)
            registry.register(ReviewService.self, name: "by reader") { (r, reader: String) in
                try r.resolve(ReviewService.self)
            }
        }
        #expect(result.exitCode == .success)
        #expect(
            result.output.contains(
                "ReviewService (name: \"by reader\") (argument: String) [transient, registered directly] "
                    + "— not checked (no sample argument fits)\n"))
        #expect(
            result.output.hasSuffix(
                "\nNot drawn: what ReviewService (name: \"by reader\") depends on. It takes a resolve argument "
                    + "(`String`), and WeReadApp.sampleArguments has no value of that type to build it with.\n"))
    }

    @Test func graphDotPrintsGraphvizOnly() {
        let result = WeReadCommandLine.run(["graph", "--dot"])
        #expect(result.exitCode == .success)
        #expect(result.output.hasPrefix("digraph "))
        #expect(result.output.hasSuffix("}\n"))
        #expect(result.output.contains("\"ReviewService\" -> \"CatalogService\";"))
        #expect(result.output.contains("\"BookDetailService <BookID>\" -> \"ReviewService\";"))
    }

    @Test func openURLOpensTheScreenALinkNames() {
        let result = WeReadCommandLine.run(["open-url", "weread://book/42?from=push"])
        #expect(result.exitCode == .success)
        #expect(result.errorOutput.isEmpty)
        #expect(result.output.hasPrefix("The Hitchhiker's Guide to the Galaxy\n"))
        #expect(result.output.hasSuffix("(opened from push)\n"))
    }

    /// A `from` with no value names no source, so the screen is shown as if it were absent
    /// rather than ending in "(opened from )".
    @Test(arguments: ["weread://book/42?from=", "weread://book/42?from=%20", "weread://book/42?from"])
    func anEmptyFromIsNotEchoed(url: String) {
        #expect(WeReadCommandLine.run(["open-url", url]) == WeReadCommandLine.run(["open", "42"]))
    }

    /// Text a link carries (`from`, a search's `q`) is anyone's: percent-encoded, it can
    /// hold a newline that forges a line of output or a terminal escape sequence. weread
    /// prints such characters spelled out, as the router does in its messages.
    @Test(arguments: [
        ("weread://book/42?from=%1B%5B31mpush", "(opened from \\u{1B}[31mpush)"),
        ("weread://shelf?from=push%0AInstances%20alive%3A%200", "(opened from push\\nInstances alive: 0)"),
        ("weread://book/42/read?from=%E2%80%AEhsup", "(opened from \\u{202E}hsup)"),
        ("weread://book/42?from=%E6%8E%A8%E9%80%81", "(opened from 推送)"),
        // Invisible to the router's messages too: a filler that draws nothing, a space
        // that is not U+0020, a private-use code point.
        ("weread://book/42?from=pu%E1%85%9Fsh", "(opened from pu\\u{115F}sh)"),
        ("weread://book/42?from=pu%C2%A0sh", "(opened from pu\\u{A0}sh)"),
        ("weread://book/42?from=pu%EE%80%80sh", "(opened from pu\\u{E000}sh)"),
    ])
    func textALinkCarriesIsPrintedWithItsInvisibleCharactersSpelledOut(url: String, lastLine: String) {
        let result = WeReadCommandLine.run(["open-url", url])
        #expect(result.exitCode == .success)
        #expect(result.output.split(separator: "\n").last.map(String.init) == lastLine)
    }

    @Test func aSearchLinksTextIsPrintedWithItsInvisibleCharactersSpelledOut() {
        let result = WeReadCommandLine.run(["open-url", "weread://search?q=zz%1B%5B2J%0Azz"])
        #expect(result.exitCode == .notFound)
        #expect(result.errorOutput.hasPrefix("weread: no book's title or author contains “zz\\u{1B}[2J\\nzz”.\n"))
    }

    /// Mistakes a person can make, each with the message it must get and its exit status.
    @Test(arguments: [
        (["open"], "weread: open needs a book id.", CommandResult.ExitCode.usage),
        (["open", "abc"], "weread: 'abc' is not a book id; ids are whole numbers from 1, such as 42.", .usage),
        (["open", "-3"], "weread: '-3' is not a book id; ids are whole numbers from 1, such as 42.", .usage),
        (["open", "0"], "weread: '0' is not a book id; ids are whole numbers from 1, such as 42.", .usage),
        (["open", "99999999999999999999"], "weread: '99999999999999999999' is too large to be a book id.", .usage),
        (["open", "42", "43"], "weread: unexpected argument '43' after 'weread open 42'.", .usage),
        (["open", "999"], "weread: no book with id 999 in the catalog (ids run from 1 to 70).", .notFound),
        (["reviews", "999"], "weread: no book with id 999 in the catalog (ids run from 1 to 70).", .notFound),
        (["reviews"], "weread: reviews needs a book id.", .usage),
        (["search"], "weread: search needs some text to look for.", .usage),
        (["search", "  "], "weread: search needs some text to look for.", .usage),
        (["search", "zzzz"], "weread: no book's title or author contains “zzzz”.", .notFound),
        (["graph", "--svg"], "weread: graph takes only the option --dot, not '--svg'.", .usage),
        // The wrong argument is named alone, not with a right `--dot` beside it.
        (["graph", "--dot", "--svg"], "weread: unexpected argument '--svg' after 'weread graph --dot'.", .usage),
        (["graph", "--dot", "--dot"], "weread: unexpected argument '--dot' after 'weread graph --dot'.", .usage),
        (["graph", "--svg", "--dot"], "weread: graph takes only the option --dot, not '--svg'.", .usage),
        (["open-url"], "weread: open-url needs a link.", .usage),
        (["open-url", "weread://book/999"], "weread: no book with id 999 in the catalog (ids run from 1 to 70).", .notFound),
        (["open-url", "weread://book/999/reviews"], "weread: no book with id 999 in the catalog (ids run from 1 to 70).", .notFound),
        (["open-url", "weread://nowhere/42"], "weread: 'weread://nowhere/42' is not a link weread can open.", .usage),
        (["open-url", "weread://search?q=zzzz"], "weread: no book's title or author contains “zzzz”.", .notFound),
        (["open-url", "weread://search?q=%20"], "weread: the search link has no text to look for.", .usage),
        (["open-url", "weread://search?q=zzzz%20"], "weread: no book's title or author contains “zzzz”.", .notFound),
        (["open-url", "weread://book/42", "x"], "weread: unexpected argument 'x' after 'weread open-url weread://book/42'.", .usage),
        (["--help", "me"], "weread: unexpected argument 'me' after 'weread --help'.", .usage),
        (["frobnicate"], "weread: unknown command 'frobnicate'.", .usage),
        (["--dot", "graph"], "weread: '--dot' is an option of graph; it goes after the command.", .usage),
        // Echoed arguments are spelled out, as `weread search` spells out its text.
        (["\u{1B}[2J"], "weread: unknown command '\\u{1B}[2J'.", .usage),
        (["open", "\u{1B}[31m42"], "weread: '\\u{1B}[31m42' is not a book id; ids are whole numbers from 1, such as 42.", .usage),
        (["open", "42", "\u{202E}x"], "weread: unexpected argument '\\u{202E}x' after 'weread open 42'.", .usage),
        (["graph", "\u{9B}1m"], "weread: graph takes only the option --dot, not '\\u{9B}1m'.", .usage),
    ])
    func aBadCommandLineGetsAClearMessageAndANonZeroExit(
        arguments: [String], message: String, exitCode: CommandResult.ExitCode
    ) {
        let result = WeReadCommandLine.run(arguments)
        #expect(result.exitCode == exitCode)
        #expect(result.exitCode.rawValue != 0)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.hasPrefix(message), "got: \(result.errorOutput)")
        #expect(result.errorOutput.split(separator: "\n").count >= 2, "every error also says how to fix it")
    }

    /// A link's book id is held to the rule `weread open` holds it to, by the route's
    /// parameter type, while matching: `0`, a negative number or a `+` sign is refused as a
    /// link weread cannot open (64), saying what a book id looks like, rather than being
    /// read as a number, looked up, and reported as a book the catalog lacks (1) — or, for
    /// `+42`, opened as book 42.
    @Test(arguments: [
        ("weread://book/0", "weread://book/:bookId(bookID)", "0"),
        ("weread://book/0/read", "weread://book/:bookId(bookID)/read", "0"),
        ("weread://book/-1/reviews", "weread://book/:bookId(bookID)/reviews", "-1"),
        ("weread://book/+42", "weread://book/:bookId(bookID)", "+42"),
    ])
    func aLinksBookIDMustBeAWholeNumberFromOneAsOnTheCommandLine(url: String, route: String, value: String) {
        let result = WeReadCommandLine.run(["open-url", url])
        #expect(result.exitCode == .usage)
        #expect(result.output.isEmpty)
        #expect(
            result.errorOutput.split(separator: "\n").first.map(String.init)
                == "weread: Cannot open '\(url)': parameter 'bookId' of route '\(route)' must be a book id "
                + "(a whole number from 1), but got '\(value)'.")
        let command = WeReadCommandLine.run(["open", value])
        #expect(command.exitCode == .usage)
        #expect(command.errorOutput.hasPrefix("weread: '\(value)' is not a book id"))
    }

    static let hugeArgument = String(repeating: "a", count: 100_000)
    static let hugeArgumentEchoed = String(repeating: "a", count: 64) + "… (100000 characters)"

    /// An argument is repeated in a message cut to its start with its length, however long
    /// it is: repeated whole, a 100 KB argument made a 100 KB message.
    @Test(arguments: [
        ([hugeArgument], "weread: unknown command '\(hugeArgumentEchoed)'.", CommandResult.ExitCode.usage),
        (["open", hugeArgument], "weread: '\(hugeArgumentEchoed)' is not a book id; ids are whole numbers from 1, such as 42.", .usage),
        (["reviews", String(repeating: "9", count: 100_000)],
         "weread: '\(String(repeating: "9", count: 64))… (100000 characters)' is too large to be a book id.", .usage),
        (["open", "42", hugeArgument], "weread: unexpected argument '\(hugeArgumentEchoed)' after 'weread open 42'.", .usage),
        (["help", hugeArgument], "weread: unexpected argument '\(hugeArgumentEchoed)' after 'weread help'.", .usage),
        (["open-url", hugeArgument, "x"], "weread: unexpected argument 'x' after 'weread open-url \(hugeArgumentEchoed)'.", .usage),
        (["graph", hugeArgument], "weread: graph takes only the option --dot, not '\(hugeArgumentEchoed)'.", .usage),
        (["search", hugeArgument], "weread: no book's title or author contains “\(hugeArgumentEchoed)”.", .notFound),
        // The text a search link carries is repeated the same way.
        (["open-url", "weread://search?q=" + String(repeating: "a", count: 4_000)],
         "weread: no book's title or author contains “\(String(repeating: "a", count: 64))… (4000 characters)”.", .notFound),
    ])
    func aHugeArgumentIsEchoedCutToItsStartWithItsLength(
        arguments: [String], message: String, exitCode: CommandResult.ExitCode
    ) {
        let result = WeReadCommandLine.run(arguments)
        #expect(result.exitCode == exitCode)
        #expect(result.errorOutput.split(separator: "\n").first.map(String.init) == message)
        #expect(result.errorOutput.utf8.count < 1_000, "a message of \(result.errorOutput.utf8.count) bytes")
    }

    /// Text of up to 100 Unicode scalars is repeated whole; longer text is cut after 64
    /// scalars, which may split a character (here the last `e` from its accent), and its
    /// length is counted in characters, and in scalars too when that count differs (one
    /// character with 200 accents is cut as long as it is). What is kept is spelled out as
    /// ever.
    @Test(arguments: [
        (String(repeating: "a", count: 100), String(repeating: "a", count: 100)),
        (String(repeating: "a", count: 101), String(repeating: "a", count: 64) + "… (101 characters)"),
        ("x" + String(repeating: "e\u{301}", count: 60),
         "x" + String(repeating: "e\u{301}", count: 31) + "e… (61 characters, 121 Unicode scalars)"),
        ("e" + String(repeating: "\u{301}", count: 200),
         "e" + String(repeating: "\u{301}", count: 63) + "… (1 character, 201 Unicode scalars)"),
        (String(repeating: "\u{1B}", count: 101), String(repeating: "\\u{1B}", count: 64) + "… (101 characters)"),
    ])
    func anArgumentIsEchoedWholeUpTo100ScalarsAndCutBeyond(argument: String, echoed: String) {
        let result = WeReadCommandLine.run([argument])
        #expect(result.errorOutput.split(separator: "\n").first.map(String.init) == "weread: unknown command '\(echoed)'.")
    }

    static let manySegments = "weread://shelf" + String(repeating: "/x", count: 40)
    static let manyQueryItems = "weread://shelf?" + (1...70).map { "a\($0)=1" }.joined(separator: "&")

    /// A link weread cannot open is explained to the person who typed it: what is wrong with
    /// the link and which links work, never the router's advice to the app's developer
    /// (register a route, allow a scheme, raise a parsing limit, make a query item optional),
    /// which a user cannot act on.
    @Test(arguments: [
        ("weread://nowhere/42", "weread: 'weread://nowhere/42' is not a link weread can open."),
        // A whole number from 1, too large for an id: said so, as `weread open` says it,
        // rather than "must be a whole number from 1".
        ("weread://book/99999999999999999999",
         "weread: 'weread://book/99999999999999999999': '99999999999999999999' is too large to be a book id."),
        ("weread://book/99999999999999999999/reviews",
         "weread: 'weread://book/99999999999999999999/reviews': '99999999999999999999' is too large to be a book id."),
        ("weread://book/42/reviews/extra", "weread: 'weread://book/42/reviews/extra' is not a link weread can open."),
        // A required query item the link lacks: what is missing, not how the route could do
        // without it (the router's advice to make it optional in the pattern).
        ("weread://search",
         "weread: Cannot open 'weread://search': parameter 'q' of route 'weread://search?q=:text' must be a non-empty value, but it is missing."),
        ("weread://search?Q=austen",
         "weread: Cannot open 'weread://search?Q=austen': parameter 'q' of route 'weread://search?q=:text' must be a non-empty value, but it is missing."),
        ("https://weread.example/book/42",
         "weread: 'https://weread.example/book/42' is not a weread:// link; weread opens only its own links."),
        ("weread://book/" + String(repeating: "4", count: 5_000),
         "weread: the link is 5014 bytes long; weread opens links of at most 4096 bytes."),
        (manySegments, "weread: '\(manySegments)' has more than 32 path segments; no weread link has that many."),
        (manyQueryItems, "weread: '\(manyQueryItems)' has more than 64 query items; weread reads at most 64."),
    ])
    func aLinkWereadCannotOpenIsExplainedToItsUser(url: String, problem: String) {
        let result = WeReadCommandLine.run(["open-url", url])
        #expect(result.exitCode == .usage)
        let lines = result.errorOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == problem)
        #expect(lines.dropFirst().first == "Links weread can open:")
        for advice in ["Register a route", "setFallback", "allowedExternalSchemes", "URLParsingOptions", "request.query"] {
            #expect(!result.errorOutput.contains(advice), "the message gives the developer's fix: \(advice)")
        }
    }

    /// A URL may carry characters above ASCII unescaped, such as a right-to-left override
    /// (U+202E) or a C1 control (U+009B, a terminal's CSI); echoing a link weread cannot
    /// open, weread spells them out, as it does the text a link carries.
    @Test(arguments: [
        ("weread://nowhere/\u{202E}moc.live", "weread: 'weread://nowhere/\\u{202E}moc.live' is not a link weread can open."),
        ("weread://nowhere/\u{9B}2J", "weread: 'weread://nowhere/\\u{9B}2J' is not a link weread can open."),
        ("https://x/\u{200B}", "weread: 'https://x/\\u{200B}' is not a weread:// link; weread opens only its own links."),
    ])
    func aLinkWereadCannotOpenIsEchoedWithItsInvisibleCharactersSpelledOut(url: String, problem: String) {
        let result = WeReadCommandLine.run(["open-url", url])
        #expect(result.exitCode == .usage)
        #expect(result.errorOutput.split(separator: "\n").first.map(String.init) == problem)
    }

    /// A link split at a space by the shell arrives as two arguments; the message says how
    /// to pass it as one.
    @Test func aLinkSplitAtASpaceIsToldToQuoteAndEncodeIt() {
        let result = WeReadCommandLine.run(["open-url", "weread://search?q=the", "hobbit"])
        #expect(result.exitCode == .usage)
        #expect(result.errorOutput == """
            weread: unexpected argument 'hobbit' after 'weread open-url weread://search?q=the'.
            A link is one argument: quote it, and write a space in it as %20, e.g. weread open-url 'weread://search?q=the%20hobbit'

            """)
        // The example it gives works.
        #expect(WeReadCommandLine.run(["open-url", "weread://search?q=the%20hobbit"]) == WeReadCommandLine.run(["search", "the hobbit"]))
    }

    @Test func aWiringMistakeIsReportedAsSuchWithTheRegistrysExplanation() {
        // A registry without the review component: opening a book cannot be wired up.
        let result = WeReadCommandLine.run(["open", "42"], install: { _ in })
        #expect(result.exitCode == .software)
        #expect(result.errorOutput.contains("the app could not be wired up"))
        #expect(result.errorOutput.contains("BookDetailService"))
    }
}
