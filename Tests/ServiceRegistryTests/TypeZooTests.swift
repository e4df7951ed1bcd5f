@testable import ServiceRegistry
import Synchronization
import Testing

// The resolve engine moves instances as raw memory and lets each registration do the typed
// operations (copy in, keep a heap copy, copy out, destroy). These tests send a zoo of
// types, each with a class instance inside it where it can hold one, through every path an
// instance can take, under every scope, and check that each resolve gets the build it
// should, intact, and that every instance built is destroyed exactly once, when it should be.
// Where a count includes what a test holds, it holds it with `withExtendedLifetime`: an
// optimized build may end a variable's life at its last use.

// The zoo itself is in TypeZooFixtures.swift.

/// What a factory that resolves the same service twice builds.
private struct Pair<Service> {
    let first: Service
    let second: Service
}

/// Which build each resolve of one registration should get, as the scopes say; builds are
/// numbered from 1.
private struct Expectation {
    let scope: Scope
    let isObject: Bool
    private(set) var built = 0
    private var shared: Int?

    init(scope: Scope, isObject: Bool) {
        self.scope = scope
        self.isObject = isObject
    }

    /// `.singleton`, and `.weak` for a class instance while someone holds it; `.weak` builds
    /// a value afresh on every resolve (as ``Scope/weak`` documents).
    private var isShared: Bool { scope == .singleton || (scope == .weak && isObject) }

    /// The build a top-level resolve gets.
    mutating func resolve() -> Int {
        var graph: Int?
        return resolve(in: &graph)
    }

    /// The build a resolve inside a top-level resolve gets, whose `.graph` instance so far
    /// is `graph`; `serial` is the build's number when it builds (the argument it passes on).
    mutating func resolve(in graph: inout Int?, building serial: Int? = nil) -> Int {
        if isShared, let shared { return shared }
        if scope == .graph, let graph { return graph }
        built += 1
        let made = serial ?? built
        if isShared { shared = made }
        if scope == .graph { graph = made }
        return made
    }

    /// A top-level resolve with an argument, which the factory returns.
    mutating func resolve(passing serial: Int) -> Int {
        var graph: Int?
        return resolve(in: &graph, building: serial)
    }

    /// A top-level resolve of a factory that resolves the service twice through its resolver.
    mutating func resolvePair() -> [Int] {
        var graph: Int?
        return [resolve(in: &graph), resolve(in: &graph)]
    }

    /// Every holder has let go: a `.weak` instance is gone.
    mutating func holdersLetGo() {
        if scope == .weak { shared = nil }
    }

    /// How many instances the registration keeps: its singleton, once built.
    var kept: Int { scope == .singleton && shared != nil ? 1 : 0 }
}

/// An exhibit of any service type, for parameterized tests: each requirement is one path an
/// instance takes.
protocol ZooSpecimen: Sendable, CustomTestStringConvertible {
    func resolvesDirectly(_ scope: Scope) throws
    func resolvesThroughAResolver(_ scope: Scope) throws
    func resolvesInAnOverrideScope(_ scope: Scope) throws
    func resolvesThroughAChild(_ scope: Scope) throws
    func resolvesWithArguments(_ scope: Scope) throws
    func resolvesAsAnOptional(_ scope: Scope) throws
    func resolvesThroughInjected(_ scope: Scope) throws
    func resolvesWhileObserved(_ scope: Scope) throws
    func survivesReplacement(_ scope: Scope) throws
    func survivesFailingFactories(_ scope: Scope) throws
    func survivesValidation(_ scope: Scope) throws
}

/// The zoo (see TypeZooFixtures.swift).
private let zoo: [any ZooSpecimen] = [
    Zoo.zeroSizeStruct,
    Zoo.oneByteEnum,
    Zoo.sixWordStruct,
    Zoo.overAlignedSIMD,
    Zoo.enumWithPayloads,
    Zoo.tuple,
    Zoo.closure,
    Zoo.metatype,
    Zoo.existentialMetatype,
    Zoo.anyHoldingAStruct,
    Zoo.anyObject,
    Zoo.classBoundExistential,
    Zoo.existentialWithASuperclass,
    Zoo.anyError,
    Zoo.protocolComposition,
    Zoo.optional,
    Zoo.optionalHoldingAClass,
    Zoo.string,
    Zoo.array,
    Zoo.subclassAsSuperclass,
    Zoo.structHoldingAWeakReference,
]

private let scopes: [Scope] = [.transient, .singleton, .graph, .weak]

// MARK: Paths

extension Exhibit: ZooSpecimen {
    private func expectation(_ scope: Scope) -> Expectation {
        Expectation(scope: scope, isObject: isObject)
    }

    func resolvesDirectly(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        var expected = expectation(scope)
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            do {
                // After the first, a built singleton is copied straight out of the table,
                // while no scope or observer lives (see everyTypeComesIntactOffTheFastPath).
                let instances = try (0..<3).map { _ in try registry.resolve(Service.self) }
                expect(instances, are: (0..<3).map { _ in expected.resolve() })
                #expect(builds.value == expected.built)
                expectLive(tally, expected.built)
                withExtendedLifetime(instances) {}
            }
            expected.holdersLetGo()
            expectLive(tally, expected.kept)
            let later = try registry.resolve(Service.self)
            expect([later], are: [expected.resolve()])
            #expect(builds.value == expected.built)
        }
        // The registry went with its singleton.
        expectLive(tally, 0)
    }

    func resolvesThroughAResolver(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        var expected = expectation(scope)
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            registry.register(Pair<Service>.self) { r in Pair(first: try r.resolve(), second: try r.resolve()) }
            do {
                let one = try registry.resolve(Pair<Service>.self)
                let two = try registry.resolve(Pair<Service>.self)
                expect(
                    [one.first, one.second, two.first, two.second],
                    are: expected.resolvePair() + expected.resolvePair())
                #expect(builds.value == expected.built)
                // The `.graph` instances the resolutions kept are gone; the pairs hold theirs.
                expectLive(tally, expected.built)
                withExtendedLifetime((one, two)) {}
            }
            expected.holdersLetGo()
            expectLive(tally, expected.kept)
        }
        expectLive(tally, 0)
    }

    func resolvesInAnOverrideScope(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let realBuilds = Counter()
        let mockBuilds = Counter()
        var real = expectation(scope)
        var mock = expectation(scope)
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, realBuilds, offset: 1000))
            registry.register(Pair<Service>.self) { r in Pair(first: try r.resolve(), second: try r.resolve()) }
            let before = try registry.resolve(Service.self)
            expect([before], are: [1000 + real.resolve()])
            try registry.withOverrides {
                $0.register(Service.self, scope: scope, factory: factory(tally, mockBuilds))
            } operation: {
                let instances = try (0..<3).map { _ in try registry.resolve(Service.self) }
                let pair = try registry.resolve(Pair<Service>.self)
                expect(
                    instances + [pair.first, pair.second],
                    are: (0..<3).map { _ in mock.resolve() } + mock.resolvePair())
                #expect(mockBuilds.value == mock.built)
                expectLive(tally, real.built + mock.built)
                withExtendedLifetime((instances, pair)) {}
            }
            // What the scope built, its singleton too, went with it.
            expectLive(tally, 1)
            #expect(realBuilds.value == 1)
            let after = try registry.resolve(Service.self)
            expect([before, after], are: [1001, 1000 + real.resolve()])
            withExtendedLifetime(before) {}
        }
        expectLive(tally, 0)
    }

    func resolvesThroughAChild(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let ownTally = LifetimeTally()
        let builds = Counter()
        var expected = expectation(scope)
        do {
            let parent = ServiceRegistry()
            parent.register(Service.self, scope: scope, factory: factory(tally, builds))
            do {
                let child = parent.makeChild()
                child.register(Pair<Service>.self) { r in Pair(first: try r.resolve(), second: try r.resolve()) }
                child.register(Service.self, name: "own", scope: scope, factory: factory(ownTally, Counter()))
                let own = try child.resolve(Service.self, name: "own")
                expect([own], are: [1])
                do {
                    let instances = try (0..<3).map { _ in try child.resolve(Service.self) }
                    let pair = try child.resolve(Pair<Service>.self)
                    let fromParent = try parent.resolve(Service.self)
                    expect(
                        instances + [pair.first, pair.second, fromParent],
                        are: (0..<3).map { _ in expected.resolve() } + expected.resolvePair() + [expected.resolve()])
                    #expect(builds.value == expected.built)
                    expectLive(tally, expected.built)
                    withExtendedLifetime((instances, pair, fromParent)) {}
                }
                expected.holdersLetGo()
                expectLive(tally, expected.kept)
            }
            // The child went with its own singleton; the parent keeps its own.
            expectLive(ownTally, 0)
            expectLive(tally, expected.kept)
        }
        expectLive(tally, 0)
    }

    func resolvesWithArguments(_ scope: Scope) throws {
        let tally = LifetimeTally()
        var single = expectation(scope)
        var tupled = expectation(scope)
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope) { (_, given: Service) in given }
            registry.register(Service.self, scope: scope) { (_, given: (Int, Service, String)) in given.1 }
            do {
                let arguments = (1...6).map { make($0, tally) }
                let instances = try arguments.prefix(3).map { try registry.resolve(Service.self, argument: $0) }
                let fromTuples = try arguments.suffix(3).map {
                    try registry.resolve(Service.self, argument: (7, $0, "seven"))
                }
                expect(instances, are: (1...3).map { single.resolve(passing: $0) })
                expect(fromTuples, are: (4...6).map { tupled.resolve(passing: $0) })
                expectLive(tally, 6)
                withExtendedLifetime((arguments, instances, fromTuples)) {}
            }
            // Each singleton keeps a copy of the argument it was built from.
            single.holdersLetGo()
            tupled.holdersLetGo()
            expectLive(tally, single.kept + tupled.kept)
        }
        expectLive(tally, 0)
    }

    func resolvesAsAnOptional(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        var expected = expectation(scope)
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            registry.register(Pair<Service?>.self) { r in Pair(first: try r.resolve(), second: try r.resolve()) }
            do {
                let optionals = try (0..<2).map { _ in try registry.resolve(Service?.self) }
                let pair = try registry.resolve(Pair<Service?>.self)
                let inferred: Service? = try? registry.resolve()
                let instances = try (optionals + [pair.first, pair.second, inferred]).map { try #require($0) }
                expect(
                    instances,
                    are: [expected.resolve(), expected.resolve()] + expected.resolvePair() + [expected.resolve()])
                #expect(builds.value == expected.built)
                expectLive(tally, expected.built)
                withExtendedLifetime(instances) {}
            }
            expected.holdersLetGo()
            expectLive(tally, expected.kept)
        }
        expectLive(tally, 0)
    }

    func resolvesThroughInjected(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            do {
                let injected = Injected<Service>(registry: registry)
                expect([injected.wrappedValue, injected.wrappedValue], are: [1, 1])
                #expect(builds.value == 1)
                expectLive(tally, 1)
                withExtendedLifetime(injected) {}
            }
            expectLive(tally, scope == .singleton ? 1 : 0)
        }
        expectLive(tally, 0)
    }

    func resolvesWhileObserved(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        var expected = expectation(scope)
        // Whether each event was a build, and the object it carried.
        let events = Mutex<[(built: Bool, instance: ObjectIdentifier?)]>([])
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            let token = registry.addResolutionObserver { event in
                let instance = event.instance.map(ObjectIdentifier.init)
                events.withLock { $0.append((event.outcome == .built, instance)) }
            }
            defer { registry.removeResolutionObserver(token) }
            do {
                let instances = try (0..<3).map { _ in try registry.resolve(Service.self) }
                let serials = (0..<3).map { _ in expected.resolve() }
                expect(instances, are: serials)
                #expect(builds.value == expected.built)
                expectLive(tally, expected.built)
                withExtendedLifetime(instances) {}
                let seen = events.withLock { $0 }
                #expect(seen.map(\.built) == serials.indices.map { $0 == 0 || serials[$0] != serials[$0 - 1] })
                // An event carries the instance when it is an object.
                #expect(seen.map(\.instance) == instances.map { identity(of: $0) })
                #expect(seen.allSatisfy { ($0.instance != nil) == isObject })
            }
            expected.holdersLetGo()
            expectLive(tally, expected.kept)
        }
        expectLive(tally, 0)
    }

    func survivesReplacement(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        let registry = ServiceRegistry()
        registry.register(Service.self, scope: scope, factory: factory(tally, builds))
        expect([try registry.resolve(Service.self)], are: [1])
        expectLive(tally, scope == .singleton ? 1 : 0)
        registry.register(Service.self, scope: scope, factory: factory(tally, builds))
        // The replaced registration's singleton went with it.
        expectLive(tally, 0)
        expect([try registry.resolve(Service.self)], are: [2])
        try registry.withOverrides { _ in } operation: {
            // Cached in the scope, beside the registry's.
            expect([try registry.resolve(Service.self)], are: [3])
            expectLive(tally, scope == .singleton ? 2 : 0)
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            // Both went: no resolve can reach either again.
            expectLive(tally, 0)
            expect([try registry.resolve(Service.self)], are: [4])
            // A singleton of a child that has gone, cached in the scope, goes at the scope's
            // next resolve of a shared service (as withOverrides documents).
            do {
                let child = registry.makeChild()
                child.register(Service.self, scope: scope, factory: factory(tally, builds))
                expect([try child.resolve(Service.self)], are: [5])
            }
            expectLive(tally, scope == .singleton ? 2 : 0)
            expect([try registry.resolve(Service.self)], are: [scope == .singleton ? 4 : 6])
            expectLive(tally, scope == .singleton ? 1 : 0)
        }
        expectLive(tally, 0)
    }

    func survivesFailingFactories(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        let pairAttempts = Counter()
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope) { [make] _ in
                let serial = builds.increment()
                let built = make(serial, tally)
                if serial == 1 { throw FactoryError(message: "fails after building") }
                return built
            }
            registry.register(Pair<Service>.self) { r in
                let first: Service = try r.resolve()
                if pairAttempts.increment() == 1 { throw FactoryError(message: "fails halfway") }
                return Pair(first: first, second: try r.resolve())
            }
            #expect(throws: ResolutionError.self) { try registry.resolve(Service.self) }
            expectLive(tally, 0)
            expect([try registry.resolve(Service.self)], are: [2])
            expectLive(tally, scope == .singleton ? 1 : 0)
            // What the failed resolve built, its `.graph` instance too, is gone with it.
            #expect(throws: ResolutionError.self) { try registry.resolve(Pair<Service>.self) }
            expectLive(tally, scope == .singleton ? 1 : 0)
            #expect(builds.value == (scope == .singleton ? 2 : 3))
            let pair = try registry.resolve(Pair<Service>.self)
            let shared = scope == .graph || (scope == .weak && isObject)
            expect([pair.first, pair.second], are: scope == .singleton ? [2, 2] : shared ? [4, 4] : [4, 5])
        }
        expectLive(tally, 0)
    }

    func survivesValidation(_ scope: Scope) throws {
        let tally = LifetimeTally()
        let builds = Counter()
        do {
            let registry = ServiceRegistry()
            registry.register(Service.self, scope: scope, factory: factory(tally, builds))
            registry.register(Pair<Service>.self) { r in Pair(first: try r.resolve(), second: try r.resolve()) }
            try registry.validate()
            // Built in isolation and dropped; nothing cached.
            expectLive(tally, 0)
            let validationBuilds = builds.value
            #expect(validationBuilds >= 2)
            expect([try registry.resolve(Service.self)], are: [validationBuilds + 1])
        }
        expectLive(tally, 0)
    }
}

// MARK: Tests

@Suite("Type zoo")
struct TypeZooTests {
    @Test func theZooHasTheShapesItClaims() {
        #expect(MemoryLayout<Nothing>.size == 0)
        #expect(MemoryLayout<Suit>.size == 1)
        #expect(MemoryLayout<Ledger>.size > 3 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<SIMD4<Double>>.alignment > MemoryLayout<Int>.alignment)
        #expect(MemoryLayout<Badge>.size <= 3 * MemoryLayout<Int>.size)
    }

    /// The paths without an override scope, in a process of their own, where no other test
    /// opens a scope or adds an observer meanwhile: a cached singleton is copied straight
    /// out of the table (see ``FastPath``), not through its registration as in the process
    /// that runs the other tests in parallel.
    @Test func everyTypeComesIntactOffTheFastPath() async {
        await #expect(processExitsWith: .success) {
            precondition(FastPath.isOpen)
            for specimen in zoo {
                for scope in scopes {
                    try specimen.resolvesDirectly(scope)
                    try specimen.resolvesThroughAResolver(scope)
                    try specimen.resolvesThroughAChild(scope)
                    try specimen.resolvesWithArguments(scope)
                    try specimen.resolvesAsAnOptional(scope)
                    try specimen.resolvesThroughInjected(scope)
                    try specimen.resolvesWhileObserved(scope)
                }
            }
            precondition(FastPath.isOpen)
        }
    }

    @Test(arguments: zoo, scopes)
    func resolvesDirectly(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesDirectly(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesThroughAResolver(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesThroughAResolver(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesInAnOverrideScope(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesInAnOverrideScope(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesThroughAChild(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesThroughAChild(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesWithArguments(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesWithArguments(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesAsAnOptional(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesAsAnOptional(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesThroughInjected(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesThroughInjected(scope)
    }

    @Test(arguments: zoo, scopes)
    func resolvesWhileObserved(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.resolvesWhileObserved(scope)
    }

    @Test(arguments: zoo, scopes)
    func survivesReplacement(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.survivesReplacement(scope)
    }

    @Test(arguments: zoo, scopes)
    func survivesFailingFactories(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.survivesFailingFactories(scope)
    }

    @Test(arguments: zoo, scopes)
    func survivesValidation(_ specimen: any ZooSpecimen, scope: Scope) throws {
        try specimen.survivesValidation(scope)
    }

    /// On Linux, `as AnyObject` makes an `any Error` the box the runtime keeps it in: the
    /// registry held that box weakly, which no cast takes back to `any Error`, so it built a
    /// `.weak` error again on every resolve, and it handed observers the box.
    @Test func aWeakErrorIsSharedWhileHeldAndObserversSeeTheErrorObject() throws {
        let tally = LifetimeTally()
        let builds = Counter()
        let registry = ServiceRegistry()
        registry.register((any Error).self, scope: .weak) { _ in Fault(Tracker(builds.increment(), tally)) }
        let observed = Mutex<[ObjectIdentifier?]>([])
        let token = registry.addResolutionObserver { event in
            let instance = event.instance.map(ObjectIdentifier.init)
            observed.withLock { $0.append(instance) }
        }
        defer { registry.removeResolutionObserver(token) }
        let first = try #require(try registry.resolve((any Error).self) as? Fault)
        let second = try #require(try registry.resolve((any Error).self) as? Fault)
        #expect(first === second)
        #expect(builds.value == 1)
        #expect(observed.withLock { $0 } == [ObjectIdentifier(first), ObjectIdentifier(first)])
    }

    @Test func anOptionalRegisteredAsSuchIsResolvedAsItIsNotThroughItsWrappedType() throws {
        let tally = LifetimeTally()
        let registry = ServiceRegistry()
        registry.register(Ledger?.self) { _ in nil }
        registry.register(Ledger.self) { _ in Ledger(1, tally) }
        #expect(try registry.resolve(Ledger?.self) == nil)
        let inferred: Ledger? = try registry.resolve()
        #expect(inferred == nil)
        expectLiveIsZero(tally)
    }

    private func expectLiveIsZero(_ tally: LifetimeTally) {
        #expect(tally.live == 0)
    }
}
