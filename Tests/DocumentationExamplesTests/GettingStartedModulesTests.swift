// Docs/GettingStarted.md splits its app into modules (Interfaces, Reviews, BookDetail, the
// BookApp target and its tests). GettingStartedExamples.swift runs the page's code in this
// one test module, where a missing `public` or `import` goes unnoticed; Tests/ConsumerPackage
// holds the same code in the page's modules, which .ci/run builds, tests and runs. This
// check keeps that copy honest: every line of a block the page labels `// Module X` must be
// in module X's files, every line of the `// Target X, main.swift` block in that file, the
// manifest fragment in the package's manifest, and every other block in the app target or
// its tests. Unlike the single-module mirrors, the copy is verbatim: imports and prints
// count too.
import Foundation
import Testing

@Suite struct GettingStartedModulesTests {
    static let page = "Docs/GettingStarted.md"
    static let package = "Tests/ConsumerPackage/"

    /// Where a block of the page must be found: the package's files for it.
    static func files(for block: [String]) -> [String] {
        let label = block.lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
        if block.contains(where: { $0.contains(".product(name:") }) {
            return ["Package.swift"]
        }
        if label.hasPrefix("// Module ") {
            let module = label.dropFirst("// Module ".count).prefix { $0.isLetter || $0.isNumber }
            return sources(in: "Sources/\(module)")
        }
        if label.hasPrefix("// Target "), label.hasSuffix(", main.swift") {
            let target = label.dropFirst("// Target ".count).dropLast(", main.swift".count)
            return ["Sources/\(target)/main.swift"]
        }
        return sources(in: "Sources/BookApp") + sources(in: "Tests/BookAppTests")
    }

    static func sources(in directory: String) -> [String] {
        let path = MirrorCoverageTests.packageRoot.appendingPathComponent(package + directory).path
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted().map { "\(directory)/\($0)" }
    }

    /// The block's lines that none of its files has, ignoring indentation, spacing and
    /// trailing comments. The manifest's `.package(` line is left out: its path is the
    /// reader's folder layout, not this repository's.
    static func linesMissing(from block: [String]) throws -> [String] {
        let files = files(for: block)
        let copy = try files.map { try MirrorCoverageTests.read(package + $0) }.joined(separator: "\n")
        let copyLines = copy.split(separator: "\n").map(MirrorCoverageTests.normalized)
        return block.map(MirrorCoverageTests.normalized)
            .filter { line in !MirrorCoverageTests.isPunctuation(line) && !line.hasPrefix(".package(") }
            .filter { line in !copyLines.contains(line) }
    }

    @Test func everyBlockOfThePageIsInTheModuleItNames() throws {
        let blocks = MirrorCoverageTests.swiftBlocks(in: try MirrorCoverageTests.read(Self.page))
        #expect(blocks.count > 8, "found the page's blocks")
        for block in blocks {
            let missing = try Self.linesMissing(from: block)
            let files = Self.files(for: block)
            #expect(
                missing.isEmpty,
                "\(Self.page) has code that \(files) in \(Self.package) lacks:\n\(missing.joined(separator: "\n"))")
        }
    }

    /// The page's labels lead to the package's modules, so the check above is not
    /// satisfied by finding no files, and a line placed in another module fails it.
    @Test func theLabelsLeadToTheModules() throws {
        #expect(
            Self.files(for: ["// Module Interfaces: protocols and plain values only."]) == [
                "Sources/Interfaces/Interfaces.swift"
            ])
        #expect(Self.files(for: ["// Module Reviews"]) == ["Sources/Reviews/ReviewAssembly.swift"])
        #expect(
            Self.files(for: ["// Module BookDetail: it never imports Reviews."]) == [
                "Sources/BookDetail/BookDetailAssembly.swift"
            ])
        #expect(Self.files(for: ["// Target BookApp, main.swift"]) == ["Sources/BookApp/main.swift"])
        #expect(try Self.linesMissing(from: ["// Module Reviews", "struct BookDetailScreen: BookDetailService {"]) == [
            "struct BookDetailScreen: BookDetailService {"
        ])
    }
}
