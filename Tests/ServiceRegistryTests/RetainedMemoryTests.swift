@testable import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

// Memory that stays reachable though nothing should need it any more: not a leak to the
// leak sanitizer, but an app that makes and drops scopes, registrations or assemblies
// over a long run would grow. Each test holds what must go by a weak reference or counts
// internal entries; none measures the heap.

// Fixtures are private to this file so they never clash with other test files' types.

private protocol Wallet: Sendable {}

/// Something a factory captures or builds, whose lifetime a test watches.
private final class Coin: Wallet {}

/// A service of another type, a value.
private struct Label: Sendable {
    let text: String
}

/// The events an observer keeps (whole: an event is not `Sendable`, since it carries the
/// instance, and the test reads them on the thread that resolved).
private final class EventLog: Sendable {
    let events = Mutex<[UncheckedSendable<ResolutionEvent>]>([])
}

/// Resolves a shared service when it goes, as a cached instance's `deinit` (or that of
/// something a factory captured) may: in whatever scope the thread that frees it runs in.
private final class Tripwire: Sendable {
    weak let registry: ServiceRegistry?

    init(_ registry: ServiceRegistry) {
        self.registry = registry
    }

    deinit {
        _ = try? registry?.resolve(Label.self, name: "probe")
    }
}

@Suite("What the registry lets go of")
struct RetainedMemoryTests {
    /// An observer may keep the events it is given (a debug screen listing the last
    /// builds). An event keeps the instance it shows, but not the registration that
    /// answered: that would keep the factory, and what it captured, after the
    /// registration was replaced.
    @Test func aKeptResolutionEventDoesNotKeepTheRegistrationThatAnswered() throws {
        let registry = ServiceRegistry()
        let log = EventLog()
        let token = registry.addResolutionObserver { event in log.events.withLock { $0.append(UncheckedSendable(event)) } }
        defer { registry.removeResolutionObserver(token) }
        weak var captured: Coin?
        do {
            let coin = Coin()
            captured = coin
            registry.register(Label.self) { _ in withExtendedLifetime(coin) { Label(text: "first") } }
        }
        #expect(try registry.resolve(Label.self).text == "first")
        registry.register(Label.self) { _ in Label(text: "second") }
        #expect(captured == nil)
        #expect(log.events.withLock { $0.map(\.value.serviceType) } == ["Label"])
    }

    /// The configure closure may keep its registrar (a test helper storing `$0`); the
    /// registrar must not keep the overrides' factories, and what they capture, after the
    /// scope has ended.
    @Test func aRegistrarKeptAfterItsScopeKeepsNoOverride() throws {
        let registry = ServiceRegistry()
        var kept: OverrideRegistrar?
        weak var captured: Coin?
        do {
            let coin = Coin()
            captured = coin
            try registry.withOverrides {
                kept = $0
                $0.register(Wallet.self) { _ in coin }
            } operation: {
                _ = try registry.resolve(Wallet.self)
            }
        }
        #expect(kept != nil)
        #expect(captured == nil)
    }

    /// An error keeps its path's registrations by identity only, and reflecting those
    /// identities (a failed expectation showing them, `dump`) still works once the
    /// registrations are gone: it never reads the registration.
    @Test func identitiesOfRegistrationsThatAreGoneCanStillBeReflected() throws {
        let error: ResolutionError? = {
            let registry = ServiceRegistry()
            registry.register(Label.self) { r in Label(text: try r.resolve(String.self)) }
            do {
                _ = try registry.resolve(Label.self)
            } catch let error as ResolutionError {
                return error
            } catch {}
            Issue.record("the resolve did not throw a ResolutionError")
            return nil
        }()
        let identities = try #require(error).registrations
        #expect(!identities.isEmpty)
        var dumped = ""
        dump(identities, to: &dumped)
        #expect(dumped.contains("id"))
    }
}

@Suite("Override scopes let go of replaced registrations' instances")
struct ScopeCellRetentionTests {
    /// Outside a scope, registering a key again drops the singleton it had cached; inside
    /// one, the singleton cached in the scope goes too, also when the key is registered
    /// again in a scope nested in the one that cached it. A scope that lives long (an app
    /// run inside one) in which a key is registered and resolved again and again must not
    /// keep every singleton it built.
    @Test(arguments: [Scope.singleton, .weak])
    func reRegisteringInsideAScopeDropsWhatTheScopeCachedForTheOldRegistration(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: scope) { _ in Coin() }
        weak var first: Coin?
        try registry.withOverrides { _ in } operation: {
            var held: Coin? = try #require(try registry.resolve(Wallet.self) as? Coin)
            first = held
            held = nil
            if scope == .singleton { #expect(first != nil, "the scope caches its singleton") }
            #expect(OverrideLayer.current?.cellCount == 1)
            registry.register(Wallet.self, scope: scope) { _ in Coin() }
            #expect(first == nil)
            #expect(OverrideLayer.current?.cellCount == 0)

            // Cached in this scope, registered again in a scope nested in it.
            held = try #require(try registry.resolve(Wallet.self) as? Coin)
            first = held
            held = nil
            #expect(OverrideLayer.current?.cellCount == 1)
            registry.withOverrides { _ in } operation: {
                registry.register(Wallet.self, scope: scope) { _ in Coin() }
            }
            #expect(first == nil, "the outer scope's instance goes at once")
            #expect(OverrideLayer.current?.cellCount == 0)
            _ = held
        }
    }

    /// A scope the registering code does not run in (a long-lived scope in another task, a
    /// captured one) drops the old instance the next time a resolve in it makes or finds a
    /// cell, so re-registering and resolving in a loop keeps at most one stale instance.
    @Test func aScopeDropsAReplacedRegistrationsSingletonAtItsNextSharedResolve() throws {
        let registry = ServiceRegistry()
        registry.register(Wallet.self, name: "other", scope: .singleton) { _ in Coin() }
        let outside = OverrideScope.current
        try registry.withOverrides { _ in } operation: {
            var built: [() -> Coin?] = []
            for _ in 0..<50 {
                outside.run { registry.register(Wallet.self, scope: .singleton) { _ in Coin() } }
                weak let coin = try #require(try registry.resolve(Wallet.self) as? Coin)
                built.append { coin }
            }
            #expect(built.dropLast().filter { $0() != nil }.count <= 1)
            _ = try registry.resolve(Wallet.self, name: "other")
            #expect(built.dropLast().allSatisfy { $0() == nil })
            #expect(built.last?() != nil, "the current registration's singleton stays cached in the scope")
        }
    }

    /// Threads resolve in a scope while another registers the key again outside it: each
    /// resolve gets a singleton, and once they are done the scope keeps only the current
    /// registration's (the thread sanitizer runs this one too).
    ///
    /// On threads of their own that meet before they start, the resolving ones resolving
    /// until the registering one is done: as tasks of a task group, on a cooperative pool
    /// the synchronous tests running alongside hold, they could run one after another and
    /// never overlap.
    @Test func replacingWhileThreadsResolveInTheScopeKeepsNothingStale() throws {
        let registry = ServiceRegistry()
        registry.register(Wallet.self, scope: .singleton) { _ in Coin() }
        let outside = OverrideScope.current
        let failures = Counter()
        let start = Rendezvous(parties: 5)
        try registry.withOverrides { _ in } operation: {
            let scope = OverrideScope.current
            let registrations = LiveCount()
            let finished = onThreads(5) { index in
                start.arriveAndWait()
                if index < 4 {
                    // Until the registering thread is done, so the two overlap.
                    scope.run {
                        repeat {
                            if (try? registry.resolve(Wallet.self) as? Coin) == nil { failures.increment() }
                        } while registrations.value < 300
                    }
                } else {
                    for _ in 0..<300 {
                        outside.run { registry.register(Wallet.self, scope: .singleton) { _ in Coin() } }
                        registrations.increment()
                    }
                }
            }
            #expect(finished)
            #expect(!start.wasMissed, "the threads did not start at once")
            #expect(failures.value == 0)
            _ = try registry.resolve(Wallet.self)
            #expect(OverrideLayer.current?.cellCount == 1)
        }
    }

    /// A scope that drops the cells of gone registrations checks each cell's registration,
    /// and reading a weak reference holds the registration for a moment. When the code
    /// replacing it lets go at that moment, the check's is the last reference: the
    /// registration, its factory and its cached singleton must then go after the scope's
    /// lock is released, since their `deinit`s may resolve a shared service in the scope
    /// (here, something the factory captured does), which takes that lock again.
    ///
    /// The moment is a few instructions wide, so this hammers it for a few seconds: without
    /// the fix it stopped the program in about two to ten seconds of runs on two cores, so
    /// a run that passes proves little alone (the thread sanitizer runs this one too).
    ///
    /// On two threads of their own, the resolving one carrying the scope, which meet before
    /// the four seconds start. It ran as two tasks of a task group, with a deadline taken
    /// before the scope opened: the cooperative pool has two threads, which the synchronous
    /// tests running alongside hold for long stretches, and in a run of the whole suite
    /// under the thread sanitizer both tasks started 159 s after the deadline and hammered
    /// nothing (0 rounds each).
    @Test func aRegistrationWhoseLastReferenceTheScopesSweepDropsGoesOutsideItsLock() throws {
        let registry = ServiceRegistry()
        registry.register(Label.self, name: "probe", scope: .singleton) { _ in Label(text: "probe") }
        let names = (0..<8).map { "wallet \($0)" }
        let register: @Sendable (String) -> Void = { name in
            let tripwire = Tripwire(registry)
            registry.register(Wallet.self, name: name, scope: .singleton) { _ in
                withExtendedLifetime(tripwire) { Coin() }
            }
        }
        names.forEach(register)
        let outside = OverrideScope.current
        let rounds = (resolving: Counter(), registering: Counter())
        let failures = Counter()
        let start = Rendezvous(parties: 2)
        let finished = registry.withOverrides { _ in } operation: {
            let scope = OverrideScope.current
            return onThreads(2) { index in
                start.arriveAndWait()
                let deadline = ContinuousClock.now + .seconds(4)
                if index == 0 {
                    scope.run {
                        while ContinuousClock.now < deadline {
                            for name in names where (try? registry.resolve(Wallet.self, name: name) as? Coin) == nil {
                                failures.increment()
                            }
                            rounds.resolving.increment()
                        }
                    }
                } else {
                    var round = 0
                    while ContinuousClock.now < deadline {
                        outside.run { register(names[round % names.count]) }
                        round += 1
                        rounds.registering.increment()
                    }
                }
            }
        }
        #expect(finished)
        #expect(!start.wasMissed, "the threads did not start at once")
        #expect(failures.value == 0)
        #expect(rounds.resolving.value > 0 && rounds.registering.value > 0, "nothing was hammered")
    }

    /// Children made and dropped inside a long-lived scope: each child's singleton is
    /// cached in the scope, and goes once the child has gone, at the scope's next shared
    /// resolve. Their registrations' identities are taken by later ones, of another
    /// service type, which must never be handed the old instance.
    @Test func singletonsOfChildRegistriesDroppedInsideAScopeGoAtItsNextSharedResolve() throws {
        let registry = ServiceRegistry()
        try registry.withOverrides { _ in } operation: {
            var built: [() -> Coin?] = []
            for round in 0..<100 {
                let child = registry.makeChild()
                if round.isMultiple(of: 2) {
                    child.register(Wallet.self, scope: .singleton) { _ in Coin() }
                    weak let coin = try #require(try child.resolve(Wallet.self) as? Coin)
                    built.append { coin }
                } else {
                    child.register(Label.self, scope: .singleton) { _ in Label(text: "round \(round)") }
                    #expect(try child.resolve(Label.self).text == "round \(round)")
                }
            }
            #expect(built.dropLast().allSatisfy { $0() == nil })
        }
    }
}
