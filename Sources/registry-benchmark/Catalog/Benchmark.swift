/// One measured pairing of a case (what is done) and a subject (who does it).
struct Benchmark {
    /// The case name, such as `singleton` or `lookup-10000` (see ``CaseName``).
    let caseName: String
    /// The subject name, such as `registry` or `url-block` (see ``SubjectName``).
    let subject: String
    /// How the operations run.
    let workload: Workload
    /// Makes the service source the workload resolves from, as the workload makes it: for
    /// tests, which check that a case resolves from the subject it names. `nil` for a case
    /// that resolves through no ``ServiceSource`` (registering, start-up, the router,
    /// `@Injected`, the override scope).
    var source: (() throws -> any ServiceSource)? = nil
}

/// The case names the issue fixes, plus the start-up cases; other files may add their own.
enum CaseName {
    static let singleton = "singleton"
    static let transient = "transient"
    static let chain3 = "chain3"
    static let named = "named"
    static let argument = "argument"
    static let graph = "graph"
    static let lookup10 = "lookup-10"
    static let lookup10000 = "lookup-10000"
    static let register = "register"
    static let threads1 = "threads-1"
    static let threads2 = "threads-2"
    static let overrideScope = "override-scope"
    /// `threads-1` and `threads-2` with a singleton per thread instead of one for all.
    static let threads1Own = "threads-1-own"
    static let threads2Own = "threads-2-own"
    /// Reading an `@Injected` property resolved before.
    static let injected = "injected"

    /// The start-up case for `components` components: installing all of them.
    static func startup(components: Int) -> String { "startup-\(components)" }

    /// Every name the issue lists, in its order.
    static let issueCases = [
        singleton, transient, chain3, named, argument, graph, lookup10, lookup10000, register,
        threads1, threads2, overrideScope,
    ]
}

/// The subject names: the package, the four baselines it is measured against, and two
/// floors (`direct-owned`, `frozen-table`) that are not the issue's.
enum SubjectName {
    /// Constructing the service, or reading a `static let`: the floor.
    static let direct = "direct"
    /// `direct` behind a call the optimizer may not inline, which hands the service back
    /// owned (+1), as every `resolve` does: what any container pays before it looks for
    /// anything. Not one of the issue's subjects; it shows how much of a ratio is left
    /// for the container itself.
    static let directOwned = "direct-owned"
    /// `ServiceRegistry`, the package under test.
    static let registry = "registry"
    /// Closures registered under URL strings at launch, called with `[String: Any]`.
    static let urlBlock = "url-block"
    /// Targets found by type-name string at run time and called through dynamic casts.
    static let mediator = "mediator"
    /// `[ObjectIdentifier: () -> Any]` behind a lock.
    static let naiveDictionary = "naive-dictionary"
    /// Typed factories in a table filled once and read with no lock, without the registry's
    /// contract: what finding a service at run time and calling its factory costs at
    /// least. Not one of the issue's subjects.
    static let frozenTable = "frozen-table"

    /// Every subject, in table order.
    static let all = [direct, directOwned, registry, urlBlock, mediator, naiveDictionary, frozenTable]
}
