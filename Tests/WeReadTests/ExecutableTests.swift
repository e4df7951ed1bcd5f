// Linux only: Scripts/check-apple-availability.sh type-checks the tests for macOS against
// Foundation stand-ins that have no `Process`, `Pipe` or `Bundle`; the CI runs on Linux.
#if os(Linux)
import Foundation
import Testing

/// The `weread` executable itself, run as a process: `main.swift` is the one part of the
/// app that `WeReadCommandLine.run` cannot check, since it does the printing and exiting.
/// A message on standard output instead of standard error, or an exit status of 0 for a
/// failure, would go unseen by every other test, yet breaks scripts (`weread open 42 |
/// less`, `weread search x || ...`) that rely on them.
@Suite struct ExecutableTests {
    /// The `weread` executable SwiftPM built beside the test binary (`swift test` builds
    /// every product before it runs the tests).
    static let executable: URL? = Bundle.main.executableURL.map {
        $0.deletingLastPathComponent().appendingPathComponent("weread")
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

    /// Runs the executable with `arguments`; what it printed on each stream and its status.
    static func run(_ arguments: [String]) throws -> (output: String, errorOutput: String, status: Int32) {
        let executable = try #require(Self.executable, "no weread executable beside the test product")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        // Read before waiting, so a full pipe cannot stall the process.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self),
                process.terminationStatus)
    }

    @Test func aScreenGoesToStandardOutputAndExitsZero() throws {
        let (output, errorOutput, status) = try Self.run(["open", "42"])
        #expect(status == 0)
        #expect(output.hasPrefix("The Hitchhiker's Guide to the Galaxy\nDouglas Adams · 1979 · 224 pages\n"))
        #expect(errorOutput.isEmpty)
    }

    /// Each failure's message goes to standard error only, and the process exits with the
    /// status the help documents: 1 nothing found, 64 a bad command line.
    @Test(arguments: [
        (["open", "999"], "weread: no book with id 999 in the catalog", Int32(1)),
        (["search", "zzzz"], "weread: no book's title or author contains “zzzz”.", 1),
        (["open", "abc"], "weread: 'abc' is not a book id", 64),
        (["open-url", "weread://nowhere"], "weread: 'weread://nowhere' is not a link weread can open.", 64),
    ])
    func aFailureGoesToStandardErrorWithItsExitStatus(arguments: [String], message: String, status: Int32) throws {
        let result = try Self.run(arguments)
        #expect(result.status == status)
        #expect(result.output.isEmpty, "printed on standard output: \(result.output)")
        #expect(result.errorOutput.hasPrefix(message), "got: \(result.errorOutput)")
    }
}
#endif
