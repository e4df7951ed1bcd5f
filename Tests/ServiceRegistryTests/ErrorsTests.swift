import ServiceRegistry
import ServiceRegistryTestComponent
import Testing
import ThreadTestSupport

/// Resolves and returns the thrown error, failing the test if nothing is thrown.
func resolutionError(_ body: () throws -> Void) throws -> ResolutionError {
    do {
        try body()
    } catch let error as ResolutionError {
        return error
    } catch {
        Issue.record("expected a ResolutionError, got \(error)")
        throw error
    }
    Issue.record("expected a ResolutionError")
    throw FactoryError(message: "no error thrown")
}

/// An error a factory throws, as many apps write them: an enum without a description.
enum ReviewFetchFailure: Error {
    case offline
    case timedOut(seconds: Int)
}

/// An error enum that describes itself for debugging only, as `String(describing:)` then shows.
private enum DebugDescribedFailure: Error, CustomDebugStringConvertible {
    case offline

    var debugDescription: String { "the review server is offline" }
}

@Suite("Errors")
struct ErrorsTests {
    @Test func notRegisteredNamesTheTypePathAndFix() throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .notRegistered)
        #expect(error.serviceType == "ReviewService")
        #expect(error.path == ["ReadingService", "BookDetailService", "ReviewService"])
        #expect(error.description.contains("ReadingService → BookDetailService → ReviewService"))
        #expect(error.description.contains("register `ReviewService`"))
        #expect(error.description.contains("withOverrides"))
    }

    /// The text ``ResolutionError``'s doc comment shows, line for line (it wraps the fix).
    @Test func notRegisteredDescriptionIsWhatTheDocCommentShows() throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReviewService.self, name: "offline") { _ in ReviewServiceImpl() }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.description == """
            ServiceRegistry could not resolve `ReviewService`: nothing is registered for it.
              Resolution path: ReadingService → BookDetailService → ReviewService
              Registered for this type: ReviewService (name: "offline")
              Fix: register `ReviewService` (e.g. in its component's ServiceAssembly) with \
            registry.register(ReviewService.self) { r in ... }, or override it in the test \
            with withOverrides. If you meant one of the registrations above, resolve it with \
            that name or argument.
            """)
    }

    @Test func notRegisteredListsLookAlikeRegistrations() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "offline") { _ in ReviewServiceImpl() }
        registry.register(ReviewService.self) { (_, id: Int) in ReviewServiceImpl(source: "\(id)") }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "online") }
        #expect(error.reason == .notRegistered)
        #expect(error.name == "online")
        #expect(error.similarRegistrations.contains("ReviewService (name: \"offline\")"))
        #expect(error.similarRegistrations.contains("ReviewService with argument `Int`"))
        #expect(error.description.contains("ReviewService (name: \"offline\")"))
    }

    /// A message with both a note and registrations that look like what was meant puts
    /// the note first, each on a line of its own between the path and the fix.
    @Test func theNoteComesBeforeTheRegistrationsListedForTheType() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "offline") { _ in ReviewServiceImpl() }
        // Overriding another registry: this registry's miss gets a note saying so.
        let error = try #require(throws: ResolutionError.self) {
            try ServiceRegistry().withOverrides {
                $0.register(ReviewService.self) { _ in ReviewServiceImpl(source: "mock") }
            } operation: {
                try registry.resolve(ReviewService.self)
            }
        }
        #expect(error.reason == .notRegistered)
        let note = try #require(error.note)
        #expect(
            error.description.contains(
                "\n  \(note)\n  Registered for this type: ReviewService (name: \"offline\")\n  Fix: "),
            "\(error)")
    }

    /// Asked with an argument nothing is registered to take, the message names its type:
    /// the fix's closure takes that type, and the reader sees why it did not match.
    @Test func notRegisteredWithAnArgumentNamesTheArgumentsType() throws {
        let registry = ServiceRegistry()
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: "42") }
        #expect(error.reason == .notRegistered)
        #expect(error.description.hasPrefix(
            "ServiceRegistry could not resolve `BookScreen`: nothing is registered for it "
                + "taking an argument of type `String`.\n"))
    }

    /// The table keeps registrations in hash order; the listing is sorted, so the text reads
    /// the same in every run and for every order of registering.
    @Test func lookAlikeRegistrationsAreListedInOrder() throws {
        let registry = ServiceRegistry()
        let names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
        for name in names.reversed() {
            registry.register(ReviewService.self, name: name) { _ in ReviewServiceImpl() }
        }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "golf") }
        #expect(error.similarRegistrations == names.map { "ReviewService (name: \"\($0)\")" })
    }

    @Test(arguments: [
        "off\u{200B}line", "off\u{A0}line", "\u{FEFF}offline", "offline\u{2028}", "off\u{2800}line",
        "off\u{E000}line", "off\u{378}line",  // a private-use and an unassigned code point
    ])
    func namesThatDifferOnlyInInvisibleCharactersLookDifferent(registered: String) throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: registered) { _ in ReviewServiceImpl() }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "offline") }
        #expect(error.reason == .notRegistered)
        // Swift calls these names different from "offline", so the listing must show how.
        let listed = try #require(error.similarRegistrations.first)
        #expect(listed != "ReviewService (name: \"offline\")")
        #expect(listed.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(error.description.contains(listed))
    }

    /// A tab or a carriage return in a name is quoted as Swift writes it, so the message
    /// shows the name as code spells it and stays on its line.
    @Test func aNameWithATabOrACarriageReturnIsQuotedAsSwiftWritesIt() throws {
        let registry = ServiceRegistry()
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "off\tline\r") }
        #expect(error.description.hasPrefix(#"ServiceRegistry could not resolve `ReviewService (name: "off\tline\r")`: "#))
    }

    @Test func argumentMismatchNamesBothArgumentTypes() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, id: String) in BookScreenImpl(bookId: id) }
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: 42) }
        #expect(error.reason == .argumentMismatch)
        #expect(error.givenArgumentType == "Int")
        #expect(error.registeredArgumentTypes == ["String"])
        #expect(error.description.contains("`Int`"))
        #expect(error.description.contains("`String`"))
    }

    /// Two components' `Config`, one given and one registered: the error names each with
    /// its module, where "asked with `Config`, registered with `Config`" would say nothing.
    @Test func argumentTypesOfOneShortNameAreNamedWithTheirModules() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, _: ServiceRegistryTestComponent.Config) in
            BookScreenImpl(bookId: "1")
        }
        let mismatch = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: Config()) }
        #expect(mismatch.reason == .argumentMismatch)
        #expect(mismatch.givenArgumentType == "ServiceRegistryTests.Config")
        #expect(mismatch.registeredArgumentTypes == ["ServiceRegistryTestComponent.Config"])
        #expect(
            mismatch.description.contains(
                "it was asked with an argument of type `ServiceRegistryTests.Config`, but it is registered with "
                    + "`ServiceRegistryTestComponent.Config`."))

        let missing = try resolutionError {
            _ = try registry.resolve(BookScreen.self, name: "compact", argument: Config())
        }
        #expect(missing.reason == .notRegistered)
        #expect(missing.givenArgumentType == "ServiceRegistryTests.Config")
        #expect(missing.similarRegistrations == ["BookScreen with argument `ServiceRegistryTestComponent.Config`"])
    }

    /// Two local types of one name, declared in two functions: Swift tells them apart, but
    /// their names read the same even in full (the runtime names a local type without the
    /// function it is declared in), so "asked with `Page`, registered with `Page`" must say
    /// that these are two types.
    @Test func argumentTypesThatReadTheSameEvenInFullAreSaidToBeTwoTypes() throws {
        let registry = ServiceRegistry()
        LocalArguments.registerScreen(in: registry)
        let mismatch = try resolutionError { try LocalArguments.resolveScreen(from: registry) }
        #expect(mismatch.reason == .argumentMismatch)
        let given = try #require(mismatch.givenArgumentType)
        #expect(mismatch.registeredArgumentTypes == [given])
        #expect(
            mismatch.note
                == "`\(given)` names two types here, the argument's and the one a factory takes: local types of "
                + "one name, declared in different functions, read the same. A registration is found by the exact "
                + "argument type: pass a value of the type the factory was registered with.")
    }

    /// A `Config` whose factory resolves another component's `Config`: the path and the
    /// fix name each with its module, where `Config → Config` would read as a cycle and
    /// `register(Config.self)` would name the `Config` that is registered already.
    @Test func serviceTypesOfOneShortNameOnAPathAreNamedWithTheirModules() throws {
        let registry = ServiceRegistry()
        registry.register(Config.self) { r in
            _ = try r.resolve(ServiceRegistryTestComponent.Config.self)
            return Config()
        }
        let missing = try resolutionError { _ = try registry.resolve(Config.self) }
        #expect(missing.reason == .notRegistered)
        #expect(missing.serviceType == "ServiceRegistryTestComponent.Config")
        #expect(missing.path == ["ServiceRegistryTests.Config", "ServiceRegistryTestComponent.Config"])
        #expect(
            missing.description == """
                ServiceRegistry could not resolve `ServiceRegistryTestComponent.Config`: nothing is registered for it.
                  Resolution path: ServiceRegistryTests.Config → ServiceRegistryTestComponent.Config
                  Fix: register `ServiceRegistryTestComponent.Config` (e.g. in its component's ServiceAssembly) with \
                registry.register(ServiceRegistryTestComponent.Config.self) { r in ... }, or override it in the test \
                with withOverrides.
                """)

        registry.register(ServiceRegistryTestComponent.Config.self) { _ in throw FactoryError(message: "no file") }
        let failed = try resolutionError { _ = try registry.resolve(Config.self) }
        #expect(failed.reason == .factoryFailed)
        #expect(failed.serviceType == "ServiceRegistryTestComponent.Config")
        #expect(failed.path == ["ServiceRegistryTests.Config", "ServiceRegistryTestComponent.Config"])

        // One type met twice, as in a cycle, keeps its short name.
        registry.register(Config.self) { r in try r.resolve(Config.self) }
        let cycle = try resolutionError { _ = try registry.resolve(Config.self) }
        #expect(cycle.path == ["Config", "Config"])
    }

    /// A local `Page` whose factory resolves another function's local `Page`: the two read
    /// the same even in full, so the path reads as a cycle and the fix names a type that is
    /// registered already, unless the error says that the name stands for two types.
    @Test func serviceTypesThatReadTheSameEvenInFullOnAPathAreSaidToBeTwoTypes() throws {
        let registry = ServiceRegistry()
        let resolvePage = LocalServices.registerPage(in: registry)
        let missing = try resolutionError { try resolvePage() }
        #expect(missing.reason == .notRegistered)
        #expect(missing.path.count == 2)
        #expect(missing.path.first == missing.serviceType)
        #expect(
            missing.note
                == "`\(missing.serviceType)` names two types on this path: local types of one name, declared in "
                + "different functions, read the same.")
    }

    @Test func argumentMismatchListsTheRegisteredArgumentTypesInOneOrder() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, id: String) in BookScreenImpl(bookId: id) }
        registry.register(BookScreen.self) { (_, id: Int) in BookScreenImpl(bookId: "\(id)") }
        registry.register(BookScreen.self) { (_, id: Double) in BookScreenImpl(bookId: "\(id)") }
        registry.register(BookScreen.self) { (_, id: Bool) in BookScreenImpl(bookId: "\(id)") }
        registry.register(BookScreen.self) { (_, args: (String, Int)) in BookScreenImpl(bookId: args.0, page: args.1) }
        registry.register(BookScreen.self) { _ in BookScreenImpl(bookId: "none") }
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: Float(1)) }
        #expect(error.reason == .argumentMismatch)
        // No argument first, then by name: the text, and the fix it suggests, are the same
        // from run to run (the table's order depends on where the runtime put the types).
        #expect(error.registeredArgumentTypes == [nil, "(String, Int)", "Bool", "Double", "Int", "String"])
        #expect(error.description.contains("Fix: resolve it without an argument"))
    }

    /// Registrations of one type and name share a slot in the table and sit in the order
    /// they were registered (or the reverse, when the probe wraps round), so this registers
    /// the two both ways round: the no-argument one comes first in the error whichever the
    /// table holds first.
    @Test func argumentMismatchListsTheNoArgumentRegistrationFirstWhicheverWasRegisteredFirst() throws {
        for noArgumentFirst in [true, false] {
            let registry = ServiceRegistry()
            let registrations: [() -> Void] = [
                { registry.register(BookScreen.self) { _ in BookScreenImpl(bookId: "none") } },
                { registry.register(BookScreen.self) { (_, page: Int) in BookScreenImpl(bookId: "", page: page) } },
            ]
            for register in noArgumentFirst ? registrations : registrations.reversed() { register() }
            let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: "42") }
            #expect(error.reason == .argumentMismatch)
            #expect(error.registeredArgumentTypes == [nil, "Int"], "no-argument one registered first: \(noArgumentFirst)")
        }
    }

    /// A registration is found by the exact argument type: a value whose type only
    /// converts to the registered one (a protocol's conforming type, an optional's wrapped
    /// type) misses it. The error says so, and its way to pass the value works.
    @Test func argumentThatOnlyConvertsToTheRegisteredTypeIsToldToPassItAsThatType() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, clock: any Clock) in BookScreenImpl(bookId: "\(clock.now)") }
        registry.register(BookScreen.self, name: "maybe") { (_, id: String?) in BookScreenImpl(bookId: id ?? "none") }
        let clock = FixedClock(now: 7)
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: clock) }
        #expect(
            error.note == "The argument's type `FixedClock` converts to `Clock`, but a registration is found by the "
                + "exact argument type: pass it as `Clock` (argument: value as Clock).")
        #expect(error.description.contains("\n  " + (error.note ?? "-") + "\n  Fix: "))
        #expect(try registry.resolve(BookScreen.self, argument: clock as Clock).bookId == "7")

        let optional = try resolutionError { _ = try registry.resolve(BookScreen.self, name: "maybe", argument: "42") }
        #expect(optional.note?.contains("pass it as `Optional<String>` (argument: value as Optional<String>)") == true)
        #expect(try registry.resolve(BookScreen.self, name: "maybe", argument: "42" as Optional<String>).bookId == "42")

        // Neither an argument of an unrelated type nor one that would need a downcast or an
        // unwrap gets the note.
        let unrelated = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: 42) }
        #expect(unrelated.note == nil)
        registry.register(BookScreen.self, name: "fixed") { (_, clock: FixedClock) in BookScreenImpl(bookId: "\(clock.now)") }
        let downcast = try resolutionError {
            _ = try registry.resolve(BookScreen.self, name: "fixed", argument: clock as any Clock)
        }
        #expect(downcast.note == nil)
        registry.register(BookScreen.self, name: "plain") { (_, id: String) in BookScreenImpl(bookId: id) }
        let unwrap = try resolutionError {
            _ = try registry.resolve(BookScreen.self, name: "plain", argument: "42" as String?)
        }
        #expect(unwrap.note == nil)
    }

    /// An argument that converts to the argument types of two registrations is told to pass
    /// itself as the one the fix names, whichever was registered first: the note took the
    /// first in the registration table, whose order follows where the runtime put the types
    /// (and here the order of registering), while the fix names the first by name.
    @Test(arguments: [false, true])
    func argumentConvertingToTwoRegisteredTypesIsToldTheOneTheFixNames(timedFirst: Bool) throws {
        let registry = ServiceRegistry()
        let registrations = [
            { registry.register(BookScreen.self) { (_, _: any Dated) in BookScreenImpl(bookId: "dated") } },
            { registry.register(BookScreen.self) { (_, _: any Timed) in BookScreenImpl(bookId: "timed") } },
        ]
        for register in timedFirst ? registrations.reversed() : registrations { register() }
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: Stamp()) }
        #expect(error.registeredArgumentTypes == ["Dated", "Timed"])
        #expect(error.note?.contains("pass it as `Dated` (argument: value as Dated)") == true)
        #expect(error.description.contains("Fix: resolve it with an argument of type `Dated`"))
    }

    /// Every `resolve` is inlined where the app calls it, and moves a failed resolve's error
    /// on: one word to move, not a dozen fields, keeps that code small (the storage's
    /// comment in `ResolutionError` has the figures).
    @Test func aResolutionErrorIsOneReferenceWide() {
        #expect(MemoryLayout<ResolutionError>.size == MemoryLayout<AnyObject>.size)
    }

    /// `{ r, id in ... }` with `id` used only in an interpolation takes an `Any.Type` (what
    /// Swift infers for it there): the error says how that happens and how to write it.
    @Test func aFactoryTakingAnInferredMetatypeIsToldToWriteItsArgumentsType() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { r, id in BookScreenImpl(bookId: "\(id)") }
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: "42") }
        #expect(error.reason == .argumentMismatch)
        #expect(error.registeredArgumentTypes == ["Any.Type"])
        #expect(
            error.note == "A factory that takes an `Any.Type` is usually one whose argument parameter is written "
                + "without its type, as in `{ r, id in ... }`, and used only in a string interpolation: Swift then "
                + "infers `Any.Type`. Write the type, as in `{ (r, id: String) in ... }`.")
        // The fix is the same, not a resolve with a metatype.
        #expect(
            error.description.contains(
                "  Fix: write the type of the factory's argument, as in `{ (r, id: String) in ... }`, so that it takes "
                    + "an argument of type `String`."),
            "\(error)")

        // A factory written with another argument type gets no such note.
        registry.register(BookScreen.self, name: "typed") { (_, id: Int) in BookScreenImpl(bookId: "\(id)") }
        let typed = try resolutionError { _ = try registry.resolve(BookScreen.self, name: "typed", argument: "42") }
        #expect(typed.note == nil)

        // The advice to write the argument's type is for a lone `Any.Type` registration:
        // beside one with another argument type, the `Any.Type` one may be meant, and the
        // fix names the registered type as for any mismatch.
        registry.register(BookScreen.self) { (_, id: Int) in BookScreenImpl(bookId: "\(id)") }
        let beside = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: "42") }
        #expect(beside.registeredArgumentTypes == ["Any.Type", "Int"])
        #expect(
            beside.description.hasSuffix(
                "\n  Fix: resolve it with an argument of type `Any.Type`: registry.resolve(BookScreen.self, argument: ...), "
                    + "or register a factory that takes an argument of type `String`."),
            "\(beside)")
    }

    /// A tuple may hold an existential (`(any Clock, Int)`) that casts to the registered
    /// tuple's element only by a downcast: no note suggests one.
    @Test func tupleArgumentThatWouldNeedADowncastGetsNoConversionNote() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, args: (FixedClock, Int)) in BookScreenImpl(bookId: "\(args.0.now)") }
        let clock: any Clock = FixedClock(now: 7)
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: (clock, 1)) }
        #expect(error.reason == .argumentMismatch)
        #expect(error.note == nil)
    }

    @Test func resolvingWithoutTheArgumentIsAnArgumentMismatch() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { (_, id: String) in BookScreenImpl(bookId: id) }
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self) }
        #expect(error.reason == .argumentMismatch)
        #expect(error.givenArgumentType == nil)
        #expect(error.description.contains("no argument"))

        // With several argument types registered, the first line names each, each with its
        // own "with".
        registry.register(BookScreen.self) { (_, id: Int) in BookScreenImpl(bookId: "\(id)") }
        let twoTypes = try resolutionError { _ = try registry.resolve(BookScreen.self) }
        #expect(
            twoTypes.description.hasPrefix(
                "ServiceRegistry could not resolve `BookScreen`: it was asked with no argument, "
                    + "but it is registered with `Int` and with `String`.\n"),
            "\(twoTypes)")
    }

    @Test func argumentGivenToAFactoryWithoutOneIsAnArgumentMismatch() throws {
        let registry = ServiceRegistry()
        registry.register(BookScreen.self) { _ in BookScreenImpl(bookId: "x") }
        let error = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: "42") }
        #expect(error.reason == .argumentMismatch)
        #expect(error.registeredArgumentTypes == [nil])

        // For a named one, the fix's resolve keeps the name, or it would resolve another
        // registration.
        registry.register(BookScreen.self, name: "compact") { _ in BookScreenImpl(bookId: "x") }
        let named = try resolutionError { _ = try registry.resolve(BookScreen.self, name: "compact", argument: "42") }
        #expect(
            named.description.hasSuffix(
                "\n  Fix: resolve it without an argument: registry.resolve(BookScreen.self, name: \"compact\"), "
                    + "or register a factory that takes an argument of type `String`."),
            "\(named)")
    }

    @Test func selfDependencyIsACycle() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { r in try r.resolve(ReviewService.self) }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReviewService", "ReviewService"])
    }

    /// A factory that resolves its own service has no other service on the loop to resolve
    /// later: the fix speaks of that one factory, and its code compiles as written.
    @Test func selfDependencyFixSpeaksOfTheOneFactory() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "cached") { r in try r.resolve(ReviewService.self, name: "cached") }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "cached") }
        let fix = String(error.description.split(separator: "\n").last ?? "")
        #expect(
            fix == "  Fix: the factory of `ReviewService (name: \"cached\")` resolves `ReviewService (name: \"cached\")` "
                + "itself: build what it needs without resolving its own service, or, to wrap another implementation "
                + "of it, register that one under a name of its own and resolve it by that name "
                + "(r.resolve(ReviewService.self, name: \"base\")).")

        // A factory taking an argument is shown resolving the other one with an argument.
        registry.register(BookScreen.self) { (r, id: String) in try r.resolve(BookScreen.self, argument: id) }
        let withArgument = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: "42") }
        #expect(withArgument.description.hasSuffix("(r.resolve(BookScreen.self, name: \"base\", argument: ...))."))
    }

    @Test(arguments: [Scope.transient, .singleton, .weak, .graph])
    func longerCycleIsReportedWithItsPath(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self, scope: scope) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self, scope: scope) { r in
            _ = try r.resolve(ReadingService.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReadingService", "BookDetailService", "ReadingService"])
        #expect(error.description.contains("ReadingService → BookDetailService → ReadingService"))
        #expect(error.description.contains("\n  Fix: break the cycle: let one of these services resolve the other later"))
    }

    @Test func singletonResolvingItselfThroughTheRegistryIsACycleNotADeadlock() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: .singleton) { [registry] _ in
            try registry.resolve(ReviewService.self)
        }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReviewService", "ReviewService"])
        #expect(error.note?.contains("resolves through the registry instead of its resolver `r`") == true)
    }

    /// An override met again through the registry gets two notes, each a line of the
    /// description of its own, indented as the others are: first the one on the path,
    /// which may leave services out, then the one on the override.
    @Test func twoNotesAreTwoLinesOfTheDescription() throws {
        let registry = ServiceRegistry()
        let error = try registry.withOverrides {
            $0.register(ReviewService.self, scope: .singleton) { [registry] _ in try registry.resolve(ReviewService.self) }
        } operation: {
            try resolutionError { _ = try registry.resolve(ReviewService.self) }
        }
        #expect(error.reason == .circularDependency)
        let lines = error.description.split(separator: "\n")
        let pathNote = try #require(
            lines.firstIndex { $0.hasPrefix("  A factory on this path resolves through the registry instead of its resolver") })
        let overrideNote = try #require(
            lines.firstIndex { $0.hasPrefix("  `ReviewService` here is an override, met again while it is built") })
        #expect(pathNote < overrideNote)
    }

    @Test(arguments: [Scope.transient, .graph])
    func serviceResolvingItselfThroughTheRegistryIsACycleNotAStackOverflow(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, scope: scope) { [registry] _ in
            try registry.resolve(ReviewService.self)
        }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReviewService", "ReviewService"])
        #expect(error.description.contains("resolves through the registry instead of its resolver `r`"))
    }

    @Test func cycleThroughTheRegistryNamesEachServiceOnIt() throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self) { [registry] _ in ReadingServiceImpl(detail: try registry.resolve()) }
        registry.register(BookDetailService.self) { [registry] _ in
            _ = try registry.resolve(ReadingService.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReadingService", "BookDetailService", "ReadingService"])
    }

    /// Each level of such a cycle costs stack until it is caught; a debug build's frames
    /// are the largest, and Apple's secondary threads have 512 kB.
    @Test func cycleOfFiveThroughTheRegistryIsCaughtWithinASmallThreadStack() {
        let registry = ServiceRegistry()
        for index in 0..<5 {
            registry.register(ReviewService.self, name: "\(index)") { [registry] _ in
                try registry.resolve(ReviewService.self, name: "\((index + 1) % 5)")
            }
        }
        let path = Guarded<[String]>([])
        let finished = onThreads(1, stackSize: 512 << 10) { _ in
            let error = try? resolutionError { _ = try registry.resolve(ReviewService.self, name: "0") }
            path.withLock { $0 = error?.path ?? [] }
        }
        #expect(finished)
        #expect(path.withLock { $0 } == (0...5).map { "ReviewService (name: \"\($0 % 5)\")" })
    }

    /// The service resolved through `r` in between is left off the cycle's path; the cycle
    /// still reaches the caller as one, whatever the scope of the service it closes on.
    /// Met right below its own build, the service need not have been resolved by its own
    /// factory (here the factory of `BookDetailService` closes the loop), so the fix is the
    /// one for a loop, not the one for a factory resolving its own service.
    @Test(arguments: [Scope.transient, .graph, .singleton, .weak])
    func cycleMixingTheResolverAndTheRegistryIsACycle(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self, scope: scope) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self) { [registry] _ in
            _ = try registry.resolve(ReadingService.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .circularDependency)
        // The registry-direct resolve cannot see the resolver's frame for BookDetailService
        // in between, and the error says so.
        #expect(error.path == ["ReadingService", "ReadingService"])
        #expect(error.note?.contains("may leave out services in between") == true)
        #expect(error.description.contains("\n  Fix: break the cycle: let one of these services resolve the other later"))
    }

    /// A thrown error whose text ends its own sentence is not given a second full stop.
    @Test func factoryErrorEndingInAFullStopGetsNoSecond() throws {
        struct Outage: Error, CustomStringConvertible {
            var description: String { "The network is down." }
        }
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in throw Outage() }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        let firstLine = error.description.split(separator: "\n").first.map(String.init)
        #expect(firstLine == "ServiceRegistry could not resolve `ReviewService`: its factory threw The network is down.")
    }

    /// A thrown error whose text is empty or blank is named by its type: the first line
    /// read "its factory threw ." (or broke into blank lines), showing nothing of what the
    /// fix says it shows.
    @Test(arguments: ["", "  ", "\n"])
    func factoryErrorWithoutTextIsNamedByItsType(text: String) throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in throw FactoryFailureText(text: text) }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first == "ServiceRegistry could not resolve `ReviewService`: "
                + "its factory threw a `FactoryFailureText` with \(text.isEmpty ? "an empty" : "a blank") description.")
        #expect(lines.dropFirst().first == "  Resolution path: ReviewService")
        #expect(lines.last?.hasSuffix("shown on the first line (and kept in `underlyingError`).") == true)
    }

    /// An error enum without a description of its own prints as its bare case name
    /// (`offline`); the message names it as code does, with its type.
    @Test func factoryErrorThatIsABareEnumCaseIsNamedWithItsType() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in throw ReviewFetchFailure.offline }
        registry.register(Clock.self) { _ in throw ReviewFetchFailure.timedOut(seconds: 3) }
        let offline = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        let timedOut = try resolutionError { _ = try registry.resolve(Clock.self) }
        #expect(
            offline.description.split(separator: "\n").first
                == "ServiceRegistry could not resolve `ReviewService`: its factory threw ReviewFetchFailure.offline.")
        #expect(
            timedOut.description.split(separator: "\n").first
                == "ServiceRegistry could not resolve `Clock`: its factory threw ReviewFetchFailure.timedOut(seconds: 3).")
    }

    /// An error enum with a debug description of its own prints as that text, not as its
    /// bare case name: the message quotes it as it is, without its type put in front.
    @Test func factoryErrorThatIsAnEnumWithADebugDescriptionReadsAsThatDescription() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in throw DebugDescribedFailure.offline }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(
            error.description.split(separator: "\n").first
                == "ServiceRegistry could not resolve `ReviewService`: its factory threw the review server is offline.")
    }

    /// A bare enum case of an error type nested in another is named with both types.
    @Test func factoryErrorThatIsABareEnumCaseOfANestedTypeIsNamedWithItsOuterType() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in throw ReviewsComponent.Failure.offline }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(
            error.description.split(separator: "\n").first
                == "ServiceRegistry could not resolve `ReviewService`: its factory threw ReviewsComponent.Failure.offline.")
    }

    @Test func factoryErrorIsWrappedWithThePath() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
        registry.register(ReviewService.self) { _ in throw FactoryError(message: "no network") }
        let error = try resolutionError { _ = try registry.resolve(BookDetailService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.serviceType == "ReviewService")
        #expect(error.path == ["BookDetailService", "ReviewService"])
        #expect((error.underlyingError as? FactoryError)?.message == "no network")
        #expect(error.description.contains("no network"))
    }

    /// A cycle closed through the registry inside a shared build, across a service that
    /// resolves through the registry too: the path leaves that service out, but the cycle
    /// is still what the caller gets, not that service's failure, whichever end the loop
    /// is entered at (at the unshared service, the cycle is met inside the shared build,
    /// below the resolve that started there, and the unshared factory at the top, which the
    /// path does not name, is on the loop all the same).
    @Test(arguments: [Scope.singleton, .weak], [false, true])
    func cycleThroughTheRegistryAcrossAnUnsharedServiceIsACycle(scope: Scope, entersAtTheUnsharedService: Bool) throws {
        let registry = ServiceRegistry()
        registry.register(ReadingService.self, scope: scope) { [registry] _ in
            ReadingServiceImpl(detail: try registry.resolve())
        }
        registry.register(BookDetailService.self) { [registry] _ in
            _ = try registry.resolve(ReadingService.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        let error = try resolutionError {
            if entersAtTheUnsharedService {
                _ = try registry.resolve(BookDetailService.self)
            } else {
                _ = try registry.resolve(ReadingService.self)
            }
        }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReadingService", "ReadingService"])
    }

    /// A loop of `.transient` services through the registry, with one step through `r`:
    /// the path names only the services resolved through the registry, and the one
    /// resolved through `r` in between ("c") is on the loop all the same, at every level.
    @Test func cycleThroughTheRegistryWithAStepThroughTheResolverIsACycle() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "a") { [registry] _ in
            try registry.resolve(ReviewService.self, name: "b")
        }
        registry.register(ReviewService.self, name: "b") { r in try r.resolve(ReviewService.self, name: "c") }
        registry.register(ReviewService.self, name: "c") { [registry] _ in
            try registry.resolve(ReviewService.self, name: "a")
        }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "a") }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["a", "b", "a"].map { "ReviewService (name: \"\($0)\")" })
    }

    /// A cycle below a factory that is not on it, met in a resolve the factory made through
    /// the registry: still a cycle, not that factory's failure, so the caller learns what
    /// is wrong from the reason; the path shows the loop.
    @Test func cycleBelowAFactoryThatIsNotOnItIsACycle() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "top") { [registry] _ in
            try registry.resolve(ReviewService.self, name: "a")
        }
        registry.register(ReviewService.self, name: "a") { r in try r.resolve(ReviewService.self, name: "b") }
        registry.register(ReviewService.self, name: "b") { r in try r.resolve(ReviewService.self, name: "a") }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "top") }
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["a", "b", "a"].map { "ReviewService (name: \"\($0)\")" })
    }

    /// A factory that resolves through a registry it captured, not through `r`, starts a
    /// resolve of its own. In a `.transient` or `.graph` factory nothing links that resolve
    /// to the factory's service, so its error (whose path starts at the service asked for)
    /// is the factory's failure: `.factoryFailed`, with the path through the factory, and
    /// the registry's error as `underlyingError`.
    @Test(arguments: [Scope.transient, .graph])
    func registryErrorInAnUnsharedFactoryIsWrappedWithThePath(scope: Scope) throws {
        let registry = detailResolvingReviewsThroughTheRegistry(scope: scope)
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.serviceType == "BookDetailService")
        #expect(error.path == ["ReadingService", "BookDetailService"])
        let underlying = try #require(error.underlyingError as? ResolutionError)
        #expect(underlying.reason == .notRegistered)
        #expect(underlying.path == ["ReviewService"])
        #expect(error.description.contains("Resolution path: ReadingService → BookDetailService\n"))
    }

    /// The wrapped error's description has a path and a fix of its own: it goes below the
    /// first line, indented, so the only path and fix at the outer error's indentation are
    /// the outer error's, and the last line is still its fix.
    @Test func wrappedResolutionErrorIsShownBelowTheFirstLineIndented() throws {
        let registry = detailResolvingReviewsThroughTheRegistry(scope: .transient)
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        let underlying = try #require(error.underlyingError as? ResolutionError)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "ServiceRegistry could not resolve `BookDetailService`: its factory threw:")
        #expect(
            Array(lines.dropFirst().prefix(3))
                == underlying.description.split(separator: "\n").map { "    " + $0 })
        #expect(
            lines.filter { $0.hasPrefix("  Resolution path: ") }
                == ["  Resolution path: ReadingService → BookDetailService"])
        #expect(lines.filter { $0.hasPrefix("  Fix: ") }.count == 1)
        #expect(
            lines.last == "  Fix: the factory of `BookDetailService` failed; "
                + "fix what it threw, shown above (and kept in `underlyingError`).")
    }

    /// A thrown error's text that breaks its lines with a carriage return, CRLF (one
    /// `Character`, not `"\n"`) or a Unicode line break takes several lines as much as one
    /// that breaks them with `"\n"`: it goes below the first line, indented, so none of its
    /// lines reads as the message's own (here a second fix) and a carriage return cannot
    /// send the terminal back over the first line.
    @Test(arguments: ["\r\n", "\r", "\u{2028}", "\u{85}", "\u{0B}"])
    func factoryErrorBrokenByAnyLineBreakIsShownBelowTheFirstLineIndented(lineBreak: String) throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { _ in
            throw FactoryError(message: "no network\(lineBreak)  Fix: restart the router")
        }
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        let lines = error.description.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        #expect(lines.first == "ServiceRegistry could not resolve `ReviewService`: its factory threw:")
        #expect(Array(lines.dropFirst().prefix(2)) == ["    FactoryError(no network", "      Fix: restart the router)"])
        #expect(lines.filter { $0.hasPrefix("  Fix: ") }.count == 1)
        #expect(lines.last?.hasSuffix("shown above (and kept in `underlyingError`).") == true)
    }

    /// Inside a `.singleton` or `.weak` build, a resolve through the registry continues the
    /// build's path: its error names the path through the factory already, as one made
    /// through `r` would, and reaches the caller as it is.
    @Test(arguments: [Scope.singleton, .weak])
    func registryErrorInASharedBuildKeepsItsReasonAndItsPath(scope: Scope) throws {
        let registry = detailResolvingReviewsThroughTheRegistry(scope: scope)
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .notRegistered)
        #expect(error.path == ["ReadingService", "BookDetailService", "ReviewService"])
    }

    /// A `.transient` factory's failed resolve through the registry reads the same whether
    /// or not the registry traced that factory's resolve. It traces a top-level resolve of
    /// a registration once four others of it are in flight (here, the factory resolving
    /// its own service through the registry four levels deep; on other threads, just as
    /// well), and a traced resolve must not lend the factory's service to the paths of
    /// the resolves its factory makes: the failure would then read `.notRegistered`
    /// through the factory in one run and `.factoryFailed` in the next. Nor to the path a
    /// shared build it starts shows: a failure in that build's factory, which resolves
    /// through the registry, must read the same too.
    @Test(arguments: [1, 5], [false, true])
    func registryErrorInATracedUnsharedFactoryReadsAsAnUntracedOne(levels: Int, throughASingleton: Bool) throws {
        let registry = ServiceRegistry()
        let depth = Counter()
        // The singleton's build keeps a shared build running, which is when top-level
        // resolves look for the trace they run inside.
        registry.register(ReadingService.self, scope: .singleton) { [registry] _ in
            ReadingServiceImpl(detail: try registry.resolve())
        }
        registry.register(BookDetailService.self) { [registry] _ in
            if depth.increment() < levels { return try registry.resolve(BookDetailService.self) }
            if throughASingleton {
                _ = try registry.resolve(ReviewService.self)
            } else {
                _ = try registry.resolve(Clock.self)
            }
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        registry.register(ReviewService.self, scope: .singleton) { [registry] _ in
            _ = try registry.resolve(Clock.self)
            return ReviewServiceImpl()
        }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(depth.value == levels)
        #expect(error.reason == .factoryFailed)
        #expect(error.path == ["ReadingService", "BookDetailService"])
        let underlying = try #require(error.underlyingError as? ResolutionError)
        #expect(underlying.reason == .notRegistered)
        #expect(underlying.path == ["ReadingService"] + (throughASingleton ? ["ReviewService"] : []) + ["Clock"])
    }

    /// A cycle that runs through a traced `.transient` resolve, then a shared build, and
    /// back through `r` shows the traced service where the loop starts: a cycle's path
    /// comes from the trace's full path, not the one other errors show, or it would read
    /// as a path that never returns to the service it ends on. Back through the registry
    /// instead, the shared build's own trace holds the traced service, so the loop is
    /// caught as soon as it closes, with the same path.
    @Test(arguments: [false, true])
    func cycleThroughATracedTransientAndASharedBuildShowsTheLoop(backThroughTheRegistry: Bool) throws {
        let registry = ServiceRegistry()
        let depth = Counter()
        // The singleton's build keeps a shared build running, so that top-level resolves
        // look for the trace they run inside.
        registry.register(ReadingService.self, scope: .singleton) { [registry] _ in
            ReadingServiceImpl(detail: try registry.resolve())
        }
        // Resolves itself through the registry until four others of it are in flight, so
        // that the fifth is traced; that one resolves the shared ReviewService, whose
        // factory asks for BookDetailService again.
        registry.register(BookDetailService.self) { [registry] _ in
            if depth.increment() < 5 { return try registry.resolve(BookDetailService.self) }
            return BookDetailServiceImpl(reviews: try registry.resolve(ReviewService.self))
        }
        registry.register(ReviewService.self, scope: .singleton) { [registry] r in
            if backThroughTheRegistry {
                _ = try registry.resolve(BookDetailService.self)
            } else {
                _ = try r.resolve(BookDetailService.self)
            }
            return ReviewServiceImpl()
        }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(depth.value == 5)
        #expect(error.reason == .circularDependency)
        #expect(error.path == ["ReadingService", "BookDetailService", "ReviewService", "BookDetailService"])
    }

    /// A `ResolutionError` a factory got anywhere else, here kept from an earlier resolve,
    /// is that factory's failure too.
    @Test(arguments: [Scope.transient, .singleton])
    func storedResolutionErrorThrownByAFactoryIsWrapped(scope: Scope) throws {
        let registry = ServiceRegistry()
        let stored = try resolutionError { _ = try registry.resolve(Clock.self) }
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self, scope: scope) { _ in throw stored }
        let error = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.path == ["ReadingService", "BookDetailService"])
        #expect((error.underlyingError as? ResolutionError)?.path == ["Clock"])
    }

    /// A failure at the bottom of a long chain reaches the top as it is, with the whole
    /// path: each factory on the way compares the error's path with its own, frame by
    /// frame, also across a `.singleton` in the middle whose factory resolves through the
    /// registry (its path continues the build's, so the frames below it sit after the
    /// path above it). A kept error whose path differs from the resolve's only at its top
    /// is still the factory's failure.
    @Test(arguments: [false, true])
    func failureAtTheBottomOfALongChainReachesTheTopWithItsPath(singletonInTheMiddle: Bool) throws {
        let registry = ServiceRegistry()
        let depth = 60
        for level in 0..<depth where level != depth / 2 || !singletonInTheMiddle {
            registry.register(Int.self, name: "\(level)") { r in
                level == depth - 1 ? try r.resolve(Int.self) : try r.resolve(Int.self, name: "\(level + 1)")
            }
        }
        if singletonInTheMiddle {
            registry.register(Int.self, name: "\(depth / 2)", scope: .singleton) { [registry] _ in
                try registry.resolve(Int.self, name: "\(depth / 2 + 1)")
            }
        }
        let expectedPath = (0..<depth).map { "Int (name: \"\($0)\")" } + ["Int"]
        let error = try resolutionError { _ = try registry.resolve(Int.self, name: "0") }
        #expect(error.reason == .notRegistered)
        #expect(error.path == expectedPath)

        // Thrown again by the second service's factory, the error's path starts with the
        // first service, which is not on the path of a resolve that starts at the second.
        registry.register(Int.self, name: "1") { _ in throw error }
        let kept = try resolutionError { _ = try registry.resolve(Int.self, name: "1") }
        #expect(kept.reason == .factoryFailed)
        #expect(kept.path == ["Int (name: \"1\")"])
    }

    /// A kept error whose path runs through the factory's service, but on another path than
    /// this resolve's, is the factory's failure too: only an error whose path starts with
    /// the path to the factory came from a resolve it made.
    @Test func storedErrorNamingTheFactorysServiceOnAnotherPathIsWrapped() throws {
        let registry = ServiceRegistry()
        let stored = Guarded<ResolutionError?>(nil)
        registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
        registry.register(BookDetailService.self) { r in
            if let error = stored.withLock({ $0 }) { throw error }
            _ = try r.resolve(Clock.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        registry.register(ReviewService.self, scope: .singleton) { [registry] _ in
            _ = try registry.resolve(BookDetailService.self)
            return ReviewServiceImpl()
        }
        let first = try resolutionError { _ = try registry.resolve(ReadingService.self) }
        #expect(first.path == ["ReadingService", "BookDetailService", "Clock"])
        stored.withLock { $0 = first }
        let error = try resolutionError { _ = try registry.resolve(BookDetailService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.path == ["BookDetailService"])
        #expect((error.underlyingError as? ResolutionError)?.path == first.path)

        // The same inside a shared build that the factory's resolve continues through the
        // registry: the kept error's path has the factory's service where this resolve has
        // it, but starts at another service than the build above it.
        let inBuild = try resolutionError { _ = try registry.resolve(ReviewService.self) }
        #expect(inBuild.reason == .factoryFailed)
        #expect(inBuild.serviceType == "BookDetailService")
        #expect(inBuild.path == ["ReviewService", "BookDetailService"])
        #expect((inBuild.underlyingError as? ResolutionError)?.path == first.path)
    }

    /// A child's registration that decorates its parent's, of the same type: the parent's
    /// error names a `ReviewService` too, but not this one. Paths are compared by
    /// registration, not by name, so it is the decorator's failure.
    @Test func errorFromTheRegistrationADecoratorWrapsIsTheDecoratorsFailure() throws {
        let parent = ServiceRegistry()
        parent.register(ReviewService.self) { r in
            _ = try r.resolve(Clock.self)
            return ReviewServiceImpl()
        }
        let child = parent.makeChild()
        child.register(ReviewService.self) { [parent] _ in
            ReviewServiceImpl(source: "cached " + (try parent.resolve(ReviewService.self)).source)
        }
        let error = try resolutionError { _ = try child.resolve(ReviewService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.path == ["ReviewService"])
        let underlying = try #require(error.underlyingError as? ResolutionError)
        #expect(underlying.reason == .notRegistered)
        #expect(underlying.path == ["ReviewService", "Clock"])
    }

    /// An error keeps no registration alive, and reflecting it (`dump`, or a failed
    /// expectation showing it) still works once its registry and registrations are gone.
    @Test func errorOutlivingItsRegistryCanStillBeReflected() throws {
        weak var freedRegistry: ServiceRegistry?
        let error = try {
            let registry = ServiceRegistry()
            freedRegistry = registry
            registry.register(BookDetailService.self) { r in BookDetailServiceImpl(reviews: try r.resolve()) }
            return try resolutionError { _ = try registry.resolve(BookDetailService.self) }
        }()
        #expect(freedRegistry == nil)
        var dumped = ""
        dump(error, to: &dumped)
        #expect(dumped.contains("BookDetailService"))
        #expect(error.path == ["BookDetailService", "ReviewService"])
    }

    /// A mirror (what `dump` and debuggers show) lists the error's public properties, not
    /// the one reference it keeps them behind.
    @Test func aMirrorOfAnErrorShowsItsPublicProperties() throws {
        let registry = ServiceRegistry()
        let error = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "offline") }
        let children = Mirror(reflecting: error).children
        #expect(children.map(\.label) == [
            "reason", "serviceType", "name", "path", "givenArgumentType", "registeredArgumentTypes",
            "similarRegistrations", "underlyingError", "note",
        ])
        #expect(children.first?.value as? ResolutionError.Reason == .notRegistered)
        #expect(children.dropFirst(2).first?.value as? String? == "offline")
    }

    /// The last line of every description says how to fix that kind of failure, with the
    /// type, name and argument types of the failed resolve.
    @Test func everyReasonEndsWithTheFixForThatReason() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self) { r in try r.resolve(ReviewService.self) }
        registry.register(BookScreen.self, name: "compact") { (_, id: String) in BookScreenImpl(bookId: id) }
        registry.register(Clock.self) { _ in FixedClock(now: 0) }
        registry.register(BookDetailService.self) { _ in throw FactoryError(message: "offline") }

        let fixes = try [
            resolutionError { _ = try registry.resolve(ReviewService.self) },
            resolutionError { _ = try registry.resolve(BookScreen.self, name: "compact", argument: 42) },
            resolutionError { _ = try registry.resolve(Clock.self, argument: "now") },
            resolutionError { _ = try registry.resolve(BookDetailService.self) },
            resolutionError { _ = try registry.resolve(ReadingService.self, argument: 7) },
        ].map { String($0.description.split(separator: "\n").last ?? "") }

        #expect(fixes[0].hasPrefix("  Fix: the factory of `ReviewService` resolves `ReviewService` itself"))
        #expect(fixes[1].hasPrefix(
            "  Fix: resolve it with an argument of type `String`: registry.resolve(BookScreen.self, name: \"compact\", argument: ...), "
                + "or register a factory that takes an argument of type `Int`."))
        #expect(fixes[2].hasPrefix("  Fix: resolve it without an argument: registry.resolve(Clock.self), "))
        #expect(
            fixes[3] == "  Fix: the factory of `BookDetailService` failed; "
                + "fix what it threw, shown on the first line (and kept in `underlyingError`).")
        #expect(fixes[4].contains("registry.register(ReadingService.self) { (r, argument: Int) in ... }"))
    }

    @Test func namedServiceAppearsWithItsNameInThePath() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { r in
            BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self, name: "offline"))
        }
        let error = try resolutionError { _ = try registry.resolve(BookDetailService.self) }
        #expect(error.path == ["BookDetailService", "ReviewService (name: \"offline\")"])
    }

    /// A failing factory's error, and a cycle met through the registry, keep the name the
    /// service was asked for under, as the other errors do: in `name`, the first line and
    /// the fix, not only in the path.
    @Test func aNamedServicesFailureAndItsCycleThroughTheRegistryKeepTheName() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewService.self, name: "offline") { _ in throw FactoryError(message: "no disk") }
        let failed = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "offline") }
        #expect(failed.reason == .factoryFailed)
        #expect(failed.name == "offline")
        #expect(failed.description.hasPrefix(#"ServiceRegistry could not resolve `ReviewService (name: "offline")`"#))

        registry.register(ReviewService.self, name: "loop", scope: .singleton) { [registry] _ in
            try registry.resolve(ReviewService.self, name: "loop")
        }
        let cycle = try resolutionError { _ = try registry.resolve(ReviewService.self, name: "loop") }
        #expect(cycle.reason == .circularDependency)
        #expect(cycle.name == "loop")
        #expect(cycle.description.hasPrefix(#"ServiceRegistry could not resolve `ReviewService (name: "loop")`"#))
    }

    @Test func fixWritesTheNameAndTypeAsSwiftSource() throws {
        let registry = ServiceRegistry()
        let quoted = try resolutionError { _ = try registry.resolve(ReviewService.self, name: #"say "hi" \ bye"#) }
        #expect(quoted.description.contains(#"registry.register(ReviewService.self, name: "say \"hi\" \\ bye")"#))

        registry.register(BookScreen.self, name: #"a"b"#) { (_, id: String) in BookScreenImpl(bookId: id) }
        let mismatch = try resolutionError { _ = try registry.resolve(BookScreen.self, name: #"a"b"#) }
        #expect(mismatch.description.contains(#"registry.resolve(BookScreen.self, name: "a\"b", argument: ...)"#))
        #expect(mismatch.description.contains("or register a factory that takes no argument"))

        let composition = try resolutionError { _ = try registry.resolve((any ReviewService & Clock).self) }
        #expect(composition.description.contains("registry.register((Clock & ReviewService).self)"))
        let function = try resolutionError { _ = try registry.resolve(((Int) -> String).self) }
        #expect(function.description.contains("registry.register(((Int) -> String).self)"))
        // A ' -> ' or ' & ' inside generic arguments binds there: no parentheses needed.
        let nested = try resolutionError { _ = try registry.resolve(Array<(Int) -> Int>.self) }
        #expect(nested.description.contains("registry.register(Array<(Int) -> Int>.self)"))
        let nestedComposition = try resolutionError { _ = try registry.resolve([String: any ReviewService & Clock].self) }
        #expect(nestedComposition.description.contains("registry.register(Dictionary<String, Clock & ReviewService>.self)"))
        // `().self` would be the empty tuple, not its type: a one-time `.singleton` side
        // effect registered as `Void` is named `Void.self`.
        let void = try resolutionError { _ = try registry.resolve(Void.self, name: "warm-up") }
        #expect(void.description.contains(#"registry.register(Void.self, name: "warm-up") { r in ... }"#))
    }

    /// A constrained existential is named as code writes it, `any Collection<Int>`, not
    /// as the runtime does (`Collection<Self.Collection.Element == Int>`, which does not
    /// compile), so the fix and the note's `as` work as written.
    @Test func constrainedExistentialsAreNamedAsCodeWritesThem() throws {
        let registry = ServiceRegistry()
        let missing = try resolutionError { _ = try registry.resolve((any Sequence<Int>).self) }
        #expect(missing.serviceType == "any Sequence<Int>")
        #expect(missing.description.contains("registry.register((any Sequence<Int>).self) { r in ... }"))

        registry.register(BookScreen.self) { (_, ids: any Collection<Int>) in BookScreenImpl(bookId: "\(ids.count)") }
        let mismatch = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: [1, 2]) }
        #expect(mismatch.registeredArgumentTypes == ["any Collection<Int>"])
        #expect(mismatch.note?.contains("pass it as `any Collection<Int>` (argument: value as any Collection<Int>)") == true)
        #expect(try registry.resolve(BookScreen.self, argument: [1, 2] as any Collection<Int>).bookId == "2")
    }

    /// A constrained existential in a composition is named with its requirement after the
    /// protocol it constrains, `any Sequence<Int> & AnyObject`, not after the last member
    /// as the runtime lists it (`any Sequence & AnyObject<Int>`, which does not compile).
    @Test func aConstrainedExistentialInACompositionIsNamedAsCodeWritesIt() throws {
        let registry = ServiceRegistry()
        let missing = try resolutionError { _ = try registry.resolve((any Sequence<Int> & AnyObject).self) }
        #expect(missing.serviceType == "any Sequence<Int> & AnyObject")
        #expect(missing.description.contains("registry.register((any Sequence<Int> & AnyObject).self) { r in ... }"))
        registry.register((any Sequence<Int> & AnyObject).self) { _ in NumbersBox() }
        let numbers = try registry.resolve((any Sequence<Int> & AnyObject).self)
        #expect(Array(numbers) == [1, 2])
    }

    /// A type with a parameter pack is named with the pack's types among its generic
    /// arguments, as code writes it, not in the runtime's `Pack{...}`, so the fix compiles.
    @Test func aTypeWithAParameterPackIsNamedAsCodeWritesIt() throws {
        let registry = ServiceRegistry()
        let missing = try resolutionError { _ = try registry.resolve(Columns<Int, String>.self) }
        #expect(missing.serviceType == "Columns<Int, String>")
        #expect(missing.description.contains("registry.register(Columns<Int, String>.self) { r in ... }"))
        registry.register(Columns<Int, String>.self) { _ in Columns() }
        _ = try registry.resolve(Columns<Int, String>.self)
    }

    /// A missing type nested in another is named as code outside both writes it, so the
    /// fix compiles where the app registers it.
    @Test func aMissingNestedTypeIsNamedWithTheTypeItIsNestedIn() throws {
        let registry = ServiceRegistry()
        registry.register(BookDetailService.self) { r in
            _ = try r.resolve(ReviewsComponent.Config.self)
            return BookDetailServiceImpl(reviews: ReviewServiceImpl())
        }
        let error = try resolutionError { _ = try registry.resolve(BookDetailService.self) }
        #expect(error.serviceType == "ReviewsComponent.Config")
        #expect(error.path == ["BookDetailService", "ReviewsComponent.Config"])
        #expect(error.description.contains("could not resolve `ReviewsComponent.Config`"))
        #expect(error.description.contains("register `ReviewsComponent.Config`"))
        #expect(error.description.contains("registry.register(ReviewsComponent.Config.self) { r in ... }"))
    }

    /// A nested type keeps its outer types inside generic arguments, function types and
    /// existentials, and as an argument type.
    @Test func nestedTypesKeepTheirOuterTypesInsideOtherTypes() throws {
        let registry = ServiceRegistry()
        let array = try resolutionError { _ = try registry.resolve([ReviewsComponent.Config].self) }
        #expect(array.description.contains("registry.register(Array<ReviewsComponent.Config>.self)"))
        let dictionary = try resolutionError { _ = try registry.resolve([String: ReviewsComponent.Config].self) }
        #expect(dictionary.serviceType == "Dictionary<String, ReviewsComponent.Config>")
        let function = try resolutionError { _ = try registry.resolve(((ReviewsComponent.Config) -> Int).self) }
        #expect(function.description.contains("registry.register(((ReviewsComponent.Config) -> Int).self)"))
        let existential = try resolutionError { _ = try registry.resolve((any ReviewsComponent.Store).self) }
        #expect(existential.serviceType == "ReviewsComponent.Store")

        registry.register(BookScreen.self) { (_, _: ReviewsComponent.Config) in BookScreenImpl(bookId: "42") }
        let mismatch = try resolutionError { _ = try registry.resolve(BookScreen.self, argument: 42) }
        #expect(mismatch.givenArgumentType == "Int")
        #expect(mismatch.registeredArgumentTypes == ["ReviewsComponent.Config"])
    }

    /// A local type's context is an address in its full name: the message names it by the
    /// type around it instead.
    @Test func aMissingLocalTypeIsNamedReadably() throws {
        struct Settings {}
        let error = try resolutionError { _ = try ServiceRegistry().resolve(Settings.self) }
        #expect(error.serviceType == "ErrorsTests.Settings")
        #expect(!error.description.contains("$"))
        #expect(!error.description.contains("unknown context"))
    }
}

/// An error whose description is the text it is given.
private struct FactoryFailureText: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

/// Argument types a `Stamp` converts to.
private protocol Dated: Sendable {}
private protocol Timed: Sendable {}
private struct Stamp: Dated, Timed {}

/// A generic type with a parameter pack.
private struct Columns<each Column> {}

/// A class that is a sequence of numbers: a service of the type `any Sequence<Int> & AnyObject`.
private final class NumbersBox: Sequence {
    func makeIterator() -> IndexingIterator<[Int]> { [1, 2].makeIterator() }
}

/// Registers and resolves `BookScreen` with a local `Page` each: two types of one name.
private enum LocalArguments {
    static func registerScreen(in registry: ServiceRegistry) {
        struct Page {}
        registry.register(BookScreen.self) { (_, _: Page) in BookScreenImpl(bookId: "1") }
    }

    static func resolveScreen(from registry: ServiceRegistry) throws {
        struct Page {}
        _ = try registry.resolve(BookScreen.self, argument: Page())
    }
}

/// Registers a local `Page` whose factory resolves another function's local `Page`, never
/// registered; returns what resolves the first.
private enum LocalServices {
    static func registerPage(in registry: ServiceRegistry) -> @Sendable () throws -> Void {
        struct Page {}
        registry.register(Page.self) { r in
            try resolveOtherPage(r)
            return Page()
        }
        return { _ = try registry.resolve(Page.self) }
    }

    static func resolveOtherPage(_ r: borrowing Resolver) throws {
        struct Page {}
        _ = try r.resolve(Page.self)
    }
}

/// A component's types, nested in a namespace as many apps write them.
private enum ReviewsComponent {
    struct Config: Sendable {}
    protocol Store: Sendable {}
    enum Failure: Error { case offline }
}

/// `ReadingService` needs `BookDetailService` (through `r`), whose factory, of `scope`,
/// resolves `ReviewService`, never registered, through the registry it captured.
private func detailResolvingReviewsThroughTheRegistry(scope: Scope) -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(ReadingService.self) { r in ReadingServiceImpl(detail: try r.resolve()) }
    registry.register(BookDetailService.self, scope: scope) { [registry] _ in
        BookDetailServiceImpl(reviews: try registry.resolve(ReviewService.self))
    }
    return registry
}
