import Foundation

/// The lines of the ```text block that follows the first of `lines` containing `marker`, up
/// to its closing fence, without the fence's indentation (a list item's).
///
/// How the tests that compare a doc's quoted output with what the code prints (Docs/Testing.md's,
/// the doc comments') find that output, so each doc's text is read the same way.
///
/// - Parameter source: Where `lines` come from, for the error.
/// - Throws: ``TextBlockNotFound`` when no line holds `marker`, or no block follows it.
func textBlock(in lines: [Substring], after marker: String, of source: String) throws -> [Substring] {
    guard let markerLine = lines.firstIndex(where: { $0.contains(marker) }),
        let fence = lines[markerLine...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```text" })
    else {
        throw TextBlockNotFound(source: source, marker: marker)
    }
    let indentation = lines[fence].prefix { $0 == " " }.count
    return lines[(fence + 1)...].prefix { $0.trimmingCharacters(in: .whitespaces) != "```" }
        .map { $0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count)) }
}

/// What ``textBlock(in:after:of:)`` throws when the doc has no such block (it was edited).
struct TextBlockNotFound: Error, CustomStringConvertible {
    let source: String
    let marker: String
    var description: String { "no ```text block after a line containing \(marker) in \(source)" }
}
