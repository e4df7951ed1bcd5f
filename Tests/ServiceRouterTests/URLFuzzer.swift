import SeededRandom

/// Builds URL-shaped strings from pieces that exercise every parser and matcher branch,
/// and mutates them at the byte and scalar level.
struct URLFuzzer {
    var random: SeededGenerator

    static let schemes = ["weread", "WeRead", "https", "x-app+v1.2", "", "1bad", "we_read", "mailto", "javascript"]
    static let separators = ["://", ":", ":///", ":/", "//", "://user@", "://[::1]"]
    static let hosts = ["book", "BOOK", "search", "shelf", "web", "debug", "a.b", "h:80", "h:", "h:999999", "%62ook", "%zz", "红", ""]
    static let segments = [
        "42", "-7", "0", "99999999999999999999999", "abc", "reviews", "latest", "notes", "a%2Fb", "%E7%BA%A2", "%FF",
        "%", "%4", "%G0", "%C3%28", "红楼梦", "café", "e\u{301}", ":id", "*", "a b", "..", ".", "+", "%20",
        "123e4567-e89b-12d3-a456-426614174000", "", "🙂", "\u{0}", "\\",
    ]
    static let queryNames = ["q", "from", "tab", "page", "sort", "", "%zz", "a+b", "红"]
    static let queryValues = ["", "1", "reviews", "a+b", "x%20y", "%", "%E7", "new first", "=", "&", "🙂"]

    static let templates = [
        "weread://book/{int}", "weread://book/{int}/reviews", "weread://book/{word}", "weread://book/{uuid}/notes",
        "weread://search?q={value}", "weread://search?q={value}&page={int}", "weread://tab?name=reviews",
        "weread://shelf#{value}", "weread://web/{word}/{word}", "weread://{word}", "weread:{word}/{word}",
        "https://{word}/{word}?{word}={value}", "mailto:{word}", "weread:///settings/{word}", "WEREAD://Book/{int}?from=push",
    ]
    static let words = ["moby-dick", "%E7%BA%A2", "红楼梦", "a%2Fb", "café", "e\u{301}", "x+y", "%20", "..", "🙂", "A"]
    static let values = ["1", "a+b", "x%20y", "reviews", "%E7%BA%A2", "", "🙂", "%3D%26"]

    /// A URL shaped like one of the test routes, with varied values: most of these open.
    mutating func routeShaped() -> String {
        var url = random.pick(Self.templates)
        while let range = url.firstRange(of: "{int}") {
            url.replaceSubrange(range, with: random.pick(["0", "42", "-7", "99999999999999999999", "4x"]))
        }
        while let range = url.firstRange(of: "{uuid}") {
            url.replaceSubrange(range, with: random.pick(["123e4567-e89b-12d3-a456-426614174000", "123e4567"]))
        }
        while let range = url.firstRange(of: "{word}") {
            url.replaceSubrange(range, with: random.pick(Self.words))
        }
        while let range = url.firstRange(of: "{value}") {
            url.replaceSubrange(range, with: random.pick(Self.values))
        }
        return url
    }

    /// A URL assembled from pieces, valid and invalid, in any order.
    mutating func generated() -> String {
        // Mostly well-formed, so that matching and handlers are exercised, not just parsing.
        let scheme = random.chance(70) ? "weread" : random.pick(Self.schemes)
        let separator = random.chance(75) ? "://" : random.pick(Self.separators)
        var url = scheme + separator + random.pick(Self.hosts)
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            url += random.chance(90) ? "/" : "//"
            url += random.chance(50) ? random.pick(["42", "reviews", "latest", "notes", "b", "c", "end"]) : random.pick(Self.segments)
        }
        if random.chance(15) {
            for _ in 0..<Int.random(in: 30...40, using: &random) { url += "/s" }
        }
        if random.chance(50) {
            url += "?"
            for index in 0..<Int.random(in: 0...4, using: &random) {
                if index > 0 { url += random.chance(90) ? "&" : "&&" }
                url += random.pick(Self.queryNames)
                if random.chance(80) { url += "=" + random.pick(Self.queryValues) }
            }
        }
        if random.chance(25) { url += "#" + random.pick(Self.queryValues + ["reviews", ":x"]) }
        return url
    }

    mutating func mutated(_ url: String) -> String {
        var scalars = Array(url.unicodeScalars)
        let noise: [Unicode.Scalar] = ["%", "/", "?", "#", "&", "=", ":", "*", "+", "@", " ", "\u{0}", "\u{7F}", "\u{301}", "红", "\u{FFFF}", "0", "F"]
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = scalars.isEmpty ? 0 : Int.random(in: 0...scalars.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: scalars.insert(random.pick(noise), at: position)
            case 1 where position < scalars.count: scalars.remove(at: position)
            case 2 where position < scalars.count: scalars[position] = random.pick(noise)
            case 3: scalars = Array(scalars.prefix(position))
            default: scalars.insert(contentsOf: scalars.prefix(position).suffix(5), at: position)
            }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
