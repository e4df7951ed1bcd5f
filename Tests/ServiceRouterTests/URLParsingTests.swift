import ServiceRouter
import Testing

@Suite("URL parsing")
struct URLParsingTests {
    @Test func readsSchemeHostPathQueryAndFragment() throws {
        let url = try RouteURL("WeRead://Book/42/Reviews?from=push&debug#top")
        #expect(url.scheme == "weread")
        #expect(url.host == "book")
        #expect(url.pathSegments == ["42", "Reviews"])
        #expect(url.queryItems == [QueryItem(name: "from", value: "push"), QueryItem(name: "debug", value: nil)])
        #expect(url.fragment == "top")
        #expect(url.string == "WeRead://Book/42/Reviews?from=push&debug#top")
    }

    @Test func dropsEmptySegmentsSoTrailingAndDoubleSlashesRouteAlike() throws {
        #expect(try RouteURL("weread://book/42/").pathSegments == ["42"])
        #expect(try RouteURL("weread://book//42").pathSegments == ["42"])
        #expect(try RouteURL("weread://book").pathSegments == [])
        #expect(try RouteURL("weread://book/").pathSegments == [])
    }

    /// As Routing.md says: `.` and `..` are kept as segments, never resolved.
    @Test func keepsDotSegmentsAsTheyAre() throws {
        #expect(try RouteURL("weread://book/../debug/./reset").pathSegments == ["..", "debug", ".", "reset"])
        let router = try makeEchoRouter(["weread://book/:id"])
        #expect(try router.match("weread://book/..").parameters["id"] == "..")
    }

    @Test func distinguishesMissingAuthorityFromEmptyHost() throws {
        let mail = try RouteURL("mailto:reader@example.com")
        #expect(mail.host == nil)
        #expect(mail.pathSegments == ["reader@example.com"])
        let empty = try RouteURL("weread:///settings")
        #expect(empty.host == "")
        #expect(empty.pathSegments == ["settings"])
    }

    /// A host is compared in lowercase, also where an escape spells a capital (`%42` is `B`).
    @Test func aHostIsLowercasedAlsoWhereAnEscapeSpellsACapital() throws {
        #expect(try RouteURL("weread://%42ook/42").host == "book")
    }

    /// A user part in the authority is refused as credentials, with a message that says so
    /// and how to fix it, rather than as a host with an odd character.
    @Test func credentialsInTheAuthorityAreRefusedAsSuch() {
        guard let problem = malformedURLProblem("weread://reader@book/42") else { return }
        #expect(problem == "its authority 'reader@book' contains credentials ('@'); remove the user part")
    }

    /// An IP literal is refused for being one, as Routing.md says, rather than for the
    /// port its last ':' would seem to start or for its brackets.
    @Test(arguments: ["weread://[::1]/x", "weread://[::1]:80/x", "weread://[v1.x]"])
    func anIPLiteralHostIsRefusedAsSuch(url: String) {
        guard let problem = malformedURLProblem(url) else { return }
        #expect(problem == "its host is an IP literal ('[...]'), which the router does not support; use a host name")
    }

    /// A host may hold RFC 3986's sub-delimiters (`*` among them) and any non-ASCII
    /// character, whatever bytes its UTF-8 has (`一` is E4 B8 80, `Ā` is C4 80).
    @Test(arguments: [
        ("weread://a*b/x", "a*b"), ("weread://!$&'()*+,;=/x", "!$&'()*+,;="), ("weread://\u{4E00}/x", "\u{4E00}"),
        ("weread://\u{100}", "\u{100}"),
    ])
    func aHostMayHoldSubDelimitersAndAnyNonASCIICharacter(url: String, host: String) throws {
        #expect(try RouteURL(url).host == host)
    }

    @Test func readsPort() throws {
        let url = try RouteURL("https://weread.example:8443/book/1")
        #expect(url.host == "weread.example")
        #expect(url.port == 8443)
    }

    /// RFC 3986 allows an empty port (`port = *DIGIT`) and reads it as no port.
    @Test func readsAnEmptyPortAsNoPort() throws {
        let url = try RouteURL("weread://book:/42")
        #expect(url.host == "book")
        #expect(url.port == nil)
        #expect(url.pathSegments == ["42"])
        #expect(try RouteURL("weread://Book:?q=1").host == "book")
        #expect(try RouteURL("weread://book:#top").port == nil)
        #expect(try RouteURL("weread://:/x").host == "")
    }

    /// A port is any digits (RFC 3986 `port = *DIGIT`), so leading zeros do not make one
    /// out of range: `000080` is 80, not "not a number from 0 to 65535". Only the value is
    /// bounded.
    @Test func readsAPortWithLeadingZerosByItsValue() throws {
        #expect(try RouteURL("weread://book:000080/42").port == 80)
        #expect(try RouteURL("weread://book:0000000000000000000000000/42").port == 0)
        #expect(try RouteURL("weread://book:0065535/42").port == 65_535)
        for port in ["0065536", "99999", "1000000000000000000000"] {
            guard let problem = malformedURLProblem("weread://book:\(port)/42") else { continue }
            #expect(problem == "its port '\(port)' is not a number from 0 to 65535")
        }
    }

    /// A port is digits only: `+80` and `-0`, which `Int` would read, are refused.
    @Test(arguments: ["+80", "-0", "+0"])
    func aPortWithASignIsRefused(port: String) {
        guard let problem = malformedURLProblem("weread://book:\(port)/42") else { return }
        #expect(problem == "its port '\(port)' is not a number from 0 to 65535")
    }

    @Test func decodesPercentEscapesPerSegmentKeepingEncodedSlashInside() throws {
        let url = try RouteURL("weread://search/a%2Fb/%E7%BA%A2%E6%A5%BC%E6%A2%A6/100%25")
        #expect(url.pathSegments == ["a/b", "红楼梦", "100%"])
    }

    /// Hex digits of an escape may be lowercase (RFC 3986 §2.1): `%e7` is `%E7`.
    @Test func lowercaseEscapesDecodeAsUppercaseOnesDo() throws {
        let url = try RouteURL("weread://search/%e7%ba%a2/a%2fb?q%3d=%e7%ba%a2#%7e%3f")
        #expect(url.pathSegments == ["红", "a/b"])
        #expect(url.queryItems == [QueryItem(name: "q=", value: "红")])
        #expect(url.fragment == "~?")
    }

    /// A bad escape is reported in the component it is in, named as such, at the offset of
    /// its '%' inside that component.
    @Test(arguments: [
        ("weread://book/ab%4x", "path segment 'ab%4x'", "'%' at offset 2 is not followed by two hex digits"),
        ("weread://book/42/x%", "path segment 'x%'", "'%' at offset 1 is not followed by two hex digits"),
        ("weread://b%zz/x", "host 'b%zz'", "'%' at offset 1 is not followed by two hex digits"),
        ("weread://book?a%g=1", "query item name 'a%g'", "'%' at offset 1 is not followed by two hex digits"),
        ("weread://book?a=12%G1", "value of query item 'a' '12%G1'", "'%' at offset 2 is not followed by two hex digits"),
        ("weread://book#top%2", "fragment 'top%2'", "'%' at offset 3 is not followed by two hex digits"),
        ("weread://book/%C3%28", "path segment '%C3%28'", "the escapes do not spell valid UTF-8"),
    ])
    func aBadEscapeIsReportedInItsComponentAtItsPercentSign(url: String, component: String, problem: String) {
        let reason = routeErrorReason { () throws(RouteError) in try RouteURL(url) }
        guard case .invalidPercentEncoding(let foundComponent, let foundProblem)? = reason else {
            Issue.record("expected invalidPercentEncoding for \(url), got \(String(describing: reason))")
            return
        }
        #expect(foundComponent == component)
        #expect(foundProblem == problem)
    }

    @Test func acceptsRawUnicodePaths() throws {
        let url = try RouteURL("weread://search/红楼梦/café?q=日本語#章节")
        #expect(url.pathSegments == ["红楼梦", "café"])
        #expect(url.queryValue("q") == "日本語")
        #expect(url.fragment == "章节")
    }

    @Test func decodesPlusAsSpaceInQueriesOnlyWhenAsked() throws {
        let url = try RouteURL("weread://search/a+b?q=a+b%2Bc")
        #expect(url.pathSegments == ["a+b"])
        #expect(url.queryValue("q") == "a b+c")
        let literal = try RouteURL("weread://search?q=a+b", options: URLParsingOptions(decodesPlusAsSpace: false))
        #expect(literal.queryValue("q") == "a+b")
        // In an item's name too, with a value or without.
        let names = try RouteURL("weread://search?a+b=1&c+d")
        #expect(names.queryItems == [QueryItem(name: "a b", value: "1"), QueryItem(name: "c d", value: nil)])
        let literalNames = try RouteURL("weread://search?a+b=1&c+d", options: URLParsingOptions(decodesPlusAsSpace: false))
        #expect(literalNames.queryItems == [QueryItem(name: "a+b", value: "1"), QueryItem(name: "c+d", value: nil)])
    }

    /// A name given twice is read at its first item, by the URL, a route's capture and its
    /// requirement alike.
    @Test func aQueryNameGivenTwiceIsReadAtItsFirstItem() throws {
        #expect(try RouteURL("weread://search?q=1&q=2").queryValue("q") == "1")
        let router = try makeEchoRouter(["weread://search?q=:text", "weread://shelf?tab=reviews"])
        let request = try router.match("weread://search?q=1&q=2")
        #expect(request.parameters["text"] == "1")
        #expect(request.query("q") == "1")
        #expect(try router.match("weread://shelf?tab=reviews&tab=x").pattern == "weread://shelf?tab=reviews")
        #expect(throws: RouteError.self) { try router.match("weread://shelf?tab=x&tab=reviews") }
    }

    /// The first item of a name decides, also when it has no `=`: `?q&q=1` has no value
    /// for `q`, for the URL and for a route requiring `q` alike.
    @Test func aQueryNameGivenFirstWithoutAValueHasNone() throws {
        let url = try RouteURL("weread://search?q&q=austen")
        #expect(url.queryValue("q") == nil)
        let router = try makeEchoRouter(["weread://search?q=:text"])
        #expect(throws: RouteError.self) { try router.match("weread://search?q&q=austen") }
        #expect(try router.match("weread://search?q=austen&q").parameters["text"] == "austen")
    }

    @Test func keepsEmptyValueDistinctFromMissingValue() throws {
        let url = try RouteURL("weread://search?q=&flag&&x=1=2")
        #expect(url.queryItems == [
            QueryItem(name: "q", value: ""), QueryItem(name: "flag", value: nil), QueryItem(name: "x", value: "1=2"),
        ])
        #expect(url.queryValue("q") == "")
        #expect(url.queryValue("flag") == nil)
        #expect(url.queryValue("absent") == nil)
    }

    /// A scheme is a letter, then letters, digits, `+`, `-` or `.` (RFC 3986 §3.1).
    @Test func aSchemeMayHoldDigitsPlusMinusAndDots() throws {
        let url = try RouteURL("X-App+v1.2://h/x")
        #expect(url.scheme == "x-app+v1.2")
        #expect(url.host == "h")
    }

    /// `+` reads as a space only in a query: a fragment keeps it, with the option on or off.
    @Test func aFragmentKeepsItsPlusSigns() throws {
        #expect(try RouteURL("weread://book/1?q=a+b#a+b").fragment == "a+b")
        #expect(try RouteURL("weread://book/1#a+b", options: URLParsingOptions(decodesPlusAsSpace: true)).fragment == "a+b")
    }

    @Test func fragmentMayContainQuestionMarks() throws {
        let url = try RouteURL("weread://book/1#part?two")
        #expect(url.fragment == "part?two")
        #expect(url.queryItems.isEmpty)
    }

    @Test(arguments: [
        ("book/42", "malformedURL"),
        ("://book", "malformedURL"),
        ("1weread://book", "malformedURL"),
        ("we_read://book", "malformedURL"),
        ("weread://book/4 2", "malformedURL"),
        ("weread://book/\t", "malformedURL"),
        ("weread://book/\u{7F}", "malformedURL"),
        ("https://trusted.example@evil.example/", "malformedURL"),
        ("weread://[::1]/x", "malformedURL"),
        ("weread://book:99999/x", "malformedURL"),
        ("weread://book:8a/x", "malformedURL"),
        ("weread://bo\\ok/x", "malformedURL"),
        ("weread://book/%", "invalidPercentEncoding"),
        ("weread://book/%4", "invalidPercentEncoding"),
        ("weread://book/%G1", "invalidPercentEncoding"),
        ("weread://book/%C3%28", "invalidPercentEncoding"),
        ("weread://book?q=%FF", "invalidPercentEncoding"),
        ("weread://book?%zz=1", "invalidPercentEncoding"),
        ("weread://book#%", "invalidPercentEncoding"),
        ("weread://bo%zzok", "invalidPercentEncoding"),
    ])
    func rejectsMalformedURLsWithTypedErrors(url: String, expected: String) {
        let reason = routeErrorReason { () throws(RouteError) in try RouteURL(url) }
        #expect(caseName(reason) == expected)
    }

    @Test func errorsSayWhatWasWrongAndWhere() {
        do {
            _ = try RouteURL("weread://book/%4x")
            Issue.record("expected an error")
        } catch {
            #expect(error.url == "weread://book/%4x")
            #expect(error.description.contains("'%4x'"))
            #expect(error.description.contains("%25"))
        }
    }

    /// A character one cannot see, such as the newline a link read from a line of input
    /// keeps, is shown escaped in the message rather than breaking it or vanishing.
    @Test func errorsShowCharactersOneCannotSeeEscaped() throws {
        let newline = try #require(throws: RouteError.self) { try RouteURL("weread://book/42\n") }
        #expect(
            newline.description == "Cannot read 'weread://book/42\\n' as a URL: it contains a control character "
                + "at byte offset 16; percent-encode it (a space is %20).")
        #expect(newline.url == "weread://book/42\n")

        let router = ServiceRouter(registry: makeRegistry())
        try router.register("weread://book/:id(int)") { (_: any Greeter, _) in "" }
        let decoded = try #require(throws: RouteError.self) { try router.open("weread://book/4%E2%80%8B2") }
        #expect(
            decoded.description == "Cannot open 'weread://book/4%E2%80%8B2': parameter 'id' of route "
                + "'weread://book/:id(int)' must be an int, but got '4\\u{200B}2'.")

        // The part of the URL a problem quotes shows them as the URL does.
        let credentials = try #require(throws: RouteError.self) { try RouteURL("weread://us\u{200B}er@book/42") }
        #expect(
            credentials.description == "Cannot read 'weread://us\\u{200B}er@book/42' as a URL: its authority "
                + "'us\\u{200B}er@book' contains credentials ('@'); remove the user part.")
        let encoding = try #require(throws: RouteError.self) { try RouteURL("weread://book?q\u{200B}=%G1") }
        #expect(
            encoding.description.hasPrefix(
                "Cannot read 'weread://book?q\\u{200B}=%G1': the value of query item 'q\\u{200B}' '%G1' has bad "
                    + "percent-encoding"))
    }

    /// A query item's name and a literal value a pattern requires are decoded text too (the
    /// pattern spells them percent-encoded), so an error about them shows what one cannot
    /// see escaped, as it shows the value: 'a\u{200B}b' and 'ab' must not read alike.
    @Test func errorsShowCharactersOneCannotSeeInNamesAndRequiredValuesEscaped() throws {
        let router = try makeEchoRouter(["weread://tab?name=a%E2%80%8Bb", "weread://search?q%E2%80%8B=:text"])
        let literal = try #require(throws: RouteError.self) { try router.open("weread://tab?name=ab") }
        #expect(
            literal.description == "Cannot open 'weread://tab?name=ab': parameter 'name' of route "
                + "'weread://tab?name=a%E2%80%8Bb' must be 'a\\u{200B}b', but got 'ab'.")
        let item = try #require(throws: RouteError.self) { try router.open("weread://search?q=austen") }
        #expect(
            item.description == "Cannot open 'weread://search?q=austen': parameter 'q\\u{200B}' of route "
                + "'weread://search?q%E2%80%8B=:text' must be a non-empty value, but it is missing. A pattern's query "
                + "items are required: if 'q\\u{200B}' may be left out, remove it from the pattern and read it in the "
                + "handler with request.query(\"q\\u{200B}\").")
        let generated = try #require(throws: RouteError.self) { try RoutePattern("weread://search?q%E2%80%8B").url() }
        #expect(
            generated.description == "Parameter 'q\\u{200B}' of route 'weread://search?q%E2%80%8B' must be a non-empty "
                + "value, but no value was given: pass one in parameters: [\"q\\u{200B}\": …].")
        let read = try #require(throws: RouteError.self) { try RouteParameters(["q\u{200B}": "austen"]).string("q") }
        #expect(
            read.description == "No parameter 'q' in the route; the route has: q\\u{200B}. Use one of those, or declare "
                + "'q' in the pattern (':q', '?q=' or '#:q').")
    }

    @Test(arguments: ["book/42?t=10:30", "//book/42:x", "/book#a:b"])
    func aColonAfterThePathStartsNoSchemeSoTheErrorSaysThereIsNone(url: String) {
        // The text before the ':' is a path, not a badly spelled scheme.
        guard let problem = malformedURLProblem(url) else { return }
        #expect(problem.hasPrefix("it has no scheme"), "\(problem)")
    }

    /// A ':' at the very start is no scheme's end: an empty scheme is no scheme, and the
    /// error says so rather than calling '' a badly spelled one.
    @Test(arguments: ["://book", ":x", ":"])
    func aURLStartingWithAColonHasNoScheme(url: String) {
        guard let problem = malformedURLProblem(url) else { return }
        #expect(problem == "it has no scheme; write it as scheme://host/path, e.g. weread://book/42")
    }

    @Test func enforcesLengthLimitBeforeReadingAnything() {
        let options = URLParsingOptions(maximumLength: 20)
        let reason = routeErrorReason { () throws(RouteError) in
            try RouteURL("weread://book/" + String(repeating: "%", count: 100), options: options)
        }
        guard case .urlTooLong(let length, let limit)? = reason else {
            Issue.record("expected urlTooLong, got \(String(describing: reason))")
            return
        }
        #expect(length == 114)
        #expect(limit == 20)
    }

    /// The limit is the longest URL accepted: one of exactly that many bytes is read, one
    /// byte more is refused.
    @Test func aURLOfExactlyTheLimitIsReadAndOneByteMoreIsRefused() throws {
        let options = URLParsingOptions(maximumLength: 20)
        let atLimit = "weread://book/" + String(repeating: "x", count: 6)
        #expect(try RouteURL(atLimit, options: options).pathSegments == ["xxxxxx"])
        let reason = routeErrorReason { () throws(RouteError) in try RouteURL(atLimit + "x", options: options) }
        #expect(caseName(reason) == "urlTooLong")
    }

    /// The limit bounds the work a hostile URL causes, so the error's text must not carry
    /// all of it into a log: it quotes the URL's start, cut by scalars (a single character
    /// made of one letter and a million combining marks is cut too).
    @Test(arguments: ["weread://book/" + String(repeating: "x", count: 20_000),
                      "weread://book/a" + String(repeating: "\u{301}", count: 10_000)])
    func aURLOverTheLengthLimitIsQuotedOnlyByItsStart(url: String) throws {
        let error = try #require(throws: RouteError.self) { try RouteURL(url) }
        #expect(caseName(error.reason) == "urlTooLong")
        #expect(error.url == url)
        #expect(error.description.utf8.count < 400, "\(error.description.utf8.count) bytes")
        #expect(error.description.hasPrefix("Refused 'weread://book/"))
        #expect(error.description.contains("…': it is \(url.utf8.count) bytes long, over the limit of 4096."))
        // A short one, over a low limit, is quoted whole.
        let shortURL = "weread://book/" + String(repeating: "x", count: 80)
        let short = try #require(throws: RouteError.self) { try RouteURL(shortURL, options: URLParsingOptions(maximumLength: 50)) }
        #expect(short.description.hasPrefix("Refused '\(shortURL)': it is 94 bytes long"))
    }

    /// The cut is exact: a URL of up to 100 bytes is quoted whole, a longer one by its
    /// first 64 scalars and an ellipsis.
    @Test func aURLOverTheLengthLimitIsQuotedWholeUpToAHundredBytes() throws {
        let options = URLParsingOptions(maximumLength: 50)
        let hundred = "weread://book/" + String(repeating: "x", count: 86)
        let whole = try #require(throws: RouteError.self) { try RouteURL(hundred, options: options) }
        #expect(whole.description.hasPrefix("Refused '\(hundred)': it is 100 bytes long"), "\(whole)")
        let longer = hundred + "y"
        let cut = try #require(throws: RouteError.self) { try RouteURL(longer, options: options) }
        #expect(cut.description.hasPrefix("Refused '\(longer.prefix(64))…': it is 101 bytes long"), "\(cut)")
    }

    @Test func enforcesSegmentAndQueryItemLimits() throws {
        let options = URLParsingOptions(maximumSegmentCount: 3, maximumQueryItemCount: 2)
        #expect(try RouteURL("weread://h/a/b/c", options: options).pathSegments.count == 3)
        let segments = routeErrorReason { () throws(RouteError) in try RouteURL("weread://h/a/b/c/d", options: options) }
        #expect(caseName(segments) == "tooManySegments")
        #expect(try RouteURL("weread://h?a&b", options: options).queryItems.count == 2)
        let items = routeErrorReason { () throws(RouteError) in try RouteURL("weread://h?a&b&c", options: options) }
        #expect(caseName(items) == "tooManyQueryItems")
    }

    @Test func survivesHugeDigitRunsInPortsWithoutOverflow() {
        let reason = routeErrorReason { () throws(RouteError) in
            try RouteURL("weread://h:" + String(repeating: "9", count: 400) + "/x")
        }
        #expect(caseName(reason) == "malformedURL")
    }

    @Test func splitsOnDelimitersEvenWhenCombiningMarksFollowThem() throws {
        // "&\u{301}" is one Character; splitting by Character would miss the delimiter.
        let url = try RouteURL("weread://h/a/\u{301}b?x=1&\u{301}y=2")
        #expect(url.pathSegments == ["a", "\u{301}b"])
        #expect(url.queryItems.count == 2)
    }
}

/// What `RouteURL(url)` refuses `url` for as malformed; `nil`, recorded as an issue, when it
/// does not refuse it as malformed.
private func malformedURLProblem(_ url: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let reason = routeErrorReason { () throws(RouteError) in try RouteURL(url) }
    guard case .malformedURL(let problem)? = reason else {
        Issue.record("expected malformedURL for \(url), got \(String(describing: reason))", sourceLocation: sourceLocation)
        return nil
    }
    return problem
}
