import ServiceRegistry

/// `override-scope`: the transient resolve of `transient`, made inside a `withOverrides`
/// scope that overrides the very service resolved (as a test swapping in a mock does).
/// Compared with `transient`/`registry`, it shows what the scope costs each resolve.
enum OverrideScopeCases {
    /// The override-scope benchmarks: the registry, and `direct` as the floor.
    ///
    /// - Parameter options: Unused.
    /// - Returns: One case × two subjects; the baselines have no override scopes.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        [
            Benchmark(caseName: CaseName.overrideScope, subject: SubjectName.direct, workload: .calls {
                ResolveCases.transient(DirectSource())
            }),
            Benchmark(caseName: CaseName.overrideScope, subject: SubjectName.registry, workload: .calls {
                let registry = RegistrySubject.makeRegistry()
                return { operations in
                    try resolveInOverrideScope(registry, operations: operations) { blackHole($0) }
                    return nil
                }
            }),
        ]
    }

    /// Enters one override scope that replaces ``TrivialService`` and resolves it
    /// `operations` times inside it.
    ///
    /// - Parameters:
    ///   - registry: A registry from ``RegistrySubject/makeRegistry()``.
    ///   - operations: How many resolves to make in the scope.
    ///   - consume: Receives each resolved instance.
    /// - Throws: ``ResolutionError`` if a resolve fails.
    static func resolveInOverrideScope(
        _ registry: ServiceRegistry, operations: Int, consume: (any TrivialService) -> Void
    ) throws {
        try registry.withOverrides {
            $0.register(TrivialService.self) { _ in TrivialServiceImpl(value: overrideValue) }
        } operation: {
            for _ in 0..<operations { consume(try registry.resolve(TrivialService.self)) }
        }
    }

    /// The value of the overriding instances, so tests can tell them from the real ones.
    static let overrideValue = 3
}
