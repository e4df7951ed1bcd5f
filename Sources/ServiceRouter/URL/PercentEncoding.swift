/// Percent-decoding and percent-encoding of URL components (RFC 3986 §2.1), written
/// against the standard library alone because the router may not import Foundation.
///
/// Decoding reports *what* was wrong as a value instead of trapping: URLs come from push
/// payloads and web pages, so a truncated `%4` or an escape that spells invalid UTF-8
/// must become a ``RouteError``, never a crash.
enum PercentEncoding {
    /// What made a component's percent-encoding unreadable.
    struct DecodingFailure: Error, Sendable {
        /// The problem in words, with the byte offset inside the component.
        let problem: String
    }

    /// Decodes the `%XX` escapes in `component` and, when asked, `+` as a space.
    ///
    /// The common case (no `%`, no `+`) turns the bytes into a string directly, without a
    /// byte buffer, which keeps matching allocation-light for plain URLs. The bytes are
    /// read in order, never by index, so no input can make this read out of bounds.
    ///
    /// - Parameters:
    ///   - component: The raw UTF-8 of one segment, query name or value, or fragment;
    ///     it holds whole characters (it was split at ASCII delimiters).
    ///   - plusAsSpace: Whether `+` stands for a space (HTML form encoding in queries).
    /// - Returns: The decoded text.
    /// - Throws: ``DecodingFailure`` for an escape that is cut short, has a non-hex
    ///   digit, or decodes to bytes that are not UTF-8.
    static func decode(_ component: some Collection<UInt8>, plusAsSpace: Bool) throws(DecodingFailure) -> String {
        let needsWork = component.contains { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }
        guard needsWork else { return String(decoding: component, as: UTF8.self) }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.count)
        // An escape in progress: where its '%' was, and the hex digits read so far.
        var escape: (offset: Int, digits: Int, value: UInt8)?
        for (offset, byte) in component.enumerated() {
            if var pending = escape {
                guard let digit = hexValue(byte) else {
                    throw DecodingFailure(problem: "'%' at offset \(pending.offset) is not followed by two hex digits")
                }
                pending.value = pending.value << 4 | digit
                pending.digits += 1
                if pending.digits == 2 {
                    bytes.append(pending.value)
                    escape = nil
                } else {
                    escape = pending
                }
            } else if byte == UInt8(ascii: "%") {
                escape = (offset, 0, 0)
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        if let pending = escape {
            throw DecodingFailure(problem: "'%' at offset \(pending.offset) is not followed by two hex digits")
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw DecodingFailure(problem: "the escapes do not spell valid UTF-8")
        }
        return decoded
    }

    /// Percent-encodes every byte of `text` that `isAllowed` rejects, as `%XX` of its UTF-8.
    ///
    /// - Parameters:
    ///   - text: The value to put into a URL.
    ///   - isAllowed: Which bytes may appear literally in the target component.
    /// - Returns: Text that decodes back to `text` and cannot be mistaken for a delimiter.
    static func encode(_ text: String, allowing isAllowed: (UInt8) -> Bool) -> String {
        guard !text.utf8.allSatisfy(isAllowed) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        // Every byte written is ASCII, so this decoding cannot fail or repair anything.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bytes that may stand unescaped in a path segment: RFC 3986 `pchar` minus the
    /// characters this router gives meaning to (`:` starts a parameter and `*` a wildcard
    /// in patterns, so generated URLs escape them to stay unambiguous when read back).
    static func isAllowedInPathSegment(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: "@"):
            return true
        default:
            return isUnreserved(byte)
        }
    }

    /// Bytes that may stand unescaped in a query name or value: `&`, `=`, `+` and `#`
    /// are escaped because they would split or end the item, or read back as a space.
    static func isAllowedInQuery(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "@"),
            UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return isUnreserved(byte)
        }
    }

    /// Bytes that may stand unescaped in a fragment.
    static func isAllowedInFragment(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || isAllowedInQuery(byte)
    }

    /// RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
