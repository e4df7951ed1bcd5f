import Foundation
import Testing

@testable import weread

/// The `weread` sessions the docs show, run command by command and compared with the page,
/// read from the page itself: a change to what weread prints, or to the page, fails here
/// with the page's name.
@Suite struct DocumentedSessionTests {
    /// A command of a transcript and what the page says it prints (standard output, then
    /// standard error, each line ending in a newline).
    struct Step: Equatable {
        var arguments: [String]
        var printed: String
    }

    /// The steps of the ```text block that follows the first line containing `marker` in
    /// `page`: each `$ weread ...` line starts one, its output runs to the blank line before
    /// the next `$` (or the block's end).
    static func transcript(in page: String, after marker: String) throws -> [Step] {
        let lines = try String(
            contentsOf: ArchitectureTests.packageRoot.appendingPathComponent(page), encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let markerLine = lines.firstIndex(where: { $0.contains(marker) }),
            let fence = lines[markerLine...].firstIndex(of: "```text")
        else {
            throw TranscriptNotFound(page: page, marker: marker)
        }
        var steps: [Step] = []
        for line in lines[(fence + 1)...].prefix(while: { $0 != "```" }) {
            if line.hasPrefix("$ weread ") {
                steps.append(Step(arguments: shellWords(line.dropFirst("$ weread ".count)), printed: ""))
            } else if !steps.isEmpty {
                steps[steps.count - 1].printed += line + "\n"
            }
        }
        for index in steps.indices where steps[index].printed.hasSuffix("\n\n") {
            steps[index].printed.removeLast()
        }
        return steps
    }

    /// The words of a command line as a shell splits them: at spaces, but not inside
    /// single quotes, which it removes.
    static func shellWords<Line: StringProtocol>(_ line: Line) -> [String] {
        var words: [String] = []
        var word: String?
        var quoted = false
        for character in line {
            if character == "'" {
                quoted.toggle()
                word = word ?? ""
            } else if character == " ", !quoted {
                if let finished = word { words.append(finished) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }

    struct TranscriptNotFound: Error, CustomStringConvertible {
        let page: String
        let marker: String
        var description: String { "\(page) has no ```text block after a line containing \(marker)" }
    }

    /// Docs/Routing.md, section 10: `weread open-url` on a link it opens and one it cannot.
    @Test func routingPagesOpenURLSessionIsWhatWereadPrints() throws {
        let steps = try Self.transcript(in: "Docs/Routing.md", after: "`weread open-url` treats")
        #expect(steps.map(\.arguments) == [
            ["open-url", "weread://book/42?from=push"], ["open-url", "weread://book/abc"],
        ])
        for step in steps {
            let result = WeReadCommandLine.run(step.arguments)
            #expect(result.output + result.errorOutput == step.printed, "weread \(step.arguments.joined(separator: " "))")
        }
    }

    /// README.md: "`swift run weread --help` lists the rest: `open 42`, `reviews 42`, ...":
    /// each command it names, read from the README, is in the help and runs.
    @Test func theReadmesCommandsAreInTheHelpAndRun() throws {
        let readme = try String(
            contentsOf: ArchitectureTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.firstRange(of: "`swift run weread --help` lists the rest:"))
        let sentence = readme[start.upperBound...].prefix { $0 != "." }
        let commands = sentence.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { Self.shellWords($0.element) }
        #expect(commands.map { $0.first ?? "" } == ["open", "reviews", "search", "graph", "graph", "open-url"])
        let help = WeReadCommandLine.run(["--help"]).output
        for command in commands {
            #expect(help.contains("weread \(command.joined(separator: " ").prefix { $0 != " " }) "), "the help names \(command)")
            let result = WeReadCommandLine.run(command)
            #expect(result.exitCode == .success, "weread \(command.joined(separator: " "))")
            #expect(!result.output.isEmpty)
        }
    }

    @Test func theTranscriptReaderSplitsCommandsAndOutputs() throws {
        #expect(Self.shellWords("open-url 'weread://search?q=a b'  x") == ["open-url", "weread://search?q=a b", "x"])
        #expect(Self.shellWords("search ''") == ["search", ""])
        #expect(throws: TranscriptNotFound.self) { try Self.transcript(in: "Docs/Routing.md", after: "no line says this") }
    }
}
