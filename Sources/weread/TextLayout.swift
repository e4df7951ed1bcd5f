import WeReadInterfaces

/// Small text-formatting helpers shared by the commands (Foundation-free).
enum TextLayout {
    /// A one-line listing of a book, such as `#42  The Hitchhiker's Guide… — Douglas Adams (1979)`.
    ///
    /// The id column is padded so the titles of a list line up.
    static func bookLine(_ book: Book) -> String {
        "\(padded("#\(book.id)", to: 4)) \(book.title) — \(book.author) (\(book.year))"
    }

    /// Five stars, filled up to the rating, such as `★★★★☆` for 4.
    static func stars(_ rating: Int) -> String {
        let filled = max(0, min(5, rating))
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
    }

    /// A review on one line: stars, reviewer and text.
    static func reviewLine(_ review: Review) -> String {
        "\(stars(review.rating)) \(review.reviewer): “\(review.text)”"
    }

    /// Minutes as `3 h 05 min` or `42 min`.
    static func duration(minutes: Int) -> String {
        guard minutes >= 60 else { return "\(minutes) min" }
        let rest = minutes % 60
        return "\(minutes / 60) h \(rest < 10 ? "0" : "")\(rest) min"
    }

    /// `text` followed by spaces up to `width` characters.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// A list such as `A, B and C`, or `none`.
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: "none"
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
        }
    }

    /// A search's result: `2 books match “austen”:` and a line per book.
    static func searchResult(_ matches: [Book], for text: String) -> [String] {
        ["\(count(matches.count, "book")) \(matches.count == 1 ? "matches" : "match") “\(echoed(text))”:"]
            + matches.map { "  " + bookLine($0) }
    }

    /// What a search that matches nothing says, with an example command to try instead.
    static func noMatch(_ text: String, example: String) -> String {
        "weread: no book's title or author contains “\(echoed(text))”.\n"
            + "Try a shorter piece of a title or a surname, such as: \(example)"
    }

    /// Text someone gave weread (an argument, a search), as a message repeats it: spelled
    /// out as ``visible(_:)`` does and, when longer than 100 Unicode scalars, cut to its
    /// first 64 with `…` and its length, such as `aaaa… (100000 characters)`.
    ///
    /// An argument can be as long as the system allows (megabytes), and a message that
    /// repeats all of it buries what it says; its start is enough to tell which it was, as
    /// the router quotes the first 64 scalars of a URL too long to open. The text is cut by
    /// scalars, not characters: one character may hold any number of combining marks. So
    /// when the two counts differ the length gives both, such as `(1 character, 201 Unicode
    /// scalars)` for an `e` with 200 accents: in characters alone, text cut for being long
    /// would read as short.
    static func echoed(_ text: String) -> String {
        let scalarCount = text.unicodeScalars.count
        guard scalarCount > 100 else { return visible(text) }
        let start = String(String.UnicodeScalarView(text.unicodeScalars.prefix(64)))
        // Counted once: counting characters walks the whole text, which may be megabytes.
        let characterCount = text.count
        let characters = count(characterCount, "character")
        let length =
            characterCount == scalarCount ? characters : characters + ", " + count(scalarCount, "Unicode scalar")
        return visible(start) + "… (\(length))"
    }

    /// `text` with the characters one cannot see spelled out (`\n`, `\u{1B}`), as the
    /// router writes a link in its messages.
    ///
    /// For text that arrives in a link (`?from=`, `?q=`): a link from a notification or a
    /// web page is anyone's, and percent-encoding lets it carry a newline, a terminal
    /// escape sequence or a right-to-left override, which printed as they are would
    /// forge lines of output or recolour the terminal.
    static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case " ": result += " "
            default:
                if isInvisible(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether `scalar` draws nothing one can read, by the rule the router's messages use:
    /// controls and format characters, spaces other than U+0020 (U+00A0, U+3000), characters
    /// a renderer ignores (U+115F HANGUL CHOSEONG FILLER) or U+2800 BRAILLE PATTERN BLANK,
    /// and private-use or unassigned code points.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isDefaultIgnorableCodePoint || scalar == "\u{2800}" { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate,
            .unassigned:
            return true
        default:
            return false
        }
    }

    /// `1 book` or `3 books`.
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
