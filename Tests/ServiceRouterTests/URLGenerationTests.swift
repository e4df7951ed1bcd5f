import ServiceRouter
import SeededRandom
import Testing

@Suite("URL generation")
struct URLGenerationTests {
    @Test func fillsParametersAndPercentEncodesEachPart() throws {
        let pattern = try RoutePattern("weread://book/:bookId(int)/:title?q=:term&tab=all#:anchor")
        let url = try pattern.url(
            parameters: ["bookId": 42, "title": "a/b c?", "term": "红 & +", "anchor": "x y"],
            query: [QueryItem(name: "from", value: "push"), QueryItem(name: "flag", value: nil)]
        )
        #expect(url == "weread://book/42/a%2Fb%20c%3F?q=%E7%BA%A2%20%26%20%2B&tab=all&from=push&flag#x%20y")
    }

    /// A path segment keeps the characters RFC 3986 allows in one as they are (a `+` means
    /// a space only in a query), so a generated link reads as its values do.
    @Test func pathSegmentsKeepTheCharactersAllowedThere() throws {
        let pattern = try RoutePattern("weread://tag/:name")
        #expect(try pattern.url(parameters: ["name": "C++;a=b,@!$&'()"]) == "weread://tag/C++;a=b,@!$&'()")
    }

    /// Values keep what their component allows as it is: unreserved characters (`~`
    /// too) everywhere, `/`, `?`, `:` and `@` in a query value, and also `=`, `&` and `+`
    /// in a fragment, which no item follows.
    @Test func queryValuesAndFragmentsKeepTheCharactersAllowedThere() throws {
        let pattern = try RoutePattern("weread://u/:name?q=:q#:f")
        let url = try pattern.url(parameters: ["name": "a-b.c_d~e", "q": "a/b?c:d@e~", "f": "x=y&z+w~/?"])
        #expect(url == "weread://u/a-b.c_d~e?q=a/b?c:d@e~#x=y&z+w~/?")
        let router = try makeEchoRouter(["weread://u/:name?q=:q#:f"])
        let request = try router.match(url)
        #expect(request.parameters["q"] == "a/b?c:d@e~")
        #expect(request.parameters["f"] == "x=y&z+w~/?")
    }

    /// An `@` in a host value is escaped: written raw, it would read as credentials, which
    /// a URL is refused for.
    @Test func anAtSignInAHostValueIsEscaped() throws {
        let router = try makeEchoRouter(["weread://:screen/x"])
        let url = try router.url(for: "weread://:screen/x", parameters: ["screen": "a@b"])
        #expect(url == "weread://a%40b/x")
        #expect(try router.match(url).parameters["screen"] == "a@b")
    }

    @Test func wildcardValueKeepsItsSlashes() throws {
        let pattern = try RoutePattern("weread://web/*path")
        #expect(try pattern.url(parameters: ["path": "help/faq page"]) == "weread://web/help/faq%20page")
        #expect(try pattern.url() == "weread://web")
        #expect(try RoutePattern("weread://web/*").url(parameters: ["*": "a/b"]) == "weread://web/a/b")
    }

    @Test func refusesAWildcardValueWithEmptySegments() throws {
        // Empty segments are dropped when a URL is read, so 'a//b', '/a' and 'a/' would
        // match back as 'a/b', 'a' and 'a': refused rather than silently changed.
        let router = try makeEchoRouter(["weread://shelf/*path"])
        for value in ["a//b", "/a", "a/", "/"] {
            let reason = routeErrorReason { () throws(RouteError) in
                try router.url(for: "weread://shelf/*path", parameters: ["path": value])
            }
            guard case .invalidParameter(let name, let given, _, _)? = reason else {
                Issue.record("expected invalidParameter for '\(value)', got \(String(describing: reason))")
                continue
            }
            #expect(name == "path")
            #expect(given == value)
        }
        for value in ["", "a", "a/b c/%2F"] {
            let url = try router.url(for: "weread://shelf/*path", parameters: ["path": value])
            #expect(try router.match(url).parameters.wildcard == value)
        }
    }

    /// An unnamed wildcard's value is given as `parameters["*"]`, so an error about the
    /// value names it `*`, in the path as in the host.
    @Test(arguments: [("weread://web/*", "a//b"), ("weread://*", "Shelf/a")])
    func anErrorAboutAnUnnamedWildcardsValueNamesItStar(pattern: String, value: String) throws {
        let error = try #require(throws: RouteError.self) { try RoutePattern(pattern).url(parameters: ["*": value]) }
        guard case .invalidParameter("*", _, _, _) = error.reason else {
            Issue.record("expected invalidParameter for '*', got \(error.reason)")
            return
        }
        #expect(error.description.hasPrefix("Parameter '*' of route '\(pattern)' must be "), "\(error)")
    }

    @Test func encodesColonsAndStarsSoValuesCannotReadAsPatternSyntax() throws {
        let url = try RoutePattern("weread://x/:v").url(parameters: ["v": ":id*"])
        #expect(url == "weread://x/%3Aid%2A")
    }

    @Test func refusesValuesThatDoNotFitTheirType() {
        let reason = routeErrorReason { () throws(RouteError) in
            try RoutePattern("weread://book/:bookId(int)").url(parameters: ["bookId": "forty-two"])
        }
        guard case .invalidParameter(let name, let value, let expected, _)? = reason else {
            Issue.record("expected invalidParameter, got \(String(describing: reason))")
            return
        }
        #expect(name == "bookId")
        #expect(value == "forty-two")
        #expect(expected == "an int")
    }

    @Test func refusesMissingEmptyAndUnknownParameters() {
        let pattern = try? RoutePattern("weread://book/:bookId")
        let missing = routeErrorReason { () throws(RouteError) in try pattern?.url() }
        #expect(caseName(missing) == "invalidParameter")
        let empty = routeErrorReason { () throws(RouteError) in try pattern?.url(parameters: ["bookId": ""]) }
        #expect(caseName(empty) == "invalidParameter")
        let unknown = routeErrorReason { () throws(RouteError) in try pattern?.url(parameters: ["bookId": 1, "bookID": 2]) }
        #expect(caseName(unknown) == "missingParameter")
    }

    @Test func generationErrorsDoNotClaimAURLWasOpened() {
        // No URL was opened (or exists yet): the message names the route and the value.
        do {
            _ = try RoutePattern("weread://book/:bookId(int)").url(parameters: ["bookId": "abc"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "Parameter 'bookId' of route 'weread://book/:bookId(int)' must be an int, but got 'abc'.")
        }
        // A value left out is the pattern's parameter without a value, not a name it lacks.
        do {
            _ = try RoutePattern("weread://book/:bookId(int)").url(parameters: [:])
            Issue.record("expected an error")
        } catch {
            guard case .invalidParameter("bookId", nil, _, _) = error.reason else {
                Issue.record("expected invalidParameter without a value, got \(error.reason)")
                return
            }
            #expect(
                error.description == "Parameter 'bookId' of route 'weread://book/:bookId(int)' must be an int, but no "
                    + "value was given: pass one in parameters: [\"bookId\": …].")
        }
        do {
            _ = try RoutePattern("weread://book/:bookId(int)").url(parameters: ["bookID": 1])
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description == "No parameter 'bookID' in route 'weread://book/:bookId(int)'; the route has: "
                    + "bookId. Use one of those, or declare 'bookID' in the pattern (':bookID', '?bookID=' or '#:bookID').")
        }
    }

    @Test func refusesAHostValueThatWouldComeBackInLowercase() throws {
        let router = try makeEchoRouter(["weread://:screen/:id"])
        let reason = routeErrorReason { () throws(RouteError) in
            try router.url(for: "weread://:screen/:id", parameters: ["screen": "Shelf", "id": "A"])
        }
        guard case .invalidParameter(let name, let value, let expected, _)? = reason else {
            Issue.record("expected invalidParameter, got \(String(describing: reason))")
            return
        }
        #expect(name == "screen")
        #expect(value == "Shelf")
        #expect(expected.contains("without capital letters"))
        // Capitals in the path are kept, so they are fine there.
        let url = try router.url(for: "weread://:screen/:id", parameters: ["screen": "shelf", "id": "A"])
        #expect(try router.match(url).parameters["id"] == "A")
        let wildcardHost = routeErrorReason { () throws(RouteError) in
            try RoutePattern("weread://*rest").url(parameters: ["rest": "Shelf/A"])
        }
        #expect(caseName(wildcardHost) == "invalidParameter")
        #expect(try RoutePattern("weread://*rest").url(parameters: ["rest": "shelf/A"]) == "weread://shelf/A")
    }

    /// A host value with a capital is refused saying what it must be: for an untyped
    /// parameter or a wildcard, a value without capital letters.
    @Test func aHostValueWithACapitalIsRefusedSayingWhatItMustBe() throws {
        let cases: [(String, [String: String])] = [("weread://:screen", ["screen": "Shelf"]), ("weread://*rest", ["rest": "Shelf/A"])]
        for (pattern, parameters) in cases {
            let reason = routeErrorReason { () throws(RouteError) in try RoutePattern(pattern).url(parameters: parameters) }
            guard case .invalidParameter(_, _, let expected, _)? = reason else {
                Issue.record("expected invalidParameter for \(pattern), got \(String(describing: reason))")
                continue
            }
            #expect(expected == "a value without capital letters (a URL's host is read in lowercase)", "\(pattern)")
        }
    }

    /// A URL opened reads only the first query item of a name, the pattern's, so an extra
    /// item named like one the pattern fixes or captures, with another value, would be
    /// lost: refused, saying where the value belongs.
    @Test(arguments: [
        ("weread://search?q=:text", QueryItem(name: "q", value: "emma"), "Pass its value as parameters[\"text\"]"),
        ("weread://search?q=:text", QueryItem(name: "q", value: nil), "Pass its value as parameters[\"text\"]"),
        ("weread://search?text", QueryItem(name: "text", value: "emma"), "Pass its value as parameters[\"text\"]"),
        ("weread://search?tab=all&text", QueryItem(name: "tab", value: "mine"), "requires to be 'all'"),
    ])
    func refusesAnExtraQueryItemThePatternGivesAnotherValue(pattern: String, extra: QueryItem, fix: String) throws {
        let router = try makeEchoRouter([pattern])
        let error = try #require(throws: RouteError.self) {
            try router.url(for: pattern, parameters: ["text": "austen"], query: [QueryItem(name: "from", value: "share"), extra])
        }
        guard case .conflictingQueryItem(let name, let value, let canonical) = error.reason else {
            Issue.record("expected conflictingQueryItem, got \(error.reason)")
            return
        }
        #expect(name == extra.name)
        #expect(value == extra.value)
        #expect(try canonical == RoutePattern(pattern).description)
        #expect(error.description.hasPrefix("Cannot build a URL for route '\(canonical)': the extra query item '\(extra)'"))
        #expect(error.description.contains("a URL opened reads only the first item of a name"), "\(error)")
        #expect(error.description.contains(fix), "\(error)")
    }

    @Test func anExtraQueryItemWithThePatternsValueIsWrittenOnce() throws {
        let router = try makeEchoRouter(["weread://search?q=:text&tab=all"])
        let url = try router.url(
            for: "weread://search?q=:text&tab=all", parameters: ["text": "emma"],
            query: [QueryItem(name: "tab", value: "all"), QueryItem(name: "q", value: "emma"), QueryItem(name: "page", value: "2")]
        )
        #expect(url == "weread://search?q=emma&tab=all&page=2")
    }

    /// An extra item without a value, named like an item the pattern captures, is refused
    /// as conflicting even when the capture's value was left out too: it would never be
    /// the capture's value, and the fix is the same, to pass that value in `parameters`.
    @Test func aValuelessExtraQueryItemConflictsWithACaptureLeftWithoutAValue() throws {
        let router = try makeEchoRouter(["weread://search?q=:text"])
        let reason = routeErrorReason { () throws(RouteError) in
            try router.url(for: "weread://search?q=:text", query: [QueryItem(name: "q", value: nil)])
        }
        guard case .conflictingQueryItem("q", nil, "weread://search?q=:text")? = reason else {
            Issue.record("expected conflictingQueryItem, got \(String(describing: reason))")
            return
        }
    }

    /// An extra query item with neither a name nor a value has no text in a URL: written,
    /// it left a bare `?` (or `&&`), which reads back as no item, so it is refused, wherever
    /// it stands among the extra items.
    @Test(arguments: [
        [QueryItem(name: "", value: nil)],
        [QueryItem(name: "from", value: "share"), QueryItem(name: "", value: nil), QueryItem(name: "page", value: "2")],
    ])
    func refusesAnExtraQueryItemWithNeitherANameNorAValue(extra: [QueryItem]) throws {
        let router = try makeEchoRouter(["weread://search?q=:text"])
        let error = try #require(throws: RouteError.self) {
            try router.url(for: "weread://search?q=:text", parameters: ["text": "austen"], query: extra)
        }
        guard case .emptyQueryItem("weread://search?q=:text") = error.reason else {
            Issue.record("expected emptyQueryItem, got \(error.reason)")
            return
        }
        #expect(
            error.description == "Cannot build a URL for route 'weread://search?q=:text': an extra query item has "
                + "neither a name nor a value, and a URL cannot hold one (it would read back as no item), so it would "
                + "be lost. Leave it out of query:, or give it a name.")
        let patternReason = routeErrorReason { () throws(RouteError) in try RoutePattern("weread://shelf").url(query: extra) }
        guard case .emptyQueryItem("weread://shelf")? = patternReason else {
            Issue.record("expected emptyQueryItem from RoutePattern.url, got \(String(describing: patternReason))")
            return
        }
    }

    /// An extra query item with an empty name but a value (`?=x`, or `?=` for an empty one)
    /// has text in a URL, and reading the URL gives it back: it is written and kept.
    @Test func anExtraQueryItemWithAnEmptyNameAndAValueRoundTrips() throws {
        let router = try makeEchoRouter(["weread://shelf"])
        let extra = [QueryItem(name: "", value: "x"), QueryItem(name: "", value: ""), QueryItem(name: "a", value: nil)]
        let url = try router.url(for: "weread://shelf", query: extra)
        #expect(url == "weread://shelf?=x&=&a")
        #expect(try router.match(url).url.queryItems == extra)
    }

    /// A URL has one fragment: one given beside a pattern's that disagrees would be lost.
    @Test(arguments: [
        ("weread://shelf#top", [String: String](), "the pattern requires the fragment 'top'", "Leave out fragment:, or pass that one."),
        ("weread://shelf#:section", ["section": "top"], "captures the fragment as 'section'", "Pass it as parameters[\"section\"] and leave out fragment:."),
        ("weread://shelf#:section", [:], "captures the fragment as 'section'", "Pass it as parameters[\"section\"] and leave out fragment:."),
    ])
    func refusesAFragmentThePatternGivesAnotherValue(pattern: String, parameters: [String: String], says: String, fix: String) throws {
        let router = try makeEchoRouter([pattern])
        let error = try #require(throws: RouteError.self) {
            try router.url(for: pattern, parameters: parameters, fragment: "bottom")
        }
        guard case .conflictingFragment("bottom", let canonical) = error.reason else {
            Issue.record("expected conflictingFragment, got \(error.reason)")
            return
        }
        #expect(canonical == pattern)
        #expect(error.description.contains(says), "\(error)")
        #expect(error.description.contains("so the fragment 'bottom' given would be lost"), "\(error)")
        #expect(error.description.hasSuffix(fix), "\(error)")
        if !parameters.isEmpty || pattern.hasSuffix("#top") {
            // The same fragment agrees with the pattern and is written once.
            #expect(try router.url(for: pattern, parameters: parameters, fragment: "top") == "weread://shelf#top")
        }
    }

    @Test func routerGeneratesWithItsCustomTypes() throws {
        let even = ParameterType(name: "even", description: "an even number") { Int($0).map { $0 % 2 == 0 } ?? false }
        let router = ServiceRouter(registry: makeRegistry(), configuration: .init(parameterTypes: [even]))
        #expect(try router.url(for: "weread://n/:n(even)", parameters: ["n": 4], fragment: "f") == "weread://n/4#f")
        let odd = routeErrorReason { () throws(RouteError) in try router.url(for: "weread://n/:n(even)", parameters: ["n": 3]) }
        #expect(caseName(odd) == "invalidParameter")
    }

    @Test func generatedURLsMatchBackToTheSameParameters() throws {
        let router = try makeEchoRouter(["weread://book/:bookId(int)/:title?q=:term#:anchor"])
        let values = ["bookId": "-7", "title": "a/b %20 ? # & = + 红楼梦 🙂", "term": "x+y&z=1", "anchor": "#?"]
        let url = try router.url(for: "weread://book/:bookId(int)/:title?q=:term#:anchor", parameters: values)
        let request = try router.match(url)
        #expect(Dictionary(uniqueKeysWithValues: request.parameters.map { ($0.name, $0.value) }) == values)
    }

    /// Model: whatever `url(for:)` hands out matches back to its pattern with exactly the
    /// values it was given, byte for byte, for every kind of parameter (host, path, typed,
    /// wildcard in the path and in the host, query, fragment) and awkward characters.
    @Test(arguments: [UInt64(21), 22])
    func everyGeneratedURLMatchesBackToItsValues(seed: UInt64) throws {
        let patterns = [
            "weread://:h/x/:a/*w?q=:b&lit=v#:f", "weread:/:a/:b(string)?k", "weread://*hw",
            "weread://h/:a(int)/:c?z=:d(uuid)", "weread:*r",
        ]
        let router = try makeEchoRouter(patterns)
        let pieces = [
            "a", "B", "/", "%", "+", " ", "#", "?", "&", "=", ":", "*", "é", "e\u{301}", ".", "..", "%2F", "~",
            "\u{0}", "@", ";", "\\", "1", "-",
        ]
        var random = SeededGenerator(seed: seed)
        var matched = 0
        for _ in 0..<500 {
            let pattern = random.pick(patterns)
            var values: [String: String] = [:]
            for name in try RoutePattern(pattern).parameterNames {
                values[name] = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.pick(pieces) }.joined()
            }
            if random.chance(50) { values["a"] = values["a"].map { _ in String(Int.random(in: -99...99, using: &random)) } }
            if values["d"] != nil { values["d"] = "123e4567-e89b-12d3-a456-426614174000" }
            // A refusal (empty, ill-typed, a capital in the host, an empty wildcard segment) is fine.
            guard let url = try? router.url(for: pattern, parameters: values) else { continue }
            let request = try router.match(url)
            #expect(request.pattern == (try RoutePattern(pattern)).description, "\(url)")
            for (name, value) in values {
                #expect(request.parameters[name].map { Array($0.utf8) } == Array(value.utf8), "\(name) in \(url)")
            }
            matched += 1
        }
        #expect(matched > 150)
    }

    /// Model, over patterns built at random rather than a fixed few: a literal, plain, typed
    /// or wildcard host, or none; literal, plain, typed and wildcard segments; literal and
    /// captured query items and fragments, with names and literals spelled with reserved
    /// and non-ASCII characters. Whatever `url(for:)` hands out for them, with extra query
    /// items and a fragment and `+` read either way, opens the pattern with exactly the
    /// values, extra items and fragment given; and a router whose limits that URL just
    /// meets registers the pattern.
    @Test(arguments: [UInt64(31), 32])
    func randomPatternsRoundTripTheirValuesExtraItemsAndFragment(seed: UInt64) throws {
        let pieces = [
            "a", "B", "0", "/", "%", "+", " ", "#", "?", "&", "=", ":", "*", "@", "(", "{", "é", "e\u{301}", "红", "🙂",
            "\u{200B}", ".", "~", "-",
        ]
        var random = SeededGenerator(seed: seed)
        func text(atLeast minimum: Int = 0) -> String {
            (0..<Int.random(in: minimum...3, using: &random)).map { _ in random.pick(pieces) }.joined()
        }
        var matched = 0
        for _ in 0..<400 {
            var parameters = 0
            func parameter() -> String {
                parameters += 1
                return ":p\(parameters)" + (random.chance(30) ? random.pick(["(int)", "(string)", "(uuid)"]) : "")
            }
            var pattern = random.pick(["weread", "x-app+v1.2"]) + ":"
            var segmentCount = Int.random(in: 0...3, using: &random)
            let hasHost = random.chance(70)
            if hasHost {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: pattern += "//" + parameter()
                case 1: pattern += "//*w"; segmentCount = 0
                default: pattern += "//" + Self.spelled(text(atLeast: 1).lowercased())
                }
            }
            for index in 0..<segmentCount {
                if hasHost || index > 0 { pattern += "/" }
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1: pattern += parameter()
                case 2 where index == segmentCount - 1: pattern += "*w"
                default: pattern += Self.spelled(text(atLeast: 1))
                }
            }
            var itemNames = Set<String>()
            var items: [String] = []
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                var name = text(atLeast: 1)
                if itemNames.contains(name) { name = "n\(itemNames.count)" }
                itemNames.insert(name)
                items.append(Self.spelled(name) + "=" + (random.chance(50) ? parameter() : "v" + Self.spelled(text())))
            }
            if !items.isEmpty { pattern += "?" + items.joined(separator: "&") }
            if random.chance(30) { pattern += "#" + (random.chance(50) ? parameter() : "f" + Self.spelled(text())) }

            let parsed = try RoutePattern(pattern)
            var values: [String: String] = [:]
            for name in parsed.parameterNames where !random.chance(5) {
                values[name] = random.pick([
                    text(), text(), String(Int.random(in: -99...99, using: &random)), "123e4567-e89b-12d3-a456-426614174000",
                    "a/" + text(atLeast: 1),
                ])
            }
            let extra = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                QueryItem(name: text(), value: random.chance(20) ? nil : text())
            }
            let fragment = random.chance(30) ? text() : nil
            let decodesPlusAsSpace = random.chance(50)
            let router = try makeEchoRouter(
                [pattern], configuration: .init(parsing: URLParsingOptions(decodesPlusAsSpace: decodesPlusAsSpace)))
            // A refusal (a value that does not fit, an extra item or fragment the pattern
            // gives another value...) is fine; other tests check that each is right.
            guard let url = try? router.url(for: pattern, parameters: values, query: extra, fragment: fragment) else {
                continue
            }
            let request = try router.match(url)
            #expect(request.pattern == parsed.description, "\(url) from \(pattern)")
            for name in parsed.parameterNames {
                // A wildcard left out matches nothing.
                let given = values[name] ?? (name == "w" ? "" : nil)
                #expect(request.parameters[name].map { Array($0.utf8) } == given.map { Array($0.utf8) }, "\(name) in \(url)")
            }
            // The pattern's items come first; an extra item named like one of them has its value
            // and is written once, and the others follow in order.
            let kept = extra.filter { !itemNames.contains($0.name) }
            #expect(Self.bytes(Array(request.url.queryItems.dropFirst(items.count))) == Self.bytes(kept), "\(url)")
            if let fragment {
                #expect(request.url.fragment.map { Array($0.utf8) } == Array(fragment.utf8), "\(url)")
            }

            let tight = URLParsingOptions(
                maximumLength: url.utf8.count, maximumSegmentCount: request.url.pathSegments.count,
                maximumQueryItemCount: request.url.queryItems.count, decodesPlusAsSpace: decodesPlusAsSpace)
            let atTheLimits = try makeEchoRouter([pattern], configuration: .init(parsing: tight))
            #expect(try atTheLimits.open(url, as: String.self) == parsed.description, "\(url)")
            matched += 1
        }
        #expect(matched > 200)
    }

    /// `text` as a pattern spells it literally: every byte but an ASCII letter, digit, `-`,
    /// `_` or `~` percent-encoded, so that no character reads as pattern syntax.
    private static func spelled(_ text: String) -> String {
        var spelling = ""
        for byte in text.utf8 {
            if isASCIILetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~") {
                spelling.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                spelling += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return spelling
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Query items as their exact UTF-8, since `QueryItem`'s `==` compares strings by
    /// canonical equivalence.
    private static func bytes(_ items: [QueryItem]) -> [[UInt8]] {
        items.map { Array($0.name.utf8) + [0xFF] + ($0.value.map { Array($0.utf8) } ?? [0xFE]) }
    }

    @Test func routerRefusesToGenerateAURLItWouldRefuseToOpen() throws {
        let router = try makeEchoRouter(["weread://web/*path", "weread://search?q=:term"])
        let deep = routeErrorReason { () throws(RouteError) in
            try router.url(for: "weread://web/*path", parameters: ["path": Array(repeating: "a", count: 40).joined(separator: "/")])
        }
        #expect(caseName(deep) == "tooManySegments")
        let long = routeErrorReason { () throws(RouteError) in
            try router.url(for: "weread://search?q=:term", parameters: ["term": String(repeating: "x", count: 5_000)])
        }
        #expect(caseName(long) == "urlTooLong")
        let crowded = routeErrorReason { () throws(RouteError) in
            try router.url(for: "weread://search?q=:term", parameters: ["term": "x"], query: (0..<70).map { QueryItem(name: "k\($0)", value: nil) })
        }
        #expect(caseName(crowded) == "tooManyQueryItems")
        // Within the limits, what it generates opens.
        let url = try router.url(for: "weread://web/*path", parameters: ["path": Array(repeating: "a", count: 32).joined(separator: "/")])
        #expect(try router.match(url).pattern == "weread://web/*path")
    }
}
