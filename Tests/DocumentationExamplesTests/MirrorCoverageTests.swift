// Keeps the mirrors in this target honest: every line of code in a ```swift block of
// README.md, Docs/*.md and the DocC landing pages must appear in a line of the mirror file
// that page names, and every line of a ```swift example in a doc comment of the library
// modules must appear in a line of DocCommentExamples.swift (of the WeRead example's
// modules, of WeReadDocCommentExamples.swift). An example edited without its mirror, or
// added without one, fails here, so the mirror keeps compiling the code the reader sees.
//
// What a line may differ by: indentation and spacing, a trailing `//` comment, a leading
// `private`, the namespace that stands in for the page's modules (`TestingPage.ReviewService`
// in a type name the mirror checks, where the page's reader, whose `ReviewService` is a
// module's own, reads `ReviewService`), being part of a longer line (`request.pattern` is in
// `#expect(request.pattern == "...")`), and lines the mirror legitimately rewrites:
// comment-only lines, `import`s (a test target is one module), lines that `print(...)` (the
// mirror checks what they print with `#expect`; what they print is not checked here) and
// lines with an elision (`...`), which the mirror writes out. Blocks that are Package.swift
// fragments (they contain `.product(name:`) cannot live in a test target;
// Tests/ConsumerPackage builds the real form. Only that each line is there is checked, not
// where.
import Foundation
import Testing

@Suite struct MirrorCoverageTests {
    /// Each documentation page with code, and the file in this target that mirrors it.
    static let mirrors: [(page: String, mirror: String)] = [
        ("README.md", "ReadmeExamples.swift"),
        ("Docs/GettingStarted.md", "GettingStartedExamples.swift"),
        ("Docs/Scopes.md", "ScopesExamples.swift"),
        ("Docs/Testing.md", "TestingExamples.swift"),
        ("Docs/Concurrency.md", "ConcurrencyExamples.swift"),
        ("Docs/Componentization.md", "ComponentizationExamples.swift"),
        ("Docs/Routing.md", "RoutingExamples.swift"),
        ("Docs/Migrating.md", "MigratingExamples.swift"),
        ("Docs/ServiceRegistry.docc/ServiceRegistry.md", "CatalogExamples.swift"),
        ("Docs/ServiceRouter.docc/ServiceRouter.md", "CatalogExamples.swift"),
        ("Docs/ServiceRegistryTesting.docc/ServiceRegistryTesting.md", "CatalogExamples.swift"),
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test(arguments: mirrors)
    func everyCodeLineOfThePageIsInItsMirror(page: String, mirror: String) throws {
        let missing = Self.linesMissing(
            fromMirror: try Self.read("Tests/DocumentationExamplesTests/" + mirror),
            page: try Self.read(page)
        )
        #expect(missing.isEmpty, "\(page) has code that \(mirror) does not mirror:\n\(missing.joined(separator: "\n"))")
    }

    /// The modules whose doc comments' examples are mirrored, each with its mirror: the
    /// library's, and the WeRead example's (every `Sources/WeRead*` folder, found on disk so
    /// that a component added later is checked without anyone listing it here).
    static let documentedModules: [(module: String, mirror: String)] = {
        let library = ["Sources/ServiceRegistry", "Sources/ServiceRegistryTesting", "Sources/ServiceRouter"]
        let sources = packageRoot.appendingPathComponent("Sources").path
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
        let example = folders.filter { $0.hasPrefix("WeRead") }.sorted().map { "Sources/" + $0 }
        return library.map { ($0, "DocCommentExamples.swift") } + example.map { ($0, "WeReadDocCommentExamples.swift") }
    }()

    @Test(arguments: documentedModules)
    func everyDocCommentExampleIsInItsMirror(module: String, mirror mirrorFile: String) throws {
        let mirror = try Self.read("Tests/DocumentationExamplesTests/" + mirrorFile)
        let directory = Self.packageRoot.appendingPathComponent(module).path
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "found the sources")
        for file in files.sorted() {
            let missing = Self.linesMissing(fromMirror: mirror, page: Self.docComments(of: try Self.read("\(module)/\(file)")))
            #expect(missing.isEmpty, "\(module)/\(file) has a doc comment example that \(mirrorFile) does not mirror:\n\(missing.joined(separator: "\n"))")
        }
    }

    /// The WeRead example's modules are among those checked (found on disk, so a wrong
    /// folder prefix would otherwise check none of them and pass).
    @Test func theExampleModulesAreChecked() {
        let example = Self.documentedModules.filter { $0.mirror == "WeReadDocCommentExamples.swift" }.map(\.module)
        #expect(example.contains("Sources/WeReadInterfaces") && example.contains("Sources/WeReadReview"))
    }

    /// No page with Swift code is left out of ``mirrors``.
    @Test func everyPageWithSwiftCodeHasAMirror() throws {
        let docs = Self.packageRoot.appendingPathComponent("Docs").path
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: docs) as [String]?)
        let pages = ["README.md"] + files.filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
        #expect(pages.count > 10, "found the pages")
        let mirrored = Set(Self.mirrors.map(\.page))
        for page in pages where !Self.swiftBlocks(in: try Self.read(page)).isEmpty {
            #expect(mirrored.contains(page), "\(page) has Swift code but no mirror in MirrorCoverageTests.mirrors")
        }
    }

    /// The check itself fails on a drifted line and on a block with no mirror.
    @Test func theCheckCatchesADriftedLine() {
        let page = """
            Text.

            ```swift
            let detail = try registry.resolve(BookDetailService.self, argument: 42)
            print(detail.render())   // Book 42: 2 reviews
            ```

              ```swift
              registry.register(ReviewService.self, name: "offline") { _ in NoReviews() }
              ```
            """
        let mirror = """
            let detail = try registry.resolve(BookDetailService.self, argument: 41)
            #expect(detail.render() == "Book 42: 2 reviews")
            """
        #expect(Self.linesMissing(fromMirror: mirror, page: page) == [
            "let detail = try registry.resolve(BookDetailService.self, argument: 42)",
            #"registry.register(ReviewService.self, name: "offline") { _ in NoReviews() }"#,
        ])
        #expect(Self.linesMissing(fromMirror: page, page: page).isEmpty)

        // A type name the mirror checks carries the namespace that stands in for the page's
        // modules; the page's reader sees it without.
        let namedPage = """
            ```swift
            #expect(report.notChecked == ["BookDetailService (argument: Int)"])
            ```
            """
        let namespaced = #"#expect(report.notChecked == ["GettingStarted.BookDetailService (argument: Int)"])"#
        #expect(Self.linesMissing(fromMirror: namespaced, page: namedPage).isEmpty)
        let otherType = #"#expect(report.notChecked == ["MyGettingStarted.BookDetailService (argument: Int)"])"#
        #expect(Self.linesMissing(fromMirror: otherType, page: namedPage).count == 1)

        let source = """
            /// Resolves it.
            ///
            /// ```swift
            /// let screen = try registry.resolve(BookScreen.self, argument: "42")
            /// try router.open("weread://book/42") { ... }
            /// ```
            public func resolve() {}
            """
        #expect(Self.linesMissing(fromMirror: "#expect(try registry.resolve(BookScreen.self) != nil)", page: Self.docComments(of: source)) == [
            #"let screen = try registry.resolve(BookScreen.self, argument: "42")"#,
        ])
    }

    // MARK: - The check

    /// The significant lines of the page's Swift blocks that are in no line of `mirror`.
    static func linesMissing(fromMirror mirror: String, page: String) -> [String] {
        let mirrorLines = mirror.split(separator: "\n").map(normalized)
        return swiftBlocks(in: page)
            .filter { block in !block.contains { $0.contains(".product(name:") } }
            .flatMap { $0 }
            .map(normalized)
            .filter(isSignificant)
            .filter { line in !mirrorLines.contains { $0.contains(line) } }
    }

    /// The text of a source file's `///` comments, one line per line (others left empty),
    /// so that ``swiftBlocks(in:)`` finds their examples.
    static func docComments(of source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { return "" }
            let comment = trimmed.dropFirst(3)
            return String(comment.hasPrefix(" ") ? comment.dropFirst() : comment)
        }.joined(separator: "\n")
    }

    /// The lines of each ```swift block, fences excluded (also fences indented in a list).
    static func swiftBlocks(in page: String) -> [[String]] {
        blocks(in: page, language: "swift")
    }

    /// The lines of each fenced block of `language` (```swift, ```text), fences excluded
    /// (also fences indented in a list).
    static func blocks(in page: String, language: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```" + language {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(String(line))
            }
        }
        return blocks
    }

    /// The namespaces the mirrors put the pages' types in, since a test target is one
    /// module: the registry names a type with the types it is nested in, so where a page
    /// shows `ReviewService` (its reader's type, a module's own), the mirror's check reads
    /// `TestingPage.ReviewService`.
    static let pageNamespaces = [
        "CatalogPages", "ComponentizationPage", "DocComments", "GettingStarted", "MigratingPage", "RoutingDocs",
        "ScopesPage", "TestingPage",
    ]

    /// The line without its indentation, its trailing `//` comment, runs of spaces, a
    /// leading `private` (a mirror hides its copies of the page's types from other files),
    /// and the page namespace before a type's name (`TestingPage.ReviewService`).
    static func normalized<Line: StringProtocol>(_ line: Line) -> String {
        var code = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if character == "\"" { inString.toggle() }
            if !inString, character == "/", previous == "/" {
                code.removeLast()
                break
            }
            code.append(character)
            previous = character
        }
        let words = code.split(whereSeparator: \.isWhitespace)
        return withoutPageNamespaces(words.drop { $0 == "private" || $0 == "fileprivate" }.joined(separator: " "))
    }

    /// `line` without a page namespace where it qualifies a type: `TestingPage.` before a
    /// capital letter, not as the end of a longer name.
    static func withoutPageNamespaces(_ line: String) -> String {
        var result = line
        for namespace in pageNamespaces {
            var searchStart = result.startIndex
            while let range = result[searchStart...].firstRange(of: namespace + ".") {
                let startsName =
                    range.lowerBound == result.startIndex
                    || !result[result.index(before: range.lowerBound)].isLetter
                        && !result[result.index(before: range.lowerBound)].isNumber
                        && result[result.index(before: range.lowerBound)] != "_"
                if startsName, range.upperBound < result.endIndex, result[range.upperBound].isUppercase {
                    result.removeSubrange(range)
                    searchStart = range.lowerBound
                } else {
                    searchStart = range.upperBound
                }
            }
        }
        return result
    }

    /// A line the mirror must have: code other than punctuation, an import, a line that
    /// prints, or one with an elision.
    static func isSignificant(_ line: String) -> Bool {
        !isPunctuation(line)
            && !line.hasPrefix("import ")
            && !line.contains("print(")
            && !line.contains("...")
    }

    /// A line of brackets, commas and semicolons only (or an empty one): it says nothing a
    /// copy could get wrong on its own.
    static func isPunctuation(_ line: String) -> Bool {
        line.allSatisfy { "{}()[],; ".contains($0) }
    }
}
