import Foundation
import Testing

@testable import ServiceRegistry

/// A shared instance that knows which registration built it.
private final class Edition: Sendable {
    let generation: Int
    init(_ generation: Int) { self.generation = generation }
}

@Suite("A registration replaced inside an override scope")
struct ReplacedRegistrationInScopeTests {
    /// Registers `Int` as a singleton whose factory counts its builds in `builds[generation]`.
    private func register(generation: Int, in registry: ServiceRegistry, counting builds: [Counter]) {
        registry.register(Int.self, scope: .singleton) { _ in
            builds[generation].increment()
            return generation
        }
    }

    /// Registers ``Edition`` in `scope`, counting builds as above.
    private func registerEdition(
        generation: Int, scope: Scope, in registry: ServiceRegistry, counting builds: [Counter]
    ) {
        registry.register(Edition.self, scope: scope) { _ in
            builds[generation].increment()
            return Edition(generation)
        }
    }

    /// The moment the threaded test below aims at, set up by hand: a resolve holds the
    /// registration it looked up, the key is registered again in the scope (which drops the
    /// instance the scope cached for it), and only then does the resolve look into the
    /// scope's cache. It must report the registration as replaced, so its caller looks the
    /// key up again, rather than find no instance and build the old one once more: for a
    /// `.weak` service, a second instance while the first is held. Nor may it report the
    /// resolve to an observer: there is no instance to report, and the lookup that follows
    /// reports the one it resolves.
    @Test(arguments: [Scope.singleton, .weak])
    func aResolveOfTheReplacedRegistrationBuildsNothingAndAsksForAnotherLookup(scope: Scope) throws {
        let registry = ServiceRegistry()
        let builds = (0...1).map { _ in Counter() }
        registerEdition(generation: 0, scope: scope, in: registry, counting: builds)
        let key = ServiceKey(Edition.self, name: nil)
        try registry.withOverrides { _ in } operation: {
            let layer = try #require(OverrideLayer.current)
            let first = try registry.resolve(Edition.self)
            let replaced = try #require(registry.table.registration(for: key))
            registerEdition(generation: 1, scope: scope, in: registry, counting: builds)
            #expect(layer.cellCount == 0, "the replaced registration's instance is dropped at once")

            // An `Edition?` holds `nil` as a null reference, the one bit pattern no
            // `Edition` has: still `nil` afterwards, nothing was written.
            var result: Edition? = nil
            var askedForAnotherLookup = false
            let heard = Counter()
            let token = registry.addResolutionObserver { _ in heard.increment() }
            defer { registry.removeResolutionObserver(token) }
            try withUnsafeMutablePointer(to: &result) { result in
                try registry.withResolution(overrides: layer) { resolution throws(ResolutionError) in
                    try registry.resolve(
                        replaced, owner: registry, cacheLayer: layer, key: key, argument: nil,
                        into: UnsafeMutableRawPointer(result), parent: nil, resolution: resolution)
                    askedForAnotherLookup = resolution.pointee.metReplacedRegistration
                }
            }
            #expect(askedForAnotherLookup)
            #expect(result == nil, "nothing was written")
            #expect(heard.value == 0, "nothing was reported before the lookup again")
            #expect(builds.map(\.value) == [1, 0])
            #expect(try registry.resolve(Edition.self).generation == 1)
            #expect(builds.map(\.value) == [1, 1])
            withExtendedLifetime(first) {}
        }
    }

    /// A scope that lives long, in which a key is registered again and resolved again and
    /// again, keeps no more marks than cells: each mark goes, like a cell, once its
    /// registration is gone, at the scope's next shared resolve.
    @Test func marksOfReplacedRegistrationsGoWithTheRegistrations() throws {
        let registry = ServiceRegistry()
        let builds = (0...50).map { _ in Counter() }
        register(generation: 0, in: registry, counting: builds)
        registry.register(String.self, scope: .singleton) { _ in "other" }
        try registry.withOverrides { _ in } operation: {
            let layer = try #require(OverrideLayer.current)
            for generation in 1...50 {
                #expect(try registry.resolve(Int.self) == generation - 1)
                register(generation: generation, in: registry, counting: builds)
                #expect(layer.replacementMarkCount == 1, "the replacement is marked, the one before swept")
            }
            _ = try registry.resolve(String.self)
            #expect(layer.replacementMarkCount == 0)
            #expect(layer.cellCount == 1, "the other service's singleton")
            #expect(builds.allSatisfy { $0.value <= 1 })
        }
    }

    /// Threads resolve a singleton in a scope while another thread in the same scope
    /// registers its key again and again. Every resolve succeeds. One that found a
    /// registration just before it was replaced may still hand out that registration's
    /// instance, but must never build it a second time: the scope dropped the instance it
    /// had cached, and building it again breaks "a singleton is built once" (the thread
    /// sanitizer runs this one too).
    ///
    /// The window is a few instructions wide (between the resolve's lookup and its look
    /// into the scope's cache), so this runs rounds (a few milliseconds each) for about a
    /// second: without the fix, one round in two to ten built a replaced registration twice.
    @Test func aResolveThatFoundAReplacedRegistrationNeverBuildsItAgain() {
        let generations = 300
        let deadline = ContinuousClock.now + .seconds(1)
        var rounds = 0
        while rounds < 3 || ContinuousClock.now < deadline {
            rounds += 1
            let registry = ServiceRegistry()
            let builds = (0...generations).map { _ in Counter() }
            register(generation: 0, in: registry, counting: builds)
            let finished = registry.withOverrides { _ in } operation: {
                let scope = OverrideScope.current
                let replaced = Counter()
                let wrongResults = Counter()
                let finished = onThreads(3) { index in
                    scope.run {
                        if index == 0 {
                            for generation in 1...generations {
                                register(generation: generation, in: registry, counting: builds)
                            }
                            replaced.increment()
                        } else {
                            while replaced.value == 0 {
                                let generation = try? registry.resolve(Int.self)
                                if generation.map({ !(0...generations).contains($0) }) ?? true {
                                    wrongResults.increment()
                                }
                            }
                        }
                    }
                }
                #expect(wrongResults.value == 0, "resolves that threw or returned no generation's value")
                return finished
            }
            #expect(finished)
            let builtTwice = builds.indices.filter { builds[$0].value > 1 }
            #expect(builtTwice.isEmpty, "round \(rounds): generations built more than once: \(builtTwice)")
            if !builtTwice.isEmpty { return }
        }
    }
}
