import ServiceRegistry
import Synchronization
import Testing

// Fixtures are private to this file so they never clash with other test files' types.

private protocol IsolatedReviews: Sendable {
    var owner: Int { get }
}

private protocol IsolatedDetail: AnyObject, Sendable {
    var reviews: any IsolatedReviews { get }
}

/// The owner number says which task's override built it; -1 is the real one.
private final class OwnedReviews: IsolatedReviews {
    let owner: Int
    init(owner: Int) { self.owner = owner }
}

private final class IsolatedDetailImpl: IsolatedDetail {
    let reviews: any IsolatedReviews
    init(reviews: any IsolatedReviews) { self.reviews = reviews }
}

private final class Tally: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func add(_ amount: Int = 1) { value.wrappingAdd(amount, ordering: .relaxed) }
}

private let realOwner = -1

@Suite("withOverrides: isolation under load")
struct OverrideIsolationTests {
    static let tasks = 48
    static let resolvesPerTask = 20
    static let rounds = 5

    /// A registry wired the real way; `detailRuns` counts builds of the real detail.
    private static func makeRegistry(detailScope: Scope, detailRuns: Tally, reviewRuns: Tally) -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.register(IsolatedReviews.self, scope: .singleton) { _ in
            reviewRuns.add()
            return OwnedReviews(owner: realOwner)
        }
        registry.register(IsolatedDetail.self, scope: detailScope) { r in
            detailRuns.add()
            return IsolatedDetailImpl(reviews: try r.resolve(IsolatedReviews.self))
        }
        return registry
    }

    /// Each task overrides the same service of the same registry with its own mock, then
    /// resolves (directly and as a dependency) again and again, yielding in between so the
    /// tasks interleave. Every answer is checked; counts are exact.
    @Test(arguments: [Scope.transient, .singleton, .graph, .weak])
    func concurrentTasksEachSeeOnlyTheirOwnOverride(mockScope: Scope) async throws {
        for _ in 0..<Self.rounds {
            let detailRuns = Tally()
            let reviewRuns = Tally()
            let mockRuns = Tally()
            let wrong = Tally()
            let checks = Tally()
            let registry = Self.makeRegistry(detailScope: .transient, detailRuns: detailRuns, reviewRuns: reviewRuns)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for owner in 0..<Self.tasks {
                    group.addTask {
                        try await registry.withOverrides {
                            $0.register(IsolatedReviews.self, scope: mockScope) { _ in
                                mockRuns.add()
                                return OwnedReviews(owner: owner)
                            }
                        } operation: {
                            // Held across the whole loop, so a `.weak` mock stays shared.
                            let held = try registry.resolve(IsolatedReviews.self)
                            for _ in 0..<Self.resolvesPerTask {
                                let direct = try registry.resolve(IsolatedReviews.self)
                                await Task.yield()
                                let viaDependency = try registry.resolve(IsolatedDetail.self).reviews
                                if direct.owner != owner || viaDependency.owner != owner { wrong.add() }
                                checks.add()
                                await Task.yield()
                            }
                            withExtendedLifetime(held) {}
                        }
                    }
                }
                try await group.waitForAll()
            }

            #expect(checks.count == Self.tasks * Self.resolvesPerTask)
            #expect(wrong.count == 0)
            // Each resolve of a transient or graph mock builds one; a shared mock is one per task.
            let perTask = mockScope == .singleton || mockScope == .weak ? 1 : 1 + 2 * Self.resolvesPerTask
            #expect(mockRuns.count == Self.tasks * perTask)
            #expect(detailRuns.count == Self.tasks * Self.resolvesPerTask)
            // The real reviews were never needed, so never built.
            #expect(reviewRuns.count == 0)
            // The base registry is unchanged: its real singleton is built now, once.
            #expect(try registry.resolve(IsolatedDetail.self).reviews.owner == realOwner)
            #expect(try registry.resolve(IsolatedReviews.self).owner == realOwner)
            #expect(reviewRuns.count == 1)
        }
    }

    /// Real singletons built inside many concurrent scopes: each scope builds its own, from
    /// its own mock; tasks without a scope share the registry's one real instance.
    @Test func singletonsBuiltInConcurrentScopesStayInTheirScopes() async throws {
        for _ in 0..<Self.rounds {
            let detailRuns = Tally()
            let reviewRuns = Tally()
            let wrong = Tally()
            let registry = Self.makeRegistry(detailScope: .singleton, detailRuns: detailRuns, reviewRuns: reviewRuns)
            let plainTasks = 16

            let realInstances = try await withThrowingTaskGroup(of: Set<ObjectIdentifier>.self) { group in
                for owner in 0..<Self.tasks {
                    group.addTask {
                        try await registry.withOverrides {
                            $0.register(IsolatedReviews.self) { _ in OwnedReviews(owner: owner) }
                        } operation: {
                            let first = try registry.resolve(IsolatedDetail.self)
                            for _ in 0..<Self.resolvesPerTask {
                                await Task.yield()
                                let again = try registry.resolve(IsolatedDetail.self)
                                if again !== first || again.reviews.owner != owner { wrong.add() }
                            }
                        }
                        return []
                    }
                }
                for _ in 0..<plainTasks {
                    group.addTask {
                        var seen = Set<ObjectIdentifier>()
                        for _ in 0..<Self.resolvesPerTask {
                            await Task.yield()
                            let detail = try registry.resolve(IsolatedDetail.self)
                            if detail.reviews.owner != realOwner { wrong.add() }
                            seen.insert(ObjectIdentifier(detail))
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1) }
            }

            #expect(wrong.count == 0)
            // One build per scope, plus exactly one real build shared by every plain task.
            #expect(detailRuns.count == Self.tasks + 1)
            #expect(reviewRuns.count == 1)
            #expect(realInstances.count == 1)
            let afterwards = try registry.resolve(IsolatedDetail.self)
            #expect(realInstances == [ObjectIdentifier(afterwards)])
            #expect(detailRuns.count == Self.tasks + 1)
        }
    }

    /// Nested scopes in many tasks at once: inside the inner scope each task sees its inner
    /// mock; after it, its own outer mock again — never another task's.
    @Test func nestedScopesInConcurrentTasksComeBackToTheirOwnOuterScope() async throws {
        let registry = Self.makeRegistry(detailScope: .transient, detailRuns: Tally(), reviewRuns: Tally())
        let wrong = Tally()
        let checks = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for owner in 0..<Self.tasks {
                group.addTask {
                    let outer = owner
                    let inner = owner + 1_000
                    try await registry.withOverrides {
                        $0.register(IsolatedReviews.self) { _ in OwnedReviews(owner: outer) }
                    } operation: {
                        for _ in 0..<Self.resolvesPerTask {
                            try await registry.withOverrides {
                                $0.register(IsolatedReviews.self) { _ in OwnedReviews(owner: inner) }
                            } operation: {
                                await Task.yield()
                                if try registry.resolve(IsolatedDetail.self).reviews.owner != inner { wrong.add() }
                            }
                            await Task.yield()
                            if try registry.resolve(IsolatedDetail.self).reviews.owner != outer { wrong.add() }
                            checks.add()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(checks.count == Self.tasks * Self.resolvesPerTask)
        #expect(wrong.count == 0)
        #expect(try registry.resolve(IsolatedDetail.self).reviews.owner == realOwner)
    }

    /// The sync form on many threads at once (tasks that never suspend inside the scope).
    @Test func syncScopesOnManyThreadsEachSeeOnlyTheirOwnOverride() async throws {
        let registry = Self.makeRegistry(detailScope: .transient, detailRuns: Tally(), reviewRuns: Tally())
        let wrong = Tally()
        let checks = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for owner in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.resolvesPerTask {
                        try registry.withOverrides {
                            $0.register(IsolatedReviews.self, scope: .singleton) { _ in OwnedReviews(owner: owner) }
                        } operation: { () throws in
                            for _ in 0..<10 {
                                if try registry.resolve(IsolatedDetail.self).reviews.owner != owner { wrong.add() }
                                checks.add()
                            }
                        }
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(checks.count == Self.tasks * Self.resolvesPerTask * 10)
        #expect(wrong.count == 0)
        #expect(try registry.resolve(IsolatedDetail.self).reviews.owner == realOwner)
    }
}
