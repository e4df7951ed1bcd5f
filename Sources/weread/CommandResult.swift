/// What a command printed and how it ended, kept as values so tests can check them.
struct CommandResult: Equatable, Sendable {
    /// Exit statuses, following the BSD `sysexits` convention where one fits.
    enum ExitCode: Int32, Sendable {
        /// The command did what was asked.
        case success = 0
        /// The request was well formed but names nothing: an unknown book, no search match.
        case notFound = 1
        /// The command line itself is wrong: an unknown command, a missing or malformed value.
        case usage = 64
        /// The app is wired wrong (a registration is missing or a factory failed): a bug.
        case software = 70
    }

    /// Text for standard output, each line ending in a newline.
    var output: String = ""
    /// Text for standard error, each line ending in a newline.
    var errorOutput: String = ""
    /// How the process should exit.
    var exitCode: ExitCode = .success

    /// A successful result printing `lines`.
    static func success(_ lines: [String]) -> CommandResult {
        CommandResult(output: lines.map { $0 + "\n" }.joined())
    }

    /// A failed result printing `message` (one or more lines) to standard error.
    static func failure(_ message: String, _ exitCode: ExitCode) -> CommandResult {
        CommandResult(errorOutput: message + "\n", exitCode: exitCode)
    }
}
