import ServiceRouter
import Testing

@Suite("Route patterns")
struct RoutePatternTests {
    @Test func normalisesSchemeHostAndQueryOrder() throws {
        let pattern = try RoutePattern("WeRead://Book/:bookId(int)/Reviews?sort=:order&tab=all#:section")
        #expect(pattern.description == "weread://book/:bookId(int)/Reviews?sort=:order&tab=all#:section")
        #expect(try RoutePattern("weread://x?b=1&a=2") == RoutePattern("weread://x?a=2&b=1"))
        #expect(try RoutePattern("weread://x/y/") == RoutePattern("weread://x//y"))
        #expect(try RoutePattern("weread://x/%E7%BA%A2") == RoutePattern("weread://x/红"))
    }

    @Test func listsParameterNamesInOrder() throws {
        let pattern = try RoutePattern("weread://:screen/:id(uuid)/*rest?q&page=:page(int)#:anchor")
        #expect(pattern.parameterNames == ["screen", "id", "rest", "page", "q", "anchor"])
        #expect(try RoutePattern("weread://web/*").parameterNames == ["*"])
    }

    @Test func canonicalFormParsesBackToTheSamePattern() throws {
        for text in [
            "weread://book/%3Aliteral/%2A?x=%3Av#%3Af", "weread://:host/a%2Fb/*tail", "mailto:*", "weread:///x",
            "weread://search?q", "https://weread.example/book/:id(int)?from=:source#reviews",
            "weread://x?from-page", "weread://x?a%20b&c=:c", "weread://x?q=:q", "weread://x?%3Ax&%3Ay=:y",
        ] {
            let pattern = try RoutePattern(text)
            #expect(try RoutePattern(pattern.description) == pattern, "\(text)")
            #expect(try RoutePattern(pattern.description).description == pattern.description)
        }
    }

    @Test(arguments: [
        "book/:id",
        "1x://book",
        "weread://book/:",
        "weread://book/:id(int",
        "weread://book/:id(int)x",
        "weread://book/:id(nope)",
        "weread://book/:id()",
        "weread://book/:i-d",
        "weread://book/*/more",
        "weread://book/*bad-name",
        "weread://book/:id/:id",
        "weread://book/:id?id",
        // An unnamed wildcard's value is read as `*`, which `?*` would capture too.
        "weread://book/*?*",
        "weread://book?q=1&q=2",
        "weread://book?=1",
        "weread://book#",
        "weread://book/%zz",
        "weread://book:80/x",
        "weread://book::/x",
        "weread://:/x",
        "weread://user@book/x",
        "weread://book/a b",
        "weread://book?q=a+b",
        "weread://book?a+b",
    ])
    func rejectsInvalidPatternsWithTheProblem(pattern: String) {
        let reason = routeErrorReason { () throws(RouteError) in try RoutePattern(pattern) }
        guard case .invalidPattern(let text, let problem)? = reason else {
            Issue.record("expected invalidPattern for \(pattern), got \(String(describing: reason))")
            return
        }
        #expect(text == pattern)
        #expect(!problem.isEmpty)
    }

    /// A host that starts with ':' is a parameter, whatever its name: digits after that
    /// ':' name it (parameter names may be digits), they are not a port.
    @Test func aHostParameterNamedByDigitsIsNoPort() throws {
        let pattern = try RoutePattern("weread://:1/x")
        #expect(pattern.parameterNames == ["1"])
        let router = try makeEchoRouter(["weread://:1/x"])
        #expect(try router.match("weread://book:8080/x").parameters["1"] == "book")
    }

    /// A pattern is refused for every byte a URL is refused for, DEL (0x7F) included: a
    /// route spelling one raw could never match.
    @Test(arguments: ["weread://book/a\u{7F}", "weread://book?q=\u{7F}", "weread://book#\u{7F}"])
    func aPatternWithADeleteCharacterIsRefused(pattern: String) throws {
        let problem = try #require(invalidPatternProblem(pattern))
        #expect(problem == "it contains a control character; percent-encode it")
        #expect(throws: RouteError.self) { try RouteURL(pattern) }
    }

    /// The canonical form writes each character its component allows as it is: `~` and
    /// the other unreserved characters everywhere, and `=`, `&`, `+`, `/` and `?` in a
    /// fragment. A literal query value or fragment that starts with ':' stays escaped (`%3A`),
    /// since a raw one would read back as a capture.
    @Test(arguments: [
        "weread://u/~me/a-b.c_d", "weread://x#a=b&c+d/e?f~", "weread://x?q=a/b?c:d@e~", "weread://x?x=%3Av#%3Af",
    ])
    func theCanonicalFormLeavesWhatItsComponentAllowsUnescaped(text: String) throws {
        #expect(try RoutePattern(text).description == text)
    }

    /// As in a URL, an empty port is no port (RFC 3986), so a pattern may spell one too.
    @Test func anEmptyPortIsNoPortInPatternsAndURLsAlike() throws {
        #expect(try RoutePattern("weread://Book:/:id").description == "weread://book/:id")
        #expect(try RoutePattern("weread://:screen:/x") == RoutePattern("weread://:screen/x"))
        let router = try makeEchoRouter(["weread://book:/:id"])
        #expect(try router.open("weread://book:/42", as: String.self) == "weread://book/:id")
        #expect(try router.open("weread://book/42", as: String.self) == "weread://book/:id")
        #expect(try router.open("weread://book:8080/42", as: String.self) == "weread://book/:id")
        #expect(try router.url(for: "weread://book:/:id", parameters: ["id": 42]) == "weread://book/42")
    }

    /// A host the router cannot match is refused for what is actually wrong with it, as a
    /// URL's host would be: credentials (with or without a password), an IP literal, a
    /// port after a host parameter or wildcard, or a ':' that is not a port's.
    @Test(arguments: [
        ("weread://u:p@book/x", "contains credentials ('@'); remove the user part"),
        ("weread://user@book/x", "contains credentials ('@'); remove the user part"),
        ("weread://[::1]/x", "is an IP literal ('[...]'), which the router does not support (it refuses URLs with one as malformed); write a host name"),
        ("weread://book:80/x", "names the port ':80'; routes match a host whatever the URL's port, so remove it"),
        ("weread://:screen:8080/x", "names the port ':8080'; routes match a host whatever the URL's port, so remove it"),
        ("weread://*:8080", "names the port ':8080'; routes match a host whatever the URL's port, so remove it"),
        ("weread://a:b/x", "contains ':', which would start a port in a URL; write a literal ':' as %3A"),
        // An empty port is no port, so what is left, `book:`, has a ':' that starts none.
        ("weread://book::/x", "contains ':', which would start a port in a URL; write a literal ':' as %3A"),
    ])
    func aBadHostIsRefusedForWhatIsWrongWithIt(pattern: String, problem: String) {
        let reason = routeErrorReason { () throws(RouteError) in try RoutePattern(pattern) }
        guard case .invalidPattern(_, let found)? = reason else {
            Issue.record("expected invalidPattern for \(pattern), got \(String(describing: reason))")
            return
        }
        #expect(found.hasSuffix(problem), "\(pattern): \(found)")
    }

    /// `é` as one scalar (NFC) and as `e` and U+0301 (NFD) are canonically equivalent, and
    /// the router compares literals, query names and query values as Swift compares
    /// strings, so either spelling matches the other; a captured value keeps the URL's.
    @Test(arguments: [("caf\u{E9}", "cafe%CC%81"), ("cafe\u{301}", "caf%C3%A9")])
    func literalsMatchTheOtherUnicodeNormalizationForm(patternSpelling: String, urlSpelling: String) throws {
        let literal = "app://shelf/\(patternSpelling)"
        let everywhere = "app://\(patternSpelling)/:name?\(patternSpelling)=\(patternSpelling)#\(patternSpelling)"
        let router = try makeEchoRouter([literal, everywhere])
        #expect(try router.open("app://shelf/\(urlSpelling)", as: String.self) == RoutePattern(literal).description)
        let request = try router.match("app://\(urlSpelling)/\(urlSpelling)?\(urlSpelling)=\(urlSpelling)#\(urlSpelling)")
        #expect(try request.pattern == RoutePattern(everywhere).description)
        let name = try #require(request.parameters["name"])
        #expect(name == patternSpelling)
        let asInURL = try RouteURL("app://x/\(urlSpelling)").pathSegments[0]
        #expect(Array(name.unicodeScalars) == Array(asInURL.unicodeScalars))
    }

    /// A parameter is a whole segment: `book-:id` (as Express-style routers write a prefix
    /// and a parameter) would be the literal text `book-:id`, which only a link spelling
    /// that text matches, so it is refused with the fix.
    @Test(arguments: [
        ("app://book/isbn-:code", "the segment 'isbn-:code' contains ':code' after its start, but a parameter is a whole segment (':code' alone between '/')"),
        ("app:book-:id", "the segment 'book-:id' contains ':id' after its start, but a parameter is a whole segment (':id' alone between '/')"),
        ("app://x/file.:ext(int)", "the segment 'file.:ext(int)' contains ':ext' after its start, but a parameter is a whole segment (':ext' alone between '/')"),
        // The character before the ':' is read decoded: `x%2D` is `x-`.
        ("app://x/x%2D:id", "the segment 'x%2D:id' contains ':id' after its start, but a parameter is a whole segment (':id' alone between '/')"),
        ("app://x/%C2%BB:id", "the segment '%C2%BB:id' contains ':id' after its start, but a parameter is a whole segment (':id' alone between '/')"),
        // A prefix that is one escape, read decoded: `%2D` is `-`.
        ("app://x/%2D:id", "the segment '%2D:id' contains ':id' after its start, but a parameter is a whole segment (':id' alone between '/')"),
        // A parameter name may start with '_'.
        ("app://book/isbn-:_code", "the segment 'isbn-:_code' contains ':_code' after its start, but a parameter is a whole segment (':_code' alone between '/')"),
    ])
    func aParameterAfterAPrefixInASegmentIsRefused(pattern: String, start: String) throws {
        guard let problem = invalidPatternProblem(pattern) else { return }
        #expect(problem.hasPrefix(start), "\(problem)")
        #expect(problem.hasSuffix("give the parameter a segment of its own, or write a literal ':' as %3A"), "\(problem)")
    }

    /// A ':' that does not start a name after a prefix is the segment's own text, as in a
    /// time or a URN, and matches the URL spelling it raw or as `%3A`. A letter or digit of
    /// any script counts, written raw or percent-encoded.
    @Test func aColonThatIsTheSegmentsOwnTextIsLiteral() throws {
        let otherScripts = [
            ("app://e/caf\u{E9}:x", "app://e/caf%C3%A9:x"), ("app://d/%C3%A9:x", "app://d/\u{E9}:x"),
            ("app://n/\u{663}:x", "app://n/\u{663}%3Ax"), ("app://c/cafe\u{301}:x", "app://c/cafe\u{301}:x"),
        ]
        let router = try makeEchoRouter(
            ["app://at/12:30", "app://isbn/urn:isbn:978", "app://x/a:", "app://y/12%3A30"] + otherScripts.map(\.0))
        for (pattern, url) in otherScripts {
            #expect(try router.open(url, as: String.self) == RoutePattern(pattern).description, "\(url)")
        }
        #expect(try router.open("app://at/12:30", as: String.self) == "app://at/12%3A30")
        #expect(try router.open("app://at/12%3A30", as: String.self) == "app://at/12%3A30")
        #expect(try router.open("app://isbn/urn:isbn:978", as: String.self) == "app://isbn/urn%3Aisbn%3A978")
        #expect(try router.open("app://x/a:", as: String.self) == "app://x/a%3A")
        #expect(try router.open("app://y/12:30", as: String.self) == "app://y/12%3A30")
    }

    /// A ':' after an ASCII digit is the segment's own text even when a letter follows it
    /// (`v2:beta`, `12:a`), as after a letter.
    @Test func aColonAfterADigitIsTheSegmentsOwnTextWhateverFollowsIt() throws {
        let router = try makeEchoRouter(["app://v/v2:beta", "app://t/12:a"])
        #expect(try router.open("app://v/v2:beta", as: String.self) == "app://v/v2%3Abeta")
        #expect(try router.open("app://t/12%3Aa", as: String.self) == "app://t/12%3Aa")
    }

    /// A parameter written as other routers write one (`{id}`, `{id:int}`) would be literal
    /// text that no link spells, so it is refused with this router's spelling of it; literal
    /// braces are written `%7B` and `%7D`.
    @Test(arguments: [
        ("app://book/{id}", "it contains '{id}', which is literal text here, not a parameter; write a parameter as ':id'"),
        ("app://book/{id:int}/reviews", "it contains '{id:int}', which is literal text here, not a parameter; write a parameter as ':id(int)'"),
        ("app://book/{id:guid}", "it contains '{id:guid}', which is literal text here, not a parameter; write a parameter as ':id' (':id(type)' for a typed one)"),
        ("app://search?q={text}", "it contains '{text}', which is literal text here, not a parameter; write a parameter as ':text'"),
        ("app://{screen}", "it contains '{screen}', which is literal text here, not a parameter; write a parameter as ':screen'"),
        ("app://x#{part}", "it contains '{part}', which is literal text here, not a parameter; write a parameter as ':part'"),
        ("app://book/{a b}", "it contains a space; percent-encode it"),
        ("app://book/{id", "it contains '{', which is literal text here, not a parameter; write a parameter as ':name'"),
        ("app://book/a}", "it contains '}', which is literal text here, not a parameter; write a parameter as ':name'"),
    ])
    func aParameterInBracesIsRefusedWithThisRoutersSpelling(pattern: String, start: String) throws {
        guard let problem = invalidPatternProblem(pattern) else { return }
        #expect(problem.hasPrefix(start), "\(problem)")
    }

    @Test func literalBracesAreWrittenEncodedAndMatchEitherSpelling() throws {
        let router = try makeEchoRouter(["app://book/%7Bid%7D"])
        #expect(try router.open("app://book/{id}", as: String.self) == "app://book/%7Bid%7D")
        #expect(try router.open("app://book/%7Bid%7D", as: String.self) == "app://book/%7Bid%7D")
    }

    @Test func aPatternWithoutSchemeSaysSoRatherThanCallingItsPathABadScheme() {
        guard let problem = invalidPatternProblem("book/:id") else { return }
        #expect(problem.hasPrefix("it has no scheme"), "\(problem)")
    }

    @Test func queryLiteralsMatchURLsSpelledEitherWay() throws {
        let router = try makeEchoRouter(["weread://tab?name=a%20b", "weread://tab?name=a%2Bb"])
        #expect(try router.open("weread://tab?name=a+b", as: String.self) == "weread://tab?name=a%20b")
        #expect(try router.open("weread://tab?name=a%20b", as: String.self) == "weread://tab?name=a%20b")
        #expect(try router.open("weread://tab?name=a%2Bb", as: String.self) == "weread://tab?name=a%2Bb")
    }

    /// `?:q` reads like a capture but, taken at its word, would require an item literally
    /// named `:q`: refused, with how query items are written and what was likely meant.
    @Test(arguments: [
        ("weread://search?:q", "to capture the item 'q' write '?q' or '?q=:q'"),
        ("weread://search?:page(int)", "to capture the item 'page' write '?page=:page(int)'"),
        ("weread://search?:(int)", "to capture the item 'name' write '?name=:name(int)'"),
        ("weread://search?:", "to capture the item 'name' write '?name=:name'"),
        ("weread://search?:tab=all", "to require the item 'tab' write '?tab=all'"),
    ])
    func aQueryItemNameStartingWithAColonIsToldHowQueryItemsAreWritten(pattern: String, fix: String) throws {
        let error = try #require(throws: RouteError.self) { try RoutePattern(pattern) }
        guard case .invalidPattern(let text, let problem) = error.reason else {
            Issue.record("expected invalidPattern for \(pattern), got \(error.reason)")
            return
        }
        #expect(text == pattern)
        #expect(problem.contains("starts with ':'"), "\(problem)")
        #expect(problem.contains("a query item is written '?name'"), "\(problem)")
        #expect(problem.contains(fix), "\(problem)")
        #expect(problem.hasSuffix("or write a literal ':' as '%3A'"), "\(problem)")
    }

    /// What the error suggests for a query item name starting with ':' is a pattern that
    /// reads: a capture's parameter name must be letters, digits or '_' (an item's name
    /// need not be, `?from-page`), and a query item needs a name.
    @Test(arguments: [
        ("weread://x?:from-page", "to capture the item 'from-page' write '?from-page',"),
        ("weread://x?:from-page(int)", "to capture the item 'from-page' write '?from-page=:name(int)'"),
        ("weread://x?:=5", "to require the item 'name' write '?name=5'"),
        ("weread://x?:(int)=5", "to require the item 'name' write '?name=5'"),
        // A type the router does not know is not suggested: it would be refused next.
        ("weread://x?:from-page(path)", "write '?from-page=:name' ('?from-page=:name(type)' for a typed one)"),
        ("weread://x?:page(path)", "write '?page=:page' ('?page=:page(type)' for a typed one)"),
        ("weread://x?:page()", "write '?page=:page' ('?page=:page(type)' for a typed one)"),
    ])
    func aQueryItemNameStartingWithAColonIsToldOnlyFixesThatRead(pattern: String, fix: String) throws {
        let problem = try #require(invalidPatternProblem(pattern))
        #expect(problem.contains(fix), "\(problem)")
        let meant = try #require(problem.firstRange(of: "write '?")).lowerBound
        let end = try #require(problem.firstRange(of: ", or write a literal ':'")).lowerBound
        // Every quoted spelling suggested, `'?…'`, parses (but the placeholder `(type)`).
        for suggested in problem[meant..<end].split(separator: "'")
        where suggested.hasPrefix("?") && !suggested.hasSuffix("(type)") {
            #expect(throws: Never.self, "\(suggested)") { try RoutePattern("weread://x" + suggested) }
        }
    }

    /// A literal ':' at the start of a query item name is written `%3A`, and the
    /// canonical form keeps it escaped so that it parses back.
    @Test func anEscapedColonStartsAQueryItemNameLiterally() throws {
        let pattern = try RoutePattern("weread://x?%3Aq")
        #expect(pattern.description == "weread://x?%3Aq")
        let router = try makeEchoRouter(["weread://x?%3Aq"])
        #expect(try router.match("weread://x?%3Aq=1").parameters[":q"] == "1")
        #expect(!router.canOpen("weread://x?q=1"))
    }

    @Test func queryShorthandCapturesUnderTheItemsOwnName() throws {
        let pattern = try RoutePattern("weread://x?from-page&q=:q")
        #expect(pattern.description == "weread://x?from-page&q")
        #expect(pattern.parameterNames == ["from-page", "q"])
    }

    /// A pattern read from a line of text keeps its newline; the error shows it escaped
    /// rather than breaking the message across lines.
    @Test func anInvalidPatternIsQuotedWithCharactersOneCannotSeeEscaped() throws {
        let error = try #require(throws: RouteError.self) { try RoutePattern("weread://book/:id\n") }
        #expect(
            error.description == "Invalid route pattern 'weread://book/:id\\n': it contains a control character; "
                + "percent-encode it.")

        // So are they in the part of the pattern the problem quotes.
        let name = try #require(throws: RouteError.self) { try RoutePattern("weread://x/:i\u{200B}d") }
        #expect(
            name.description == "Invalid route pattern 'weread://x/:i\\u{200B}d': in segment ':i\\u{200B}d', "
                + "a parameter name must be one or more letters, digits or '_'.")
    }

    @Test func unknownTypeErrorNamesTheKnownTypes() {
        do {
            _ = try RoutePattern("weread://book/:id(isbn)")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("int, string, uuid"))
            #expect(error.description.contains("Configuration.parameterTypes"))
        }
    }

    /// The known types listed include the custom ones the pattern was read with.
    @Test func unknownTypeErrorNamesTheCustomTypesToo() throws {
        let even = ParameterType(name: "even", description: "an even number") { Int($0).map { $0 % 2 == 0 } ?? false }
        let error = try #require(throws: RouteError.self) { try RoutePattern("weread://n/:n(odd)", parameterTypes: [even]) }
        #expect(error.description.contains("the parameter type 'odd' is unknown (known: even, int, string, uuid)"), "\(error)")
    }

    /// A capture in a query item's value that cannot be read names the item it is in.
    @Test func aBadCaptureInAQueryItemNamesTheItem() throws {
        let error = try #require(throws: RouteError.self) { try RoutePattern("weread://search?q=:te-rm") }
        #expect(
            error.description == "Invalid route pattern 'weread://search?q=:te-rm': in query item 'q', "
                + "a parameter name must be one or more letters, digits or '_'.")
    }

    /// A pattern keeps the text it was written as, while equality and hashing go by the
    /// normalised form: two spellings of one pattern are one key of a set or dictionary.
    @Test func twoSpellingsOfAPatternAreOneKeyAndKeepTheirText() throws {
        let written = try RoutePattern("WeRead://Book/:id?b=1&a=2")
        let normalised = try RoutePattern("weread://book/:id?a=2&b=1")
        #expect(written.text == "WeRead://Book/:id?b=1&a=2")
        #expect(normalised.text == "weread://book/:id?a=2&b=1")
        #expect(Set([written, normalised]).count == 1)
        #expect(written.hashValue == normalised.hashValue)
        #expect(try Set([written, normalised, RoutePattern("weread://book/:id?a=2")]).count == 2)
    }

    /// A wildcard matches the rest of the path, any number of segments, so it takes no
    /// type: the error says so and how to write the pattern, rather than calling
    /// `rest(int)` a bad name.
    @Test(arguments: [
        ("weread://book/*rest(int)", "'*rest(int)'", "write '*rest'", "':rest(int)'"),
        ("weread://book/*(uuid)", "'*(uuid)'", "write '*'", "':name(uuid)'"),
        ("weread://*rest(string)", "'*rest(string)'", "write '*rest'", "':rest(string)'"),
    ])
    func aWildcardWithATypeIsToldItTakesNone(pattern: String, quoted: String, fix: String, oneSegment: String) {
        guard let problem = invalidPatternProblem(pattern) else { return }
        #expect(problem.hasPrefix("the wildcard \(quoted) has a type, which a wildcard cannot take"), "\(problem)")
        #expect(problem.contains(fix), "\(problem)")
        #expect(problem.contains(oneSegment), "\(problem)")
        #expect(!problem.contains("wildcard name"), "\(problem)")
    }

    /// A wildcard written with a type this router does not know is not told to become a
    /// parameter of that type, which would be refused next as an unknown type.
    @Test(arguments: [("weread://book/*rest(path)", "path"), ("weread://book/*rest()", "")])
    func aWildcardWithAnUnknownTypeIsToldAFixThatReads(pattern: String, type: String) throws {
        let problem = try #require(invalidPatternProblem(pattern))
        #expect(problem.hasPrefix("the wildcard '\(pattern.dropFirst(14))' has a type"), "\(problem)")
        #expect(problem.contains("write '*rest'"), "\(problem)")
        #expect(problem.contains("or ':rest' (':rest(type)' for a typed one) to match one segment"), "\(problem)")
        #expect(!problem.contains("':rest(\(type))'"), "\(problem)")
        #expect(throws: Never.self) { try RoutePattern("weread://book/:rest") }
    }

    @Test func customTypesAreKnownByName() throws {
        let even = ParameterType(name: "even", description: "an even number") { Int($0).map { $0 % 2 == 0 } ?? false }
        let pattern = try RoutePattern("weread://n/:n(even)", parameterTypes: [even])
        #expect(pattern.description == "weread://n/:n(even)")
    }

    /// A custom type must be one a pattern can name, and the only type of its name: one
    /// named `a b` could never be used, two named alike would leave one silently unused,
    /// and one named like a built-in would change what `:id(int)` matches while
    /// `parameters.int(_:)` reads the built-in's values. Refused on every pattern read with
    /// them, used or not, so the mistake shows at the first registration.
    @Test(arguments: [
        (["a b"], "a b", "which cannot spell 'a b'; give the type such a name"),
        ([""], "", "which cannot spell ''"),
        (["book-id"], "book-id", "which cannot spell 'book-id'"),
        (["int"], "int", "'int' is a built-in type"),
        (["uuid"], "uuid", "'uuid' is a built-in type"),
        (["isbn", "even", "isbn"], "isbn", "two custom types have this name ('isbn 1' and 'isbn 3')"),
    ])
    func aCustomTypeNoPatternCanNameUnambiguouslyIsRefused(names: [String], bad: String, problem: String) throws {
        let types = names.enumerated().map { index, name in
            ParameterType(name: name, description: "\(name) \(index + 1)") { _ in true }
        }
        let router = ServiceRouter(registry: makeRegistry(), configuration: .init(parameterTypes: types))
        let errors = [
            #expect(throws: RouteError.self) { try RoutePattern("weread://n/:n(even)", parameterTypes: types) },
            #expect(throws: RouteError.self) { try router.register("weread://book/:id") { (_: any Greeter, _) in "" } },
            #expect(throws: RouteError.self) { try router.url(for: "weread://book/:id", parameters: ["id": 1]) },
        ]
        for error in errors.compactMap({ $0 }) {
            guard case .invalidParameterType(let name, let found) = error.reason else {
                Issue.record("expected invalidParameterType, got \(error.reason)")
                continue
            }
            #expect(name == bad)
            #expect(found.contains(problem), "\(found)")
            #expect(error.description.hasPrefix("Cannot read patterns with the custom parameter type '\(bad)': "))
            #expect(error.description.hasSuffix("every pattern read with these types is refused."))
        }
        #expect(router.routeCount == 0)
    }

    static let intSpellings = [
        ("0", true), ("-12", true), ("9223372036854775807", true), ("9223372036854775808", false),
        ("", false), ("-", false), ("+1", false), ("+5", false), ("1.5", false), ("١٢", false), ("12a", false),
        (" 1", false),
    ]

    @Test(arguments: intSpellings)
    func intTypeAcceptsWholeNumbersThatFit(value: String, accepted: Bool) {
        #expect(ParameterType.int.accepts(value) == accepted)
    }

    /// One definition of an int: `parameters.int(_:)` reads exactly the values a
    /// `:id(int)` parameter matches, so a handler of a plain `:id` takes no spelling
    /// (`+5`) that a typed route would refuse, and says why in the same words.
    @Test(arguments: intSpellings)
    func intAccessorReadsExactlyWhatTheIntTypeAccepts(value: String, accepted: Bool) {
        let parameters = RouteParameters(["id": value])
        do {
            let read = try parameters.int("id")
            #expect(accepted, "int(_:) read '\(value)' as \(read), which ParameterType.int refuses")
            #expect(read == Int(value))
        } catch {
            #expect(!accepted, "int(_:) refused '\(value)', which ParameterType.int accepts")
            guard case .invalidParameter("id", value?, let expected, _) = error.reason else {
                Issue.record("expected invalidParameter, got \(error.reason)")
                return
            }
            #expect(expected == ParameterType.int.description)
        }
    }

    @Test(arguments: [
        ("123e4567-e89b-12d3-a456-426614174000", true), ("123E4567-E89B-12D3-A456-426614174000", true),
        ("123e4567e89b12d3a456426614174000", false), ("123e4567-e89b-12d3-a456-42661417400g", false),
        ("123e4567-e89b-12d3-a456-4266141740000", false), ("", false),
    ])
    func uuidTypeAcceptsCanonicalUUIDText(value: String, accepted: Bool) {
        #expect(ParameterType.uuid.accepts(value) == accepted)
    }

    @Test func stringTypeAcceptsAnyNonEmptyValue() {
        #expect(ParameterType.string.accepts("anything at all"))
        #expect(!ParameterType.string.accepts(""))
    }
}

/// What `RoutePattern(pattern)` refuses `pattern` for; `nil`, recorded as an issue, when it
/// does not refuse it as an invalid pattern.
private func invalidPatternProblem(_ pattern: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let reason = routeErrorReason { () throws(RouteError) in try RoutePattern(pattern) }
    guard case .invalidPattern(_, let problem)? = reason else {
        Issue.record("expected invalidPattern for \(pattern), got \(String(describing: reason))", sourceLocation: sourceLocation)
        return nil
    }
    return problem
}
