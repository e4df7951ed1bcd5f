/// Reads a URL string into its decoded parts for ``RouteURL``.
///
/// The parser walks the string's UTF-8 bytes through ``UTF8Bytes`` (every index checked),
/// using integer offsets. Every delimiter it splits at is ASCII, so each piece is whole
/// characters and becomes a `String` without repair.
struct URLParser {
    /// The decoded parts of one URL.
    struct Parts {
        var scheme: String
        var host: String?
        var port: Int?
        var pathSegments: [String]
        var queryItems: [QueryItem]
        var fragment: String?
    }

    let string: String
    let options: URLParsingOptions

    /// Parses the URL.
    ///
    /// - Returns: The decoded parts.
    /// - Throws: ``RouteError`` naming the first problem found.
    func parse() throws(RouteError) -> Parts {
        // Checked before anything else so that huge input costs O(1).
        guard string.utf8.count <= options.maximumLength else {
            throw error(.urlTooLong(length: string.utf8.count, limit: options.maximumLength))
        }
        var contiguous = string
        // `withUTF8` rethrows untyped errors, so the typed error travels in a `Result`.
        return try contiguous.withUTF8 { buffer in
            Result { () throws(RouteError) in try parse(UTF8Bytes(buffer)) }
        }.get()
    }

    private func parse(_ bytes: UTF8Bytes) throws(RouteError) -> Parts {
        for offset in 0..<bytes.count where bytes[offset] <= 0x20 || bytes[offset] == 0x7F {
            let what = bytes[offset] == 0x20 ? "a space" : "a control character"
            throw error(.malformedURL(problem: "it contains \(what) at byte offset \(offset); percent-encode it (a space is %20)"))
        }
        let colon = try schemeEnd(bytes)
        let scheme = lowercasedASCIIBytes(bytes, 0..<colon)

        var end = bytes.count
        var fragment: String?
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#"), in: colon + 1..<end) {
            fragment = try decode(bytes, hash + 1..<end, component: "fragment", plusAsSpace: false)
            end = hash
        }
        var queryItems: [QueryItem] = []
        if let question = bytes.firstIndex(of: UInt8(ascii: "?"), in: colon + 1..<end) {
            queryItems = try readQuery(bytes, question + 1..<end)
            end = question
        }

        var start = colon + 1
        var host: String?
        var port: Int?
        if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
            let authorityEnd = bytes.firstIndex(of: UInt8(ascii: "/"), in: start + 2..<end) ?? end
            (host, port) = try readAuthority(bytes, start + 2..<authorityEnd)
            start = authorityEnd
        }
        let pathSegments = try readPath(bytes, start..<end)
        return Parts(
            scheme: scheme, host: host, port: port, pathSegments: pathSegments,
            queryItems: queryItems, fragment: fragment
        )
    }

    /// Finds the `:` ending the scheme (RFC 3986: a letter, then letters, digits, `+`,
    /// `-` or `.`).
    /// A `:` after a `/`, `?` or `#` is not a scheme's (RFC 3986 §4.2: `book/42?t=10:30`
    /// is a relative reference), so such a URL has no scheme rather than a bad one.
    private func schemeEnd(_ bytes: UTF8Bytes) throws(RouteError) -> Int {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":"), in: 0..<bytes.count), colon > 0,
            !bytes.contains(in: 0..<colon, where: isPathQueryOrFragmentDelimiter)
        else {
            throw error(.malformedURL(problem: "it has no scheme; write it as scheme://host/path, e.g. weread://book/42"))
        }
        let valid = isASCIILetter(bytes[0])
            && !bytes.contains(in: 0..<colon) { !(isASCIILetter($0) || isASCIIDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")) }
        guard valid else {
            throw error(.malformedURL(problem: "the scheme '\(bytes.string(0..<colon))' must start with a letter and contain only letters, digits, '+', '-' or '.'"))
        }
        return colon
    }

    /// Reads `host[:port]`. Credentials (`user@`) are refused: an app deep link never needs
    /// them and `https://trusted.example@evil.example` is a classic spoof. An empty port
    /// (`weread://book:/42`) is no port, as RFC 3986 reads it (§3.2.3, `port = *DIGIT`).
    private func readAuthority(_ bytes: UTF8Bytes, _ range: Range<Int>) throws(RouteError) -> (String, Int?) {
        if bytes.firstIndex(of: UInt8(ascii: "@"), in: range) != nil {
            throw error(.malformedURL(problem: "its authority '\(bytes.string(range))' contains credentials ('@'); remove the user part"))
        }
        if !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "[") {
            throw error(.malformedURL(problem: "its host is an IP literal ('[...]'), which the router does not support; use a host name"))
        }
        var hostRange = range
        var port: Int?
        if let colon = lastIndex(of: UInt8(ascii: ":"), in: range, bytes) {
            let digits = colon + 1..<range.upperBound
            if !digits.isEmpty {
                // A port is any digits (RFC 3986), so leading zeros are skipped; at most five
                // digits are then read, so the value cannot overflow.
                var significant = digits.lowerBound
                while significant < digits.upperBound - 1, bytes[significant] == UInt8(ascii: "0") { significant += 1 }
                guard digits.upperBound - significant <= 5, !bytes.contains(in: digits, where: { !isASCIIDigit($0) }),
                    let value = Int(bytes.string(significant..<digits.upperBound)), value <= 65_535
                else {
                    throw error(.malformedURL(problem: "its port '\(bytes.string(digits))' is not a number from 0 to 65535"))
                }
                port = value
            }
            hostRange = range.lowerBound..<colon
        }
        for offset in hostRange where !(bytes[offset] >= 0x80 || isHostByte(bytes[offset])) {
            throw error(.malformedURL(problem: "its host '\(bytes.string(hostRange))' contains '\(Unicode.Scalar(bytes[offset]))', which a host may not contain"))
        }
        let host = try decode(bytes, hostRange, component: "host", plusAsSpace: false)
        // Lowercasing is skipped when the raw bytes hold no uppercase letter and no escape
        // (which could spell one, as `%41` does): the common case.
        let mayHaveUppercase = bytes.contains(in: hostRange) { isASCIIUppercase($0) || $0 == UInt8(ascii: "%") }
        return (mayHaveUppercase ? lowercasedASCII(host[...]) : host, port)
    }

    private func readPath(_ bytes: UTF8Bytes, _ range: Range<Int>) throws(RouteError) -> [String] {
        var segments: [String] = []
        // Deep links rarely have more than four segments; reserving them up front saves
        // the array's regrowth on the hot path.
        segments.reserveCapacity(4)
        var segmentStart = range.lowerBound
        for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == UInt8(ascii: "/") {
            if segmentStart < index {
                guard segments.count < options.maximumSegmentCount else {
                    throw error(.tooManySegments(limit: options.maximumSegmentCount))
                }
                segments.append(try decode(bytes, segmentStart..<index, component: "path segment", plusAsSpace: false))
            }
            segmentStart = index + 1
        }
        return segments
    }

    private func readQuery(_ bytes: UTF8Bytes, _ range: Range<Int>) throws(RouteError) -> [QueryItem] {
        var items: [QueryItem] = []
        let plus = options.decodesPlusAsSpace
        var itemStart = range.lowerBound
        for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == UInt8(ascii: "&") {
            defer { itemStart = index + 1 }
            guard itemStart < index else { continue }
            guard items.count < options.maximumQueryItemCount else {
                throw error(.tooManyQueryItems(limit: options.maximumQueryItemCount))
            }
            let item = itemStart..<index
            if let equals = bytes.firstIndex(of: UInt8(ascii: "="), in: item) {
                let name = try decode(bytes, itemStart..<equals, component: "query item name", plusAsSpace: plus)
                let value = try decode(bytes, equals + 1..<index, component: "value of query item '\(name)'", plusAsSpace: plus)
                items.append(QueryItem(name: name, value: value))
            } else {
                items.append(QueryItem(name: try decode(bytes, item, component: "query item name", plusAsSpace: plus), value: nil))
            }
        }
        return items
    }

    /// Decodes one component. `component` names it for an error message, so it is only
    /// built when one is.
    private func decode(
        _ bytes: UTF8Bytes, _ range: Range<Int>, component: @autoclosure () -> String, plusAsSpace: Bool
    ) throws(RouteError) -> String {
        do {
            return try PercentEncoding.decode(bytes.slice(range), plusAsSpace: plusAsSpace)
        } catch {
            throw self.error(.invalidPercentEncoding(component: "\(component()) '\(bytes.string(range))'", problem: error.problem))
        }
    }

    private func lastIndex(of byte: UInt8, in range: Range<Int>, _ bytes: UTF8Bytes) -> Int? {
        var index = range.upperBound
        while index > range.lowerBound {
            index -= 1
            if bytes[index] == byte { return index }
        }
        return nil
    }

    private func lowercasedASCIIBytes(_ bytes: UTF8Bytes, _ range: Range<Int>) -> String {
        guard bytes.contains(in: range, where: isASCIIUppercase) else { return bytes.string(range) }
        return String(decoding: bytes.slice(range).map { isASCIIUppercase($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private func error(_ reason: RouteError.Reason) -> RouteError {
        RouteError(reason, url: string)
    }
}

/// Lowercases ASCII letters only: scheme and host comparison is ASCII case-insensitive,
/// and Unicode case mapping would change lengths and meaning of non-ASCII hosts.
func lowercasedASCII(_ text: Substring) -> String {
    guard text.utf8.contains(where: isASCIIUppercase) else { return String(text) }
    return String(decoding: text.utf8.map { isASCIIUppercase($0) ? $0 + 32 : $0 }, as: UTF8.self)
}

/// A scheme named by app code (a fallback's, an allowed external one) as the router keys
/// it: lowercase, without the `:` or `://` that follows it in a URL. No scheme contains
/// either, so `"https://"` can only mean `https`; kept, it would be a key no URL has.
func schemeKey(_ scheme: String) -> String {
    var text = scheme[...]
    if text.hasSuffix("//") { text = text.dropLast(2) }
    if text.hasSuffix(":") { text = text.dropLast() }
    return lowercasedASCII(text)
}

/// Splits `text` at every `separator` byte, dropping empty pieces. Splitting by byte
/// rather than by `Character` matters: `&` followed by a combining mark is one
/// `Character`, and would otherwise hide the delimiter.
func splitASCII(_ text: Substring, on separator: UInt8) -> [Substring] {
    var pieces: [Substring] = []
    var start = text.startIndex
    var index = text.startIndex
    let utf8 = text.utf8
    while index != text.endIndex {
        if utf8[index] == separator {
            if start != index { pieces.append(text[start..<index]) }
            index = utf8.index(after: index)
            start = index
        } else {
            index = utf8.index(after: index)
        }
    }
    if start != text.endIndex { pieces.append(text[start...]) }
    return pieces
}

/// `/`, `?` or `#`: a `:` after one of them cannot end a scheme.
func isPathQueryOrFragmentDelimiter(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
}

func isASCIIUppercase(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
}

func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || isASCIIUppercase(byte)
}

func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// RFC 3986 `reg-name` bytes: unreserved, sub-delimiters and `%` of an escape.
private func isHostByte(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "*") || byte == UInt8(ascii: "%") || isAllowedInHost(byte)
}
