import ServiceRegistry
import Testing

/// Runs seeded random sequences of registrations, resolves, holds and drops against a real
/// registry and a small model of API.md and Docs/Scopes.md, and checks after every
/// operation that the two agree: which registration answers (a registry's own before its
/// parent's; a new one replaces the old), why a resolve fails, which instance it returns,
/// that only a resolve runs a factory, and which instances are still alive.
///
/// A failure prints the seed and the operations so far; `RegistryModelTests.run(seed:)`
/// replays one sequence. `RegistryModelOverrideTests` runs the same model with override
/// scopes and dependencies between services.
@Suite("Registry against a reference model")
struct RegistryModelTests {
    static let sequences: UInt64 = 300
    static let operationsPerSequence = 40

    @Test func registryAgreesWithTheModelOnRandomSequences() async {
        if let failure = await Self.firstFailure(seeds: 1...Self.sequences, options: .plain) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// Runs the sequence `seed` generates; the failure report, or `nil` when the registry
    /// and the model agreed throughout.
    static func run(seed: UInt64, options: ModelOptions = .plain) async -> String? {
        var sequence = ModelSequence(seed: seed, options: options, operations: operationsPerSequence)
        guard let mismatch = await sequence.run() else { return nil }
        return "seed \(seed): \(mismatch)\nOperations (replay with \(options.replay)(seed: \(seed))):\n"
            + sequence.log.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }

    /// The report of the first sequence of `seeds` on which the registry and the model
    /// disagree.
    static func firstFailure(seeds: ClosedRange<UInt64>, options: ModelOptions) async -> String? {
        for seed in seeds {
            if let failure = await run(seed: seed, options: options) { return failure }
        }
        return nil
    }
}

/// What a sequence may do beyond registering, resolving, holding and dropping.
struct ModelOptions {
    /// Open `withOverrides` scopes, possibly nested, around some of the operations,
    /// capture scopes with `OverrideScope.current` to resolve in them later, ask for
    /// optional services, and validate.
    var overrides: Bool
    /// Give registrations factories that resolve other services, through their resolver
    /// or through a registry directly.
    var dependencies: Bool
    /// The call that replays one sequence, for the failure report.
    var replay: String

    static let plain = ModelOptions(overrides: false, dependencies: false, replay: "RegistryModelTests.run")
}
