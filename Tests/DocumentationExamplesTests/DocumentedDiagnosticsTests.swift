// Linux only: Scripts/check-apple-availability.sh type-checks the tests for macOS against
// Foundation stand-ins that have no `Process`, `Pipe` or `Bundle`; the CI runs on Linux.
#if os(Linux)
import Foundation
import Testing

/// What the compiler says about code that does not compile, as the docs quote it.
///
/// The mirrors compile every example that should compile; these compile the mistakes the
/// docs warn about (Getting started's *When it does not compile*, Swift concurrency's
/// errors), each in a file of its own against the `ServiceRegistry` module this test run
/// built, and check that the compiler says what the page says it does. So a page cannot
/// promise a message that the compiler, or the library's unavailable overloads
/// (`Support/UnavailableOverloads.swift`), no longer gives; when a new toolchain words a
/// diagnostic differently, or stops crashing, this fails and the page needs updating.
@Suite struct DocumentedDiagnosticsTests {
    /// What a snippet makes the compiler do.
    enum Outcome: Sendable {
        /// It fails, with each of the quoted messages.
        case fails
        /// It compiles, with each of the quoted messages as a warning.
        case warns
        /// It crashes (signal 11), its stack dump naming each quoted message.
        case crashes
        /// It compiles without a warning.
        case compilesCleanly
    }

    /// A mistake a page describes, and what the page quotes the compiler saying.
    struct Mistake: Sendable, CustomTestStringConvertible {
        let what: String
        /// The page that describes it (`nil` for one only the library's source states).
        let page: String?
        /// What the compiler's output must contain. A `...` stands for any text within a
        /// line, as the page elides a long type. With a `page`, each is quoted on it.
        let quoted: [String]
        /// What the compiler's output must contain that the page describes without quoting.
        var says: [String] = []
        let outcome: Outcome
        var flags: [String] = []
        /// The file, after `import ServiceRegistry`: declarations only, as in a library
        /// (statements go in a function), since top-level code runs on the main actor.
        let source: String

        var testDescription: String { what }

        /// The same in the Swift 5 language mode, where it only warns.
        var inTheSwift5LanguageMode: Mistake {
            Mistake(
                what: what + ", in the Swift 5 language mode", page: page,
                quoted: quoted.map { $0.hasPrefix("error: ") ? String($0.dropFirst("error: ".count)) : $0 },
                says: says, outcome: .warns, flags: flags + ["-swift-version", "5"], source: source)
        }
    }

    static let mistakes: [Mistake] = anyTarget + defaultIsolation + defaultIsolation.map(\.inTheSwift5LanguageMode)

    /// A target with default main-actor isolation (Swift concurrency's *Default main-actor
    /// isolation*), whose errors "In the Swift 5 language mode ... are warnings".
    static let defaultIsolation: [Mistake] = [
        Mistake(
            what: "an isolated conformance built by a factory", page: "Docs/Concurrency.md",
            quoted: [
                "error: main actor-isolated conformance of 'UppercaseFormatter' to 'TitleFormatter' cannot be used in nonisolated context"
            ],
            outcome: .fails, flags: ["-default-isolation", "MainActor"],
            source: """
                nonisolated protocol TitleFormatter {
                    func format(_ title: String) -> String
                }
                struct UppercaseFormatter: TitleFormatter {
                    func format(_ title: String) -> String { title.uppercased() }
                }
                func example(registry: ServiceRegistry) {
                    registry.register(TitleFormatter.self) { _ in UppercaseFormatter() }
                }
                """),
        Mistake(
            what: "a default-isolated protocol's requirement called from a factory", page: "Docs/Concurrency.md",
            quoted: ["call to main actor-isolated instance method 'format' in a synchronous nonisolated context"],
            outcome: .fails, flags: ["-default-isolation", "MainActor"],
            source: """
                protocol TitleFormatter {
                    func format(_ title: String) -> String
                }
                func example(registry: ServiceRegistry) {
                    registry.register(String.self) { r in
                        let formatter: any TitleFormatter = try r.resolve()
                        return formatter.format("dune")
                    }
                }
                """),
        Mistake(
            what: "a default-isolated global registry read by a factory", page: "Docs/Concurrency.md",
            quoted: ["main actor-isolated let 'appRegistry' can not be referenced from a nonisolated context"],
            outcome: .fails, flags: ["-default-isolation", "MainActor"],
            source: """
                let appRegistry = ServiceRegistry()
                func example() {
                    appRegistry.register(String.self) { _ in
                        try appRegistry.resolve(String.self, name: "title")
                    }
                }
                """),
        Mistake(
            what: "a default-isolated assembly installed from a nonisolated function", page: "Docs/Concurrency.md",
            quoted: ["main actor-isolated conformance of 'ShelfAssembly' to 'ServiceAssembly' cannot be used in nonisolated context"],
            outcome: .fails, flags: ["-default-isolation", "MainActor"],
            source: """
                struct ShelfAssembly: ServiceAssembly {
                    func assemble(into registry: ServiceRegistry) {}
                }
                nonisolated func example(registry: ServiceRegistry) {
                    registry.install(ShelfAssembly())
                }
                """),
    ]

    /// Mistakes in a target of any isolation.
    static let anyTarget: [Mistake] = [
        Mistake(
            what: "a resolve with nothing to infer its type from", page: "Docs/GettingStarted.md",
            quoted: ["Swift cannot infer the service type here"], outcome: .fails,
            source: """
                func example(registry: ServiceRegistry) throws {
                    let reviews = try registry.resolve()
                }
                """),
        Mistake(
            what: "a resolve with an argument and nothing to infer its type from", page: "Docs/GettingStarted.md",
            quoted: ["Swift cannot infer the service type here"], outcome: .fails,
            source: """
                func example(registry: ServiceRegistry) throws {
                    let screen = try registry.resolve(argument: 42)
                }
                """),
        Mistake(
            what: "a resolver's resolve with nothing to infer its type from", page: "Docs/GettingStarted.md",
            quoted: ["Swift cannot infer the service type here"], outcome: .fails,
            source: """
                func example(registry: ServiceRegistry) {
                    registry.register(Int.self) { r in
                        let other = try r.resolve(name: "other")
                        let fromArgument = try r.resolve(argument: 1)
                        return 42
                    }
                }
                """),
        Mistake(
            what: "withOverrides without its operation", page: nil,
            quoted: ["withOverrides needs the code that sees the overrides"], outcome: .fails,
            source: """
                func example(registry: ServiceRegistry) throws {
                    try registry.withOverrides { $0.register(Int.self) { _ in 42 } }
                }
                """),
        Mistake(
            what: "a factory returning a type that does not conform", page: "Docs/GettingStarted.md", quoted: [],
            says: ["cannot convert value of type 'NotReviews' to closure result type 'any ReviewService'"],
            outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                struct NotReviews {}
                func example(registry: ServiceRegistry) {
                    registry.register(ReviewService.self) { _ in NotReviews() }
                }
                """),
        Mistake(
            what: "a resolve without try", page: "Docs/GettingStarted.md", quoted: [],
            says: ["call can throw, but it is not marked with 'try'"], outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                struct BookDetail {
                    init(reviews: any ReviewService) {}
                }
                func example(registry: ServiceRegistry) {
                    registry.register(BookDetail.self) { r in BookDetail(reviews: r.resolve()) }
                }
                """),
        Mistake(
            what: "a factory without its r parameter", page: "Docs/GettingStarted.md", quoted: [],
            says: ["contextual type for closure argument list expects 1 argument"], outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                struct NoReviews: ReviewService {}
                func example(registry: ServiceRegistry) {
                    registry.register(ReviewService.self) { NoReviews() }
                }
                """),
        Mistake(
            what: "an inferred resolve passed to an initializer with overloads", page: "Docs/GettingStarted.md",
            quoted: ["ambiguous use of 'init(...)'"], outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                protocol RatingService: Sendable {}
                struct BookDetail {
                    init(reviews: any ReviewService) {}
                    init(reviews: any RatingService) {}
                }
                func example(registry: ServiceRegistry) {
                    registry.register(BookDetail.self) { r in BookDetail(reviews: try r.resolve()) }
                }
                """),
        Mistake(
            what: "r captured by a @Sendable closure", page: "Docs/GettingStarted.md",
            quoted: ["capture of 'r' with non-Sendable type 'Resolver' in a '@Sendable' closure"], outcome: .fails,
            source: factory(capturingR: laterSendable)),
        Mistake(
            what: "r captured by a Task's closure", page: "Docs/GettingStarted.md",
            quoted: ["MoveOnlyChecker"], outcome: .crashes,
            source: factory(capturingR: task)),
        Mistake(
            what: "r captured by an escaping closure that is not @Sendable", page: "Docs/GettingStarted.md",
            quoted: ["MoveOnlyChecker"], outcome: .crashes,
            source: factory(capturingR: laterNotSendable)),
        Mistake(
            what: "r captured by a @Sendable closure in the Swift 5 language mode", page: "Docs/GettingStarted.md",
            quoted: ["MoveOnlyChecker"], outcome: .crashes, flags: ["-swift-version", "5"],
            source: factory(capturingR: laterSendable)),
        Mistake(
            what: "a borrowing r captured by a Task's closure", page: "Docs/GettingStarted.md",
            quoted: ["error: 'r' cannot be captured by an escaping closure since it is a borrowed parameter"],
            outcome: .fails,
            source: factory(capturingR: task, parameter: "(r: borrowing Resolver)")),
        Mistake(
            what: "a literal of a type that does not conform as a factory's result", page: "Docs/GettingStarted.md",
            quoted: [noDiagnostic], outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                func example(registry: ServiceRegistry) {
                    registry.register(ReviewService.self) { _ in 42 }
                }
                """),
        Mistake(
            what: "a literal of a type that does not conform as an override's result", page: "Docs/GettingStarted.md",
            quoted: [noDiagnostic], outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                func example(registry: ServiceRegistry) {
                    registry.withOverrides { $0.register(ReviewService.self) { _ in "mock" } } operation: {}
                }
                """),
        Mistake(
            what: "a literal with its type written as a factory's result", page: "Docs/GettingStarted.md",
            quoted: ["cannot convert value of type 'Int' to closure result type 'any ReviewService'"],
            outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                func example(registry: ServiceRegistry) {
                    registry.register(ReviewService.self) { _ in 42 as Int }
                }
                """),
        Mistake(
            what: "a protocol's metatype with ExistentialAny", page: "Docs/GettingStarted.md",
            quoted: ["use of protocol 'ReviewService' as a type must be written 'any ReviewService'"],
            outcome: .warns, flags: ["-enable-upcoming-feature", "ExistentialAny"],
            source: """
                protocol ReviewService: Sendable {}
                struct NoReviews: ReviewService {}
                func example(registry: ServiceRegistry) {
                    registry.register(ReviewService.self) { _ in NoReviews() }
                }
                """),
        Mistake(
            what: "a factory calling a main-actor initializer", page: "Docs/Concurrency.md",
            quoted: ["error: call to main actor-isolated initializer 'init(reviews:)' in a synchronous nonisolated context"],
            outcome: .fails,
            source: mainActorClassFactory(attributes: "")),
        Mistake(
            what: "a factory marked @MainActor", page: "Docs/Concurrency.md",
            quoted: [
                "error: converting function value of type '@MainActor @Sendable (borrowing Resolver) throws -> ...' "
                    + "to '@Sendable (borrowing Resolver) throws -> ...' loses global actor 'MainActor'"
            ],
            outcome: .fails,
            source: mainActorClassFactory(attributes: "@MainActor ")),
        Mistake(
            what: "an upcoming feature that Swift 6 has already", page: "Docs/Concurrency.md",
            quoted: ["upcoming feature 'InferSendableFromCaptures' is already enabled as of Swift version 6"],
            outcome: .warns, flags: ["-enable-upcoming-feature", "InferSendableFromCaptures"],
            source: ""),
        Mistake(
            what: "@Injected in a Sendable class", page: "Docs/Concurrency.md",
            quoted: ["error: stored property '_reviews' of 'Sendable'-conforming class 'BookDetailScreen' is mutable"],
            outcome: .fails,
            source: """
                protocol ReviewService: Sendable {}
                protocol BookDetailService: Sendable {}
                final class BookDetailScreen: BookDetailService {
                    @Injected var reviews: any ReviewService
                }
                """),
        Mistake(
            what: "a class that is not Sendable registered as a singleton", page: "Docs/Scopes.md",
            quoted: [], outcome: .compilesCleanly,
            source: """
                final class Counter {
                    var count = 0
                }
                func example(registry: ServiceRegistry) throws {
                    registry.register(Counter.self, scope: .singleton) { _ in Counter() }
                    let counter = try registry.resolve(Counter.self)
                    counter.count += 1
                }
                """),
    ]

    @Test(arguments: mistakes)
    func theCompilerSaysWhatThePageQuotes(_ mistake: Mistake) throws {
        if let page = mistake.page {
            let text = Self.collapsingWhitespace(try MirrorCoverageTests.read(page))
            for quote in mistake.quoted {
                let quotedOnPage = text.contains(quote)  // not in the #expect, which would print the page
                #expect(quotedOnPage, "\(page) no longer quotes \"\(quote)\"; update this test with the page")
            }
        }
        let result = try Self.compile(mistake.source, flags: mistake.flags)
        let lines = result.output.split(separator: "\n")
        let said = "the compiler said (status \(result.status)):\n\(result.output)"
        switch mistake.outcome {
        case .fails:
            #expect(!result.crashed && result.status != 0, "expected it not to compile; \(said)")
        case .warns, .compilesCleanly:
            #expect(!result.crashed && result.status == 0, "expected it to compile; \(said)")
        case .crashes:
            #expect(result.crashed, "expected the compiler to crash; \(said)")
        }
        if case .compilesCleanly = mistake.outcome {
            #expect(!lines.contains { $0.contains("warning:") }, "expected no warning; \(said)")
        }
        for quote in mistake.quoted + mistake.says {
            #expect(lines.contains { Self.line($0, matches: quote) }, "expected \"\(quote)\"; \(said)")
        }
        // What the unavailable overloads are for (Design.md), and what the page promises of
        // every other mistake.
        if !mistake.quoted.contains(Self.noDiagnostic) {
            #expect(!result.output.contains(Self.noDiagnostic), "\(said)")
        }
    }

    /// Every diagnostic a page quotes in a ```text block (a line starting `error:` or
    /// `warning:`) is one of ``mistakes``.
    @Test func everyQuotedDiagnosticIsChecked() throws {
        let checked = Set(Self.mistakes.flatMap(\.quoted))
        var found = 0
        for page in MirrorCoverageTests.mirrors.map(\.page) {
            let blocks = MirrorCoverageTests.blocks(in: try MirrorCoverageTests.read(page), language: "text")
            for line in blocks.joined().map({ $0.trimmingCharacters(in: .whitespaces) })
            where line.hasPrefix("error: ") || line.hasPrefix("warning: ") {
                found += 1
                let isChecked = checked.contains(line)
                #expect(isChecked, "\(page) quotes a diagnostic no mistake here checks: \(line)")
            }
        }
        #expect(found >= 5, "found the quoted diagnostics")
    }

    /// A quote's `...` matches any text within the line.
    @Test func aQuoteMatchesALineWithItsElisionsFilledIn() {
        let quote = "converting '@MainActor () -> ...' to '() -> ...' loses 'MainActor'"
        let diagnostic = "x.swift:3:9: error: converting '@MainActor () -> Int' to '() -> Int' loses 'MainActor'"
        #expect(Self.line(diagnostic[...], matches: quote))
        #expect(!Self.line("error: converting '@MainActor () -> Int' to '() -> Int' keeps 'MainActor'", matches: quote))
        #expect(!Self.line("to '() -> Int' loses 'MainActor' converting '@MainActor () -> Int'", matches: quote))
    }

    /// A factory of `Int` in which `code` captures its resolver `r`, as `parameter` names it.
    static func factory(capturingR code: String, parameter: String = "r") -> String {
        """
        func example(registry: ServiceRegistry) {
            registry.register(Int.self) { \(parameter) in
                \(code)
                return 42
            }
        }
        """
    }

    /// A factory of a main-actor class, its closure marked with `attributes`.
    static func mainActorClassFactory(attributes: String) -> String {
        """
        protocol ReviewService: Sendable {}
        @MainActor final class ShelfViewModel {
            init(reviews: any ReviewService) {}
        }
        func example(registry: ServiceRegistry) {
            registry.register(ShelfViewModel.self) { \(attributes)r in ShelfViewModel(reviews: try r.resolve()) }
        }
        """
    }

    static let laterSendable = #"let later: @Sendable () throws -> Int = { try r.resolve(Int.self, name: "later") }; _ = later"#
    static let laterNotSendable = #"let later: () throws -> Int = { try r.resolve(Int.self, name: "later") }; _ = later"#
    static let task = #"Task { _ = try r.resolve(Int.self, name: "later") }"#

    /// Swift's answer where its type checker finds no diagnostic to give.
    static let noDiagnostic = "failed to produce diagnostic for expression"

    // MARK: - Compiling

    /// Whether `line` holds the pieces of `quote` between its `...`s, in order.
    static func line(_ line: Substring, matches quote: String) -> Bool {
        var rest = line[...]
        for piece in quote.components(separatedBy: "...") {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The modules SwiftPM built for this test run, beside the test product.
    static let modules: URL? = Bundle.main.executableURL.map {
        $0.deletingLastPathComponent().appendingPathComponent("Modules")
    }.flatMap {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("ServiceRegistry.swiftmodule").path) ? $0 : nil
    }

    /// Compiles `source` after `import ServiceRegistry`, through SIL's mandatory passes
    /// (where the move-only checks run), in the Swift 6 language mode unless `flags` say
    /// otherwise; what the compiler printed, its status, and whether it crashed.
    static func compile(_ source: String, flags: [String]) throws -> (output: String, status: Int32, crashed: Bool) {
        let modules = try #require(Self.modules, "no ServiceRegistry module beside the test product")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("diagnostics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Snippet.swift")
        try ("import ServiceRegistry\n" + source + "\n").write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let languageMode = flags.contains("-swift-version") ? [] : ["-swift-version", "6"]
        let compiler = ["swiftc", "-emit-sil", "-o", "/dev/null", "-parse-as-library", "-module-name", "Snippet"]
        process.arguments = compiler + ["-I", modules.path] + languageMode + flags + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A compiler that hangs fails the test rather than the run.
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if process.isRunning { process.terminate() } }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let crashed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV
        return (String(decoding: printed, as: UTF8.self), process.terminationStatus, crashed)
    }
}
#endif
