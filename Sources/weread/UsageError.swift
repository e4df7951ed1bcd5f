/// A command line that cannot be run as written, with what was wrong and how to fix it.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, such as `'abc' is not a book id`.
    let problem: String
    /// A corrected command line or where to look, such as `weread open 42`.
    let fix: String

    var description: String {
        "weread: \(problem)\n\(fix)"
    }
}
