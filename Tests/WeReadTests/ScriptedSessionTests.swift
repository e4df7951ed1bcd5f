import ServiceRegistry
import Synchronization
import Testing
import WeReadInterfaces

@testable import weread

/// `weread` with no arguments, checked line by line against the transcript a newcomer
/// should see (timings masked, since they differ on every run).
@Suite struct ScriptedSessionTests {
    static let expected = [
        "WeRead — a scripted session on ServiceRegistry.",
        "Nothing is built until a screen needs it. After each step: what was built just now, what was reused.",
        "",
        "1. Launch",
        "   Installed 5 registrations from 5 components in # µs.",
        "   Instances alive: 0 — registering builds nothing.",
        "",
        "2. Open the shelf",
        "   │ Your shelf:",
        "   │   #42  The Hitchhiker's Guide to the Galaxy — Douglas Adams (1979) · page 88 of 224",
        "   │   #52  The Three-Body Problem — Liu Cixin (2008) · page 120 of 400",
        "   │   #33  The Hobbit — J. R. R. Tolkien (1937) · finished",
        "   │   #7   Crime and Punishment — Fyodor Dostoevsky (1866) · not started",
        "   Built just now: BookshelfService and CatalogService (# µs)",
        "   Reused: none",
        "   CatalogService is a singleton: built on first use, now kept for everyone.",
        "",
        "3. Open book 42's detail",
        "   │ The Hitchhiker's Guide to the Galaxy",
        "   │ Douglas Adams · 1979 · 224 pages",
        "   │ 4.0★ from 3 reviews",
        "   │   ★★★★★ Arthur D.: “Don't panic: funniest book I own, and the towel advice is sound.”",
        "   │   ★★★★☆ Trillian: “Silly in the best way; the whale's monologue is perfect.”",
        "   Built just now: BookDetailService and ReviewService (# µs)",
        "   Reused: CatalogService",
        "   The detail screen is transient, built for the book id given at resolve time; it pulled in reviews.",
        "",
        "4. Start reading",
        "   │ The Hitchhiker's Guide to the Galaxy, page 89 of 224 — about 3 h 24 min left at your pace.",
        "   │ Progress bar shares the open reader: yes.",
        "   Built just now: ReadingService (# µs)",
        "   Reused: ReadingService, CatalogService and BookshelfService",
        "   The reader is weak: shared while the reading screen holds it.",
        "",
        "5. Close the book",
        "   Instances alive: 3 — CatalogService, BookshelfService and ReviewService.",
        "   The singletons stay; the transient detail screen and the weak reader are gone.",
    ]

    /// Replaces each number directly before ` µs` with `#`.
    static func maskingTimings(_ line: String) -> String {
        var result = ""
        var index = line.startIndex
        while index < line.endIndex {
            guard line[index].isASCII, line[index].isNumber else {
                result.append(line[index])
                index = line.index(after: index)
                continue
            }
            var end = index
            while end < line.endIndex, line[end].isASCII, line[end].isNumber { end = line.index(after: end) }
            result += line[end...].hasPrefix(" µs") ? "#" : String(line[index..<end])
            index = end
        }
        return result
    }

    @Test func playsTheExpectedTranscriptLineByLine() throws {
        let actual = try ScriptedSession().run().map(Self.maskingTimings)
        for (index, (line, expectedLine)) in zip(actual, Self.expected).enumerated() {
            #expect(line == expectedLine, "transcript line \(index + 1)")
        }
        #expect(actual.count == Self.expected.count, "the transcript has \(actual.count) lines:\n\(actual.joined(separator: "\n"))")
    }

    /// Every build an observer of the session's registry hears of is one the transcript
    /// lists as built just now: launching builds nothing there (counting the registrations,
    /// after the last step, draws the graph, whose isolated builds observers do not hear of).
    @Test func everyBuildOnTheSessionsRegistryIsOneTheTranscriptShows() throws {
        let (transcript, builds) = try Self.runWatchingTheSessionsRegistry(for: .built)
        let listed = transcript.filter { $0.hasPrefix("   Built just now: ") }.flatMap { line in
            line.dropFirst("   Built just now: ".count).prefix { $0 != "(" }
                .split(whereSeparator: { ", ".contains($0) }).filter { $0 != "and" }.map(String.init)
        }
        #expect(builds.sorted() == listed.sorted())
    }

    /// "Nothing is built until a screen needs it": no factory runs before the step whose
    /// screen resolves it. Counting the registrations for the launch line draws the
    /// dependency graph, which runs every factory once (in isolation, unheard by
    /// observers), so it must happen only after the last step: before the shelf, the first
    /// screen, nothing is built, not even a service no screen uses.
    @Test func noFactoryRunsBeforeTheStepThatNeedsIt() throws {
        struct Unused: Sendable {}
        let log = Mutex<[String]>([])
        let session = ScriptedSession(install: { registry in
            registry.addResolutionObserver { event in
                if event.outcome == .built { log.withLock { $0.append(event.serviceType) } }
            }
            WeReadApp.install(into: registry)
            registry.register(Unused.self) { _ in
                log.withLock { $0.append("Unused") }
                return Unused()
            }
        })
        _ = try session.run()
        let order = log.withLock { $0 }
        #expect(order.contains("BookshelfService"))
        // Everything built before the first screen's own service: nothing at all.
        let beforeTheShelf = order.prefix { $0 != "BookshelfService" && $0 != "CatalogService" }
        #expect(beforeTheShelf.isEmpty, "factories ran at launch, before any screen needed them: \(order)")
    }

    /// Every cached instance handed out again on the session's registry is one the
    /// transcript lists as reused, even when the same step built it first (the progress
    /// bar's reader is the one the reading screen's resolve built).
    @Test func everyReuseOnTheSessionsRegistryIsOneTheTranscriptShows() throws {
        let (transcript, reuses) = try Self.runWatchingTheSessionsRegistry(for: .reused)
        let listed = transcript.filter { $0.hasPrefix("   Reused: ") }.flatMap { line in
            line.dropFirst("   Reused: ".count)
                .split(whereSeparator: { ", ".contains($0) }).filter { $0 != "and" && $0 != "none" }.map(String.init)
        }
        #expect(Set(reuses) == Set(listed))
        #expect(reuses.contains("ReadingService"))
    }

    /// Runs the session, watching the registry it launches for events with `outcome`.
    private static func runWatchingTheSessionsRegistry(
        for outcome: ResolutionEvent.Outcome
    ) throws -> (transcript: [String], services: [String]) {
        let services = Mutex<[String]>([])
        let session = ScriptedSession(install: { registry in
            registry.addResolutionObserver { event in
                if event.outcome == outcome { services.withLock { $0.append(event.serviceType) } }
            }
            WeReadApp.install(into: registry)
        })
        let transcript = try session.run()
        return (transcript, services.withLock { $0 })
    }

    /// The launch's "Instances alive" is observed like every other step: an assembly that
    /// built something while installing shows, on a line of its own, instead of the line
    /// claiming nothing was; a weak reader built and let go while installing is not
    /// counted as alive.
    @Test(arguments: [
        (CatalogService.self as Any.Type, [
            "   Instances alive: 1 — CatalogService.",
            "   Installing built CatalogService: an assembly resolved while installing.",
        ]),
        (ReadingService.self, [
            "   Instances alive: 2 — CatalogService and BookshelfService.",
            "   Installing built ReadingService, CatalogService and BookshelfService: an assembly resolved while installing.",
        ]),
    ])
    func launchShowsWhatInstallingBuilt(resolvedWhileInstalling service: Any.Type, expected: [String]) throws {
        let session = ScriptedSession(install: { registry in
            WeReadApp.install(into: registry)
            if service == ReadingService.self {
                _ = try? registry.resolve(ReadingService.self)
            } else {
                _ = try? registry.resolve(CatalogService.self)
            }
        })
        let transcript = try session.run()
        let launch = try #require(transcript.firstIndex { $0.hasPrefix("   Instances alive:") })
        #expect(Array(transcript[launch...].prefix(2)) == expected)
    }

    @Test func aSessionOnAWronglyWiredRegistryFailsAsSuch() {
        let result = WeReadCommandLine.run([], install: { _ in })
        #expect(result.exitCode == .software)
        #expect(result.errorOutput.hasPrefix("weread: the scripted session failed; the app is wired wrong."))
    }

    @Test func theCommandWithNoArgumentsPrintsTheSessionAndSucceeds() {
        let result = WeReadCommandLine.run([])
        #expect(result.exitCode == .success)
        #expect(result.errorOutput.isEmpty)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The output ends with a newline, so the last element is empty.
        #expect(lines.dropLast().map(Self.maskingTimings) == Self.expected)
    }

    @Test(arguments: [
        ("in 17 µs.", "in # µs."),
        ("(140 µs)", "(# µs)"),
        ("page 88 of 224", "page 88 of 224"),
        ("3 h 24 min", "3 h 24 min"),
    ])
    func maskingHidesOnlyTimings(line: String, masked: String) {
        #expect(Self.maskingTimings(line) == masked)
    }
}
