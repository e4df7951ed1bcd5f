import ServiceRegistry
import WeReadInterfaces

/// What `weread` with no arguments plays: launch, open the shelf, open a book's detail,
/// start reading, close the book — and after each step, which services were built just
/// now and which were reused.
///
/// The notes printed with each step explain what the reader should see; the lists of
/// built and reused services next to them are observed, not written down, so if the
/// wiring or a scope changed, the transcript (and its test) would show it.
struct ScriptedSession {
    /// The book the session opens and reads.
    static let featuredBook = BookID(42)

    /// Installs the app's components into the session's registry; timed, as the app's
    /// start-up work, and watched, so anything it builds shows in the launch step.
    var install: (ServiceRegistry) -> Void = WeReadApp.install(into:)

    /// Plays the session.
    ///
    /// - Returns: The transcript, one line per element.
    /// - Throws: `ResolutionError` or a component's error if the app is wired wrong.
    func run() throws -> [String] {
        let clock = ContinuousClock()
        var transcript = [
            "WeRead — a scripted session on ServiceRegistry.",
            "Nothing is built until a screen needs it. After each step: what was built just now, what was reused.",
        ]

        // 1. Launch: the app's real start-up work is installing the assemblies.
        let registry = ServiceRegistry()
        let observer = BuildObserver()
        let watching = observer.watch(registry)
        defer { registry.removeResolutionObserver(watching) }
        let installStart = clock.now
        install(registry)
        let installTime = clock.now - installStart
        // From the events, not only the live objects, so a value-type service counts too.
        var builtAtLaunch: [String] = []
        for event in observer.takeEvents() where event.isNewInstance && !builtAtLaunch.contains(event.service) {
            builtAtLaunch.append(event.service)
        }
        transcript += ["", "1. Launch"]
        // The "Installed …" line goes here, but is written after the last step: counting
        // the registrations draws the graph, which runs every factory once (in isolation,
        // caching nothing, unheard by the observer). Counted now, it would build every
        // service at launch, in the session that shows nothing is built before it is needed.
        let installedLineIndex = transcript.count
        let aliveAtLaunch = observer.liveServices
        if builtAtLaunch.isEmpty {
            transcript.append("   Instances alive: \(aliveAtLaunch.count) — registering builds nothing.")
        } else {
            // Listed apart: what installing built may be gone already (a weak service) or
            // never counted as alive (a value type).
            transcript += [
                "   Instances alive: \(aliveAtLaunch.count)"
                    + (aliveAtLaunch.isEmpty ? "." : " — \(TextLayout.list(aliveAtLaunch))."),
                "   Installing built \(TextLayout.list(builtAtLaunch)): an assembly resolved while installing.",
            ]
        }

        transcript += try step(2, "Open the shelf", registry: registry, observer: observer, clock: clock) {
            Screens.shelf(try registry.resolve(BookshelfService.self))
        }
        transcript.append("   CatalogService is a singleton: built on first use, now kept for everyone.")

        transcript += try step(3, "Open book \(Self.featuredBook)'s detail", registry: registry, observer: observer, clock: clock) {
            let detail = try registry.resolve(BookDetailService.self, argument: Self.featuredBook)
            return detail.render().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        transcript.append("   The detail screen is transient, built for the book id given at resolve time; it pulled in reviews.")

        transcript += try step(4, "Start reading", registry: registry, observer: observer, clock: clock) {
            let reader = try registry.resolve(ReadingService.self)
            let session = try reader.startReading(Self.featuredBook)
            // The progress bar asks for the reader while the reading screen still holds it.
            let progressBarReader = try registry.resolve(ReadingService.self)
            return [
                Screens.reading(session),
                "Progress bar shares the open reader: \(progressBarReader === reader ? "yes" : "no").",
            ]
        }
        transcript.append("   The reader is weak: shared while the reading screen holds it.")

        // 5. Closing: step 4's screen and reader went out of scope when its closure returned.
        let alive = observer.liveServices
        transcript += [
            "",
            "5. Close the book",
            "   Instances alive: \(alive.count) — \(TextLayout.list(alive)).",
            "   The singletons stay; the transient detail screen and the weak reader are gone.",
        ]
        let wiring = WeReadApp.registrationSummary(of: registry)
        transcript.insert(
            "   Installed \(TextLayout.count(wiring.registrations, "registration")) from "
                + "\(TextLayout.count(wiring.components, "component")) in \(Self.microseconds(installTime)).",
            at: installedLineIndex)
        return transcript
    }

    /// Runs one step, then lists what it built and reused, and how long it took.
    private func step(
        _ number: Int, _ title: String, registry: ServiceRegistry, observer: BuildObserver, clock: ContinuousClock,
        _ body: () throws -> [String]
    ) throws -> [String] {
        _ = observer.takeEvents()
        let start = clock.now
        let screen = try body()
        let elapsed = clock.now - start
        let events = observer.takeEvents()
        var built: [String] = []
        var reused: [String] = []
        // A service can be both: built by one resolve of the step and handed out again by a
        // later one (the progress bar's reader), so each list is deduplicated on its own.
        for event in events {
            if event.isNewInstance {
                if !built.contains(event.service) { built.append(event.service) }
            } else if !reused.contains(event.service) {
                reused.append(event.service)
            }
        }
        return ["", "\(number). \(title)"] + screen.map { "   │ " + $0 } + [
            "   Built just now: \(TextLayout.list(built)) (\(Self.microseconds(elapsed)))",
            "   Reused: \(TextLayout.list(reused))",
        ]
    }

    /// A duration in whole microseconds, such as `41 µs`.
    static func microseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000) µs"
    }
}
