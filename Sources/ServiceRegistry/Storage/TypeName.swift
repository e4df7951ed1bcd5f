/// Formats type names for errors, listings and graphs (never on the resolve path).
///
/// `package`, so that the router's route listing and errors write names and types as the
/// registry's errors and graphs do.
package enum TypeName {
    /// The type as code outside it writes it: with the types it is nested in, without its
    /// module. `Reviews.Config` for a `Config` nested in `Reviews`, `Array<Reviews.Config>`,
    /// `(Reviews.Config) -> Int`, `ReviewService` for `(any ReviewService).self`,
    /// `(String, Int)` for a tuple; a top-level type reads as its bare name.
    ///
    /// The rule: ``qualified(_:)`` (`String(reflecting:)`, which writes every nominal type
    /// as a dotted path from its module, `Swift.Array<Reviews.Reviews.Config>`) without the
    /// first part of each dotted path, the module. Only the first part: an enum `Reviews` in
    /// module `Reviews` keeps its name (`Reviews.Config`), and a member of a generic type
    /// keeps its path (`Box<Int>.Inner`). A name with no dot after it is no path and stays
    /// (`Any`, `inout`, a tuple label), as do `Any.Type` and the `Self.` of a constrained
    /// existential's requirement. A private or local type, whose context the runtime writes
    /// as an address, is named by the named types around it (`Holder.Helper`; `Helper` for
    /// one at the top of a file or in a global function); a type nested in an extension of
    /// another module's type is named as that type's member (`Array<Int>.Page`).
    ///
    /// A parameter pack's types stand among the other generic arguments, as code writes
    /// them (``withoutPackBraces(_:)``): `Row<Int, String>`, not `Row<Pack{Int, String}>`.
    ///
    /// A constrained existential keeps its `any `, which code must write
    /// (``qualified(_:)`` leaves it out at the top), and one whose runtime form states one
    /// requirement is written as code writes it (``withPrimaryAssociatedTypes(_:)``):
    /// `any Sequence<Int>`, not `Sequence<Self.Sequence.Element == Int>`.
    package static func of(_ type: Any.Type) -> String {
        remembered(type, \.short) {
            let name = withPrimaryAssociatedTypes(withoutPackBraces(withoutModules(qualified(type))))
            return String(reflecting: type).hasPrefix("any ") ? "any " + name : name
        }
    }

    /// The names formatted so far, by type.
    ///
    /// Formatting one walks the name character by character, several microseconds for a
    /// short name and more for a long generic one, and the same few types come back again
    /// and again: a failing resolve names its service type once more for every other
    /// registration of that type it lists, and validation formats each type on a failure's
    /// path for every registration whose build fails through it (a missing service at the
    /// bottom of a chain of `n` services made validating it cost `n²` formattings). A type's
    /// metadata lives as long as the process, so its names never change, and the cache
    /// grows no further than the set of types that errors, listings and graphs show.
    private static let names = Lock<[ObjectIdentifier: FormattedNames]>([:])

    /// The two forms of one type's name, each formatted on first use.
    private struct FormattedNames {
        var short: String?
        var qualified: String?
    }

    /// The form `form` of `type`'s name: remembered, or made by `format` (outside the lock,
    /// so two threads may format one name at once; both store the same text).
    private static func remembered(
        _ type: Any.Type, _ form: WritableKeyPath<FormattedNames, String?>, format: () -> String
    ) -> String {
        let id = ObjectIdentifier(type)
        if let name = names.withLock({ $0[id]?[keyPath: form] }) { return name }
        let name = format()
        names.withLock { $0[id, default: FormattedNames()][keyPath: form] = name }
        return name
    }

    /// `name` with each constrained existential's list of requirements as code writes it:
    /// the runtime's `Sequence<Self.Sequence.Element == Int>` as `Sequence<Int>`. Only a list
    /// of one requirement: a protocol with one primary associated type. With several, the
    /// runtime orders the requirements by name, and the order the protocol declares its
    /// primary associated types in, which code follows, is not known here, so the list stays.
    static func withPrimaryAssociatedTypes(_ name: String) -> String {
        guard let open = name.firstRange(of: "<Self.") else { return name }
        // The `>` that closes the list.
        var found: String.Index?
        walkBrackets(name[open.lowerBound...]) { index, character, depth, isArrow in
            if character == ">", !isArrow, depth == 0 { found = index }
            return found == nil
        }
        guard let close = found else { return name }
        let requirements = String(name[name.index(after: open.lowerBound)..<close])
        var list = withPrimaryAssociatedTypes(requirements)
        let rest = withPrimaryAssociatedTypes(String(name[name.index(after: close)...]))
        if let equals = list.firstRange(of: " == "), !list[..<equals.lowerBound].contains(" "),
            !containsTopLevelComma(list[equals.upperBound...])
        {
            // `Self.Sequence.Element`: the requirement is on `Sequence`.
            let requirement = list[..<equals.lowerBound].dropFirst("Self.".count)
            let arguments = String(list[equals.upperBound...])
            if list.hasPrefix("Self."), let dot = requirement.lastIndex(of: "."),
                let written = attaching(arguments, to: requirement[..<dot], in: name[..<open.lowerBound])
            {
                return written + rest
            }
            list = arguments
        }
        return name[..<open.lowerBound] + "<" + list + ">" + rest
    }

    /// `head`, which ends with a composition (`Sequence & AnyObject`), with `<arguments>`
    /// after its member `member`, as code writes a constrained protocol of a composition
    /// (`Sequence<Int> & AnyObject`); the runtime writes the requirements after the
    /// composition's last member, whichever protocol they constrain. `nil` when `member` is
    /// that last member (a whole member: `MySequence` ends with `Sequence` but is not it),
    /// or no member followed by ` & ` at the end of `head`: the requirements then go
    /// after `head`.
    private static func attaching(_ arguments: String, to member: Substring, in head: Substring) -> String? {
        guard !member.isEmpty else { return nil }
        // Whether `member` starts at `index` as a whole member, not as the end of a longer
        // name (`MySequence`, `Outer.Sequence` for `Sequence`).
        func startsMember(at index: Substring.Index) -> Bool {
            index == head.startIndex || " <([,".contains(head[head.index(before: index)])
        }
        // The last member: the requirements already stand after it.
        if head.hasSuffix(member), startsMember(at: head.index(head.endIndex, offsetBy: -member.count)) {
            return nil
        }
        // The last `member & ` that starts a member, with only further members after it.
        let found = head.ranges(of: member + " & ").last { range in
            startsMember(at: range.lowerBound)
                && !head[range.upperBound...].contains(where: { "<>()[],".contains($0) })
        }
        guard let found else { return nil }
        let memberEnd = head.index(found.lowerBound, offsetBy: member.count)
        return head[..<memberEnd] + "<" + arguments + ">" + head[memberEnd...]
    }

    /// `name` with each parameter pack, which the runtime writes as `Pack{Int, String}`, as
    /// code writes it: its types among the other generic arguments (`Row<Int, String>`),
    /// an empty one left out (`Keyed<String>`), or `Row< >` when it is the only argument
    /// (`Row<>` reads as an operator). Outside a backquoted identifier, only a pack writes
    /// `{` and `}` in a type name.
    static func withoutPackBraces(_ name: String) -> String {
        guard name.contains("Pack{") else { return name }
        var result = ""
        var rest = Substring(name)
        while let character = rest.first {
            if character == "`" {
                let identifier = identifierPrefix(of: rest)
                result += identifier
                rest = rest.dropFirst(identifier.count)
            } else if rest.hasPrefix("Pack{}") {
                rest = rest.dropFirst("Pack{}".count)
                if result.hasSuffix(", ") {
                    result.removeLast(2)
                } else if rest.hasPrefix(", ") {
                    rest = rest.dropFirst(2)
                } else {
                    result += " "
                }
            } else if rest.hasPrefix("Pack{") {
                rest = rest.dropFirst("Pack{".count)
            } else {
                if character != "}" { result.append(character) }
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// Whether `text` has a `,` outside brackets: a list of several requirements.
    private static func containsTopLevelComma(_ text: Substring) -> Bool {
        var found = false
        walkBrackets(text) { _, character, depth, _ in
            found = character == "," && depth == 0
            return !found
        }
        return found
    }

    /// Walks `text` with the depth of brackets (`<>`, `()`, `[]`) each character stands
    /// at: the depth outside it for a bracket itself, so an opening and its closing one
    /// share a depth. The `>` of a function type's `->` closes nothing and is marked
    /// `isArrow`. `body` returns whether to go on.
    private static func walkBrackets<Text: StringProtocol>(
        _ text: Text, _ body: (_ index: Text.Index, _ character: Character, _ depth: Int, _ isArrow: Bool) -> Bool
    ) {
        var depth = 0
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            let isArrow = character == ">" && previous == "-"
            previous = character
            if character == ")" || character == "]" || (character == ">" && !isArrow) { depth -= 1 }
            guard body(index, character, depth, isArrow) else { return }
            if character == "<" || character == "(" || character == "[" { depth += 1 }
        }
    }

    /// `name`, a type name as ``qualified(_:)`` writes it, with the first part of every
    /// dotted path left out (see ``of(_:)``). Also drops the `(extension in Module):` the
    /// runtime writes before a type nested in an extension of another module's type, and
    /// writes a private type's `(Helper in _0123ABCD)` as `Helper`.
    static func withoutModules(_ name: String) -> String {
        var result = ""
        var rest = Substring(name)
        // Whether an identifier met now starts a dotted path, rather than continuing one
        // after a `.` (`Reviews.Config`, `Box<Int>.Inner`).
        var startsPath = true
        while let character = rest.first {
            if character == "`" || !isDelimiter(character) {
                let identifier = identifierPrefix(of: rest)
                rest = rest.dropFirst(identifier.count)
                if startsPath, identifier != "Any", identifier != "Self", rest.first == ".",
                    rest.dropFirst().first.map({ $0 != "." }) ?? false
                {
                    rest = rest.dropFirst()  // the module and its dot
                    startsPath = false
                    continue
                }
                result += identifier
                // `Self.Swift.Sequence.Element`: the requirement's path starts after `Self.`.
                if identifier == "Self", rest.first == "." {
                    result += "."
                    rest = rest.dropFirst()
                    continue
                }
                startsPath = false
            } else if character == "(", let (replacement, after) = contextNote(at: rest) {
                result += replacement
                rest = after
                startsPath = replacement.isEmpty
            } else {
                result.append(character)
                rest = rest.dropFirst()
                // After `>`, `)`, `]` or `}` a `.` goes on to a member (`Box<Int>.Inner`,
                // `(Int, Int).Type`); after `.` the path goes on; anything else ends it.
                switch character {
                case ">" where !result.hasSuffix("->"), ")", "]", "}", ".": startsPath = false
                default: startsPath = true
                }
            }
        }
        return result
    }

    /// The identifier `text` starts with: a backquoted one (`` `Weird Name` ``) or the
    /// characters up to the next delimiter; a backquote that nothing closes stands alone, so
    /// the scan always moves on.
    private static func identifierPrefix(of text: Substring) -> Substring {
        if text.first == "`" {
            guard let close = text.dropFirst().firstIndex(of: "`") else { return text.prefix(1) }
            return text[...close]
        }
        return text.prefix { !isDelimiter($0) }
    }

    /// The characters that end an identifier in a type name.
    private static func isDelimiter(_ character: Character) -> Bool {
        character.isWhitespace || ".,:;<>()[]{}&?!=@-`".contains(character)
    }

    /// What to write for the context note `text` starts with, and the text after it:
    /// nothing for `(extension in Module):`, `Helper` for `(Helper in _0123ABCD)`; `nil`
    /// when `text` starts with no such note (a tuple or a function's parameters).
    private static func contextNote(at text: Substring) -> (replacement: Substring, after: Substring)? {
        guard let close = text.firstIndex(of: ")") else { return nil }
        let inside = text[text.index(after: text.startIndex)..<close]
        let after = text[text.index(after: close)...]
        if inside.hasPrefix("extension in "), after.first == ":" {
            return ("", after.dropFirst())
        }
        if let separator = inside.firstRange(of: " in _") {
            let name = inside[..<separator.lowerBound]
            let discriminator = inside[separator.upperBound...]
            if !name.isEmpty, !name.contains(where: isDelimiter),
                !discriminator.isEmpty, discriminator.allSatisfy({ $0.isLetter || $0.isNumber })
            {
                return (name, after)
            }
        }
        return nil
    }

    /// `WeReadInterfaces.ReviewService`: the type with its module and the types it is
    /// nested in. The part the runtime gives a private or local type's context,
    /// `(unknown context at $…).`, is left out: it holds an address that differs from run
    /// to run.
    package static func qualified(_ type: Any.Type) -> String {
        remembered(type, \.qualified) {
            var name = String(reflecting: type)
            if name.hasPrefix("any ") { name.removeFirst(4) }
            while let start = name.firstRange(of: "(unknown context at "),
                let end = name[start.upperBound...].firstIndex(of: ")")
            {
                let afterEnd = name.index(after: end)
                let dot = afterEnd < name.endIndex && name[afterEnd] == "." ? name.index(after: afterEnd) : afterEnd
                name.removeSubrange(start.lowerBound..<dot)
            }
            return name
        }
    }

    /// Names for `types` that one message shows together, in their order: each as
    /// ``of(_:)`` writes it, unless another of them reads the same, when both read as
    /// ``qualified(_:)`` writes them. Two components' `Config`, one given and one
    /// registered, would otherwise read "given `Config`, registered with `Config`".
    package static func distinguishing(_ types: [Any.Type]) -> [String] {
        let names = types.map(of)
        var typesByName: [String: Set<ObjectIdentifier>] = [:]
        for (name, type) in zip(names, types) {
            typesByName[name, default: []].insert(ObjectIdentifier(type))
        }
        return zip(names, types).map { name, type in
            (typesByName[name]?.count ?? 0) > 1 ? qualified(type) : name
        }
    }

    /// How code names the metatype of the type called `typeName` (as ``of(_:)`` spells
    /// it): `ReviewService.self`, or `(Clock & ReviewService).self` and
    /// `((Int) -> String).self` for a composition or a function type, where `.self` would
    /// bind to the last part alone, as for a constrained existential
    /// (`(any Sequence<Int>).self`). An `&` or `->` inside brackets binds there
    /// (`Array<(Int) -> Int>.self`), so only one outside them asks for parentheses. The empty
    /// tuple's is `Void.self`: `().self` is a value.
    static func metatypeExpression(_ typeName: String) -> String {
        // `().self` is the empty tuple's value, not its type.
        if typeName == "()" { return "Void.self" }
        // `(any Sequence<Int>).self`: `.self` would bind to `Sequence<Int>` alone.
        var needsParentheses = typeName.hasPrefix("any ")
        walkBrackets(typeName) { _, character, depth, isArrow in
            if depth == 0, isArrow || character == "&" { needsParentheses = true }
            return true
        }
        return needsParentheses ? "(\(typeName)).self" : "\(typeName).self"
    }

    /// How an error someone else's code threw reads in a message: its own text, except
    /// that an enum without a description, which prints as its bare case name (`offline`,
    /// `timedOut(seconds: 3)`), is named with its type, as code names it
    /// (`NetworkError.offline`), so the reader knows what it is and where to look.
    package static func describeError(_ error: any Error) -> String {
        let text = String(describing: error)
        guard !(error is any CustomStringConvertible), !(error is any CustomDebugStringConvertible),
            Mirror(reflecting: error).displayStyle == .enum
        else { return text }
        return "\(of(type(of: error))).\(text)"
    }

    /// `ReviewService` or `ReviewService (name: "offline")`.
    static func describe(_ typeName: String, name: String?) -> String {
        guard let name else { return typeName }
        return "\(typeName) (name: \(literal(name)))"
    }

    /// `text` as a Swift string literal in which every character shows: quotes,
    /// backslashes, and characters one cannot see (controls, format characters such as
    /// U+200B ZERO WIDTH SPACE, spaces other than U+0020, U+2800 BRAILLE PATTERN BLANK,
    /// separators, private-use and unassigned code points) are escaped. Swift tells apart
    /// names that differ only in those, so an error listing them must too;
    /// `debugDescription` leaves most of them as they are.
    package static func literal(_ text: String) -> String {
        "\"" + escaped(text, quotes: true) + "\""
    }

    /// `text` with the characters one cannot see escaped as ``literal(_:)`` escapes them
    /// (`\n`, `\u{200B}`), and nothing else: for text a message quotes that is not Swift
    /// source, such as a URL or a value read from one. A newline would break the message
    /// and a zero-width space would hide why `4\u{200B}2` is not a number.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != " " && isInvisible($0) }) else { return text }
        return escaped(text, quotes: false)
    }

    /// `text` with the characters one cannot see escaped, and with quotes and backslashes
    /// too when `quotes` (for a Swift string literal).
    private static func escaped(_ text: String, quotes: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quotes: result += "\\\""
            case "\\" where quotes: result += "\\\\"
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

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        // U+2800 BRAILLE PATTERN BLANK is a symbol (So), not a space, but draws nothing.
        if scalar.properties.isDefaultIgnorableCodePoint || scalar == "\u{2800}" { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate,
            .unassigned:
            return true
        default:
            return false
        }
    }
}
