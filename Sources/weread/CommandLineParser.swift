import WeReadInterfaces

/// Turns the arguments after the executable's name into a ``Command``.
///
/// Written by hand rather than with a package: the app has six commands, each taking at
/// most one value (the words after `search` make one text), and the example must build
/// with the toolchain alone.
enum CommandLineParser {
    /// Parses arguments such as `["open", "42"]`.
    ///
    /// - Parameter arguments: The arguments, without the executable's name.
    /// - Returns: The command to run.
    /// - Throws: ``UsageError`` naming the bad argument and the command line that works.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let name = arguments.first else { return .session }
        // `--` ends the options, as in most command-line tools: what follows it is a value
        // even when it looks like one, so `weread search -- -h` searches for "-h".
        let afterName = arguments.dropFirst()
        let endOfOptions = afterName.firstIndex(of: "--")
        let options = afterName[..<(endOfOptions ?? afterName.endIndex)]
        let values = endOfOptions.map { Array(afterName[..<$0] + afterName[($0 + 1)...]) } ?? Array(afterName)
        // `weread open --help` asks for help, as it would of any command-line tool; read as
        // a value, it would be refused as a book id, searched for, or opened as a link.
        if commands.contains(name), options.contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help
        }
        switch name {
        case "--help", "-h", "help":
            // `weread help open` asks about a command, as `git help log` does, and the help
            // covers every command; what follows the command is ignored, as it is before
            // `weread open 42 --help`. Anything else after the help is a mistake.
            if let about = values.first, commands.contains(about) || helpNames.contains(about) {
                return .help
            }
            try expectNoMore(values, after: name)
            return .help
        case "open":
            return .open(try bookID(values, command: name))
        case "reviews":
            return .reviews(try bookID(values, command: name))
        case "search":
            // Several words are one query, so `weread search the hobbit` needs no quotes.
            let text = values.joined(separator: " ").trimmingWhitespace()
            guard !text.isEmpty else {
                throw UsageError(problem: "search needs some text to look for.", fix: "Try: weread search tolkien")
            }
            return .search(text)
        case "graph":
            // The argument named is the one that is wrong: quoting them all would quote a
            // `--dot` among them too ("takes only the option --dot, not '--dot --svg'").
            let fix = "Try: weread graph    or: weread graph --dot"
            let dot = options.first == "--dot"
            let rest = Array(values.dropFirst(dot ? 1 : 0))
            guard let extra = rest.first else { return .graph(dot: dot) }
            if dot { try expectNoMore(rest, after: name, "--dot", fix: fix) }
            // After `--` even `--dot` is a value, which "takes only the option --dot, not
            // '--dot'" would not explain.
            if options.isEmpty {
                throw UsageError(
                    problem: "graph takes no values, and '\(TextLayout.echoed(extra))' after '--' is one.", fix: fix)
            }
            throw UsageError(problem: "graph takes only the option --dot, not '\(TextLayout.echoed(extra))'.", fix: fix)
        case "open-url":
            guard let url = values.first else {
                throw UsageError(problem: "open-url needs a link.", fix: "Try: weread open-url weread://book/42")
            }
            // More than one value is most often a link the shell split at a space.
            try expectNoMore(
                Array(values.dropFirst()), after: "open-url", url,
                fix: "A link is one argument: quote it, and write a space in it as %20, "
                    + "e.g. weread open-url 'weread://search?q=the%20hobbit'")
            return .openURL(url)
        case "--dot":
            // The one option a command takes, written before the command it belongs to.
            throw UsageError(
                problem: "'--dot' is an option of graph; it goes after the command.", fix: "Try: weread graph --dot")
        default:
            throw UsageError(
                problem: "unknown command '\(TextLayout.echoed(name))'.",
                fix: "Run `weread --help` to see the commands.")
        }
    }

    /// The commands that take values: `--help` or `-h` after one, or any way of asking for
    /// help before one, shows the help.
    private static let commands: Set = ["open", "reviews", "search", "graph", "open-url"]

    /// The ways to ask for the help.
    private static let helpNames: Set = ["--help", "-h", "help"]

    /// Reads the single book id that `open` and `reviews` take.
    private static func bookID(_ values: [String], command: String) throws(UsageError) -> BookID {
        guard let text = values.first else {
            throw UsageError(problem: "\(command) needs a book id.", fix: "Try: weread \(command) 42")
        }
        guard let id = BookID(parsing: text) else {
            if isTooLargeForABookID(text) {
                throw UsageError(
                    problem: "'\(TextLayout.echoed(text))' is too large to be a book id.",
                    fix: "Find a book's id with: weread search <text>")
            }
            throw UsageError(
                problem: "'\(TextLayout.echoed(text))' is not a book id; ids are whole numbers from 1, such as 42.",
                fix: "Find a book's id with: weread search <text>")
        }
        try expectNoMore(Array(values.dropFirst()), after: command, text)
        return id
    }

    /// Whether `text` is a whole number from 1 that is too large to be a ``BookID``: only
    /// digits and not zero, yet not an id. Such text is told it is too large, not that an
    /// id is a whole number from 1, which it is.
    static func isTooLargeForABookID(_ text: String) -> Bool {
        BookID(parsing: text) == nil && !text.isEmpty && text.allSatisfy({ $0.isASCII && $0.isNumber })
            && text.contains(where: { $0 != "0" })
    }

    /// Refuses what follows `weread <command> [<value>]` when anything does.
    private static func expectNoMore(
        _ values: [String], after command: String, _ value: String? = nil,
        fix: String = "Run `weread --help` to see what each command takes."
    ) throws(UsageError) {
        guard let extra = values.first else { return }
        // Arguments are echoed as `weread search` echoes its text: a terminal escape or a
        // right-to-left override in one (pasted, or passed on by a script) is spelled out,
        // and a huge one is cut.
        let given = "weread \(command)" + (value.map { " " + TextLayout.echoed($0) } ?? "")
        throw UsageError(problem: "unexpected argument '\(TextLayout.echoed(extra))' after '\(given)'.", fix: fix)
    }
}

extension String {
    /// The string without leading or trailing whitespace (Foundation-free).
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
