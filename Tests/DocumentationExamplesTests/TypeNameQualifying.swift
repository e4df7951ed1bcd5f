/// `text` with every one of `names`' keys that stands as a name of its own (no letter,
/// digit, `_` or `.` before it, no letter, digit or `_` after it) replaced by its value: a
/// doc's type, as the mirror that declares it names it (`ReviewService` read as
/// `TestingPage.ReviewService`), so that a doc's quoted output can be compared with what the
/// mirror prints.
///
/// Written out rather than as a regular expression: `NSRegularExpression` is not in the
/// stand-in Foundation that Scripts/check-apple-availability.sh type-checks against, and a
/// Swift `Regex` has no lookbehind.
func qualifying(_ names: [String: String], in text: String) -> String {
    func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
    // Longest first, so that a name that starts another is not taken for it.
    let longestFirst = names.sorted { $0.key.count > $1.key.count }
    var result = ""
    var rest = Substring(text)
    scanning: while let next = rest.first {
        if result.last.map({ !isNameCharacter($0) && $0 != "." }) ?? true {
            for (name, replacement) in longestFirst where rest.hasPrefix(name) {
                let after = rest.dropFirst(name.count)
                if !(after.first.map(isNameCharacter) ?? false) {
                    result += replacement
                    rest = after
                    continue scanning
                }
            }
        }
        result.append(next)
        rest = rest.dropFirst()
    }
    return result
}
