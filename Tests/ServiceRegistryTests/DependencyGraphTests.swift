import ServiceRegistry
import ServiceRegistryTestComponent
import Synchronization
import Testing

// Fixtures are private to this file so they never clash with other test files' types.

private protocol BookDetailView: Sendable {}
private protocol CatalogStore: Sendable {}
private protocol ReviewFeed: Sendable {}
private protocol ReviewStore: Sendable {}
private protocol ReaderView: Sendable {}
private protocol PageCache: Sendable {}
private protocol Typesetter: Sendable {}
private protocol Hyphenator: Sendable {}
private protocol ShareSheet: Sendable {}

private struct Node: BookDetailView, CatalogStore, ReviewFeed, ReviewStore, ReaderView, PageCache, Typesetter,
    Hyphenator, ShareSheet
{}

private struct CatalogModule: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(CatalogStore.self, scope: .singleton) { _ in Node() }
    }
}

private struct ReviewModule: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(ReviewFeed.self, scope: .singleton) { r in
            _ = try r.resolve(ReviewStore.self)  // never registered
            return Node()
        }
    }
}

private struct DetailModule: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(BookDetailView.self) { r in
            _ = try r.resolve(CatalogStore.self)
            _ = try r.resolve(ReviewFeed.self)
            return Node()
        }
    }
}

/// BookDetailView → CatalogStore, ReviewFeed → (missing) ReviewStore; three assemblies.
/// Sets up a second registry while it is installed in the first.
private struct SetupModule: ServiceAssembly {
    let other: ServiceRegistry

    func assemble(into registry: ServiceRegistry) {
        registry.register(CatalogStore.self, scope: .singleton) { _ in Node() }
        other.register(CatalogStore.self, scope: .singleton) { _ in Node() }
    }
}

private func makeAppRegistry() -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.install(CatalogModule(), ReviewModule(), DetailModule())
    return registry
}

/// Typesetter ⇄ Hyphenator, a cycle; ReaderView depends on Typesetter.
private func makeCyclicRegistry() -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(ReaderView.self) { r in
        _ = try r.resolve(Typesetter.self)
        return Node()
    }
    registry.register(Typesetter.self) { r in
        _ = try r.resolve(Hyphenator.self)
        return Node()
    }
    registry.register(Hyphenator.self) { r in
        _ = try r.resolve(Typesetter.self)
        return Node()
    }
    return registry
}

private final class Tally: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func add() { value.wrappingAdd(1, ordering: .relaxed) }
}

/// Checks the shape of a DOT document line by line: a `digraph` header, node and edge
/// statements ending in `;`, quotes balanced, every edge endpoint declared as a node.
private func expectWellFormedDOT(_ dot: String, sourceLocation: SourceLocation = #_sourceLocation) {
    var lines = dot.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.last == "", "ends with a newline", sourceLocation: sourceLocation)
    lines.removeLast()
    #expect(lines.first == "digraph ServiceRegistry {", sourceLocation: sourceLocation)
    #expect(lines.last == "}", sourceLocation: sourceLocation)
    var declared = Set<String>()
    var referenced = Set<String>()
    for line in lines.dropFirst().dropLast() {
        #expect(line.hasPrefix("  ") && line.hasSuffix(";"), "statement: \(line)", sourceLocation: sourceLocation)
        let ids = quotedStrings(in: line)
        #expect(ids != nil, "balanced quotes: \(line)", sourceLocation: sourceLocation)
        guard let ids else { continue }
        let body = line.trimmingPrefix("  ")
        if body.hasPrefix("rankdir") || body.hasPrefix("node [") { continue }
        if line.contains("\" -> \"") {
            referenced.insert(ids[0])
            referenced.insert(ids[1])
        } else {
            let isNode = body.hasPrefix("\"") && line.contains(" [label=\"")
            #expect(isNode, "node: \(line)", sourceLocation: sourceLocation)
            declared.insert(ids[0])
        }
    }
    #expect(referenced.isSubset(of: declared), sourceLocation: sourceLocation)
}

/// The quoted strings of a DOT line (with `\"` and `\\` escapes), or `nil` if a quote is open.
/// Read scalar by scalar, as Graphviz reads it: a quote that a combining mark follows is
/// one `Character` with the mark, but a quote all the same.
private func quotedStrings(in line: String) -> [String]? {
    var result: [String] = []
    var current: String.UnicodeScalarView?
    var escaped = false
    for character in line.unicodeScalars {
        if var text = current {
            if escaped {
                text.append(character)
                escaped = false
                current = text
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                result.append(String(text))
                current = nil
            } else {
                text.append(character)
                current = text
            }
        } else if character == "\"" {
            current = String.UnicodeScalarView()
        }
    }
    return current == nil ? result : nil
}

@Suite("dependencyGraph()")
struct DependencyGraphTests {
    @Test func nodesCarryTypeNameScopeAndTheAssemblyThatRegisteredThem() throws {
        let graph = makeAppRegistry().dependencyGraph()
        #expect(graph.nodes.map(\.id) == ["BookDetailView", "CatalogStore", "ReviewFeed", "ReviewStore (missing)"])

        let detail = try #require(graph.node("BookDetailView"))
        #expect(detail.serviceType == "BookDetailView")
        #expect(detail.name == nil)
        #expect(detail.argumentType == nil)
        #expect(detail.scope == .transient)
        #expect(detail.origin == "DetailModule")
        #expect(detail.registryLevel == 0)
        #expect(detail.status == .failed(.notRegistered))

        let catalog = try #require(graph.node("CatalogStore"))
        #expect(catalog.scope == .singleton)
        #expect(catalog.origin == "CatalogModule")
        #expect(catalog.status == .resolved)

        let feed = try #require(graph.node("ReviewFeed"))
        #expect(feed.origin == "ReviewModule")
        #expect(feed.status == .failed(.notRegistered))

        let missing = try #require(graph.node("ReviewStore (missing)"))
        #expect(missing.serviceType == "ReviewStore")
        #expect(missing.scope == nil)
        #expect(missing.origin == "not registered")
        #expect(missing.status == .missing)
    }

    /// An assembly installed in one registry may register in another one as well; there the
    /// registration is a direct one, since the assembly was not installed in it.
    @Test func anAssemblyRegisteringInAnotherRegistryIsNotThatRegistrysOrigin() throws {
        let registry = ServiceRegistry()
        let other = ServiceRegistry()
        registry.install(SetupModule(other: other))
        #expect(try #require(registry.dependencyGraph().node("CatalogStore")).origin == "SetupModule")
        #expect(try #require(other.dependencyGraph().node("CatalogStore")).origin == "registered directly")
    }

    /// Two components may each have a `Config`: two nodes, each under its full name.
    @Test func typesOfOneShortNameGetANodeEach() throws {
        let registry = ServiceRegistry()
        registry.register(ServiceRegistryTestComponent.Config.self) { _ in ServiceRegistryTestComponent.Config() }
        registry.register(Config.self) { r in
            _ = try r.resolve(ReviewStore.self)  // never registered
            return Config()
        }
        let graph = registry.dependencyGraph()
        let configs = graph.nodes.filter { $0.serviceType.hasSuffix("Config") }
        #expect(configs.count == 2)
        #expect(Set(configs.map(\.id)).count == 2)
        let failing = try #require(configs.first { $0.status == .failed(.notRegistered) })
        let resolved = try #require(configs.first { $0.status == .resolved })
        #expect(failing.serviceType == "ServiceRegistryTests.Config")
        #expect(resolved.serviceType == "ServiceRegistryTestComponent.Config")
        #expect(graph.edges.map(\.from) == [failing.id])
    }

    /// Two types declared inside functions of one module read alike even in full, since the
    /// runtime's addresses are left out: each still gets a node of its own, one numbered.
    @Test func typesThatReadAlikeInFullGetANodeEach() {
        let registry = ServiceRegistry()
        registerALocalSettings(in: registry)
        registerAnotherLocalSettings(in: registry)
        let ids = registry.dependencyGraph().nodes.map(\.id)
        #expect(ids.sorted() == ["DependencyGraphTests.Settings", "DependencyGraphTests.Settings #2"])
    }

    private func registerALocalSettings(in registry: ServiceRegistry) {
        struct Settings {}
        registry.register(Settings.self) { _ in Settings() }
    }

    private func registerAnotherLocalSettings(in registry: ServiceRegistry) {
        struct Settings {}
        registry.register(Settings.self) { _ in Settings() }
    }

    /// Two missing services of one short name are two "missing" nodes, each under its full
    /// name; a missing service whose short name nothing else has keeps the short one.
    @Test func missingTypesOfOneShortNameGetANodeEach() throws {
        let registry = ServiceRegistry()
        registry.register(CatalogStore.self) { r in
            _ = try r.resolve(ServiceRegistryTestComponent.Config.self)  // never registered
            return Node()
        }
        registry.register(ReviewFeed.self) { r in
            _ = try? r.resolve(ReviewStore.self)  // never registered
            _ = try r.resolve(Config.self)  // never registered
            return Node()
        }
        let graph = registry.dependencyGraph()
        let missing = graph.nodes.filter { $0.status == .missing }
        #expect(
            missing.map(\.id) == [
                "ReviewStore (missing)", "ServiceRegistryTestComponent.Config (missing)",
                "ServiceRegistryTests.Config (missing)",
            ])
        let catalog = try #require(graph.node("CatalogStore"))
        let feed = try #require(graph.node("ReviewFeed"))
        #expect(graph.dependencies(of: catalog).map(\.node.id) == ["ServiceRegistryTestComponent.Config (missing)"])
        #expect(
            graph.dependencies(of: feed).map(\.node.id) == [
                "ReviewStore (missing)", "ServiceRegistryTests.Config (missing)",
            ])
    }

    /// A missing service whose short name registered types share shows its full name too.
    @Test func aMissingTypeSharingARegisteredShortNameShowsItsFullName() throws {
        let registry = ServiceRegistry()
        registry.register(ServiceRegistryTestComponent.Config.self) { _ in ServiceRegistryTestComponent.Config() }
        registry.register(Config.self) { _ in Config() }
        registry.register(ReviewFeed.self) { r in
            _ = try r.resolve(Config.self, name: "reading")  // never registered
            return Node()
        }
        let graph = registry.dependencyGraph()
        #expect(
            graph.nodes.filter { $0.status == .missing }.map(\.id) == [
                #"ServiceRegistryTests.Config (name: "reading") (missing)"#
            ])
    }

    /// One registered and one missing type of one short name: both show their full names,
    /// so the graph never shows `Config` beside a missing `Config`.
    @Test func aMissingTypeSharingOneRegisteredTypesShortNameShowsBothFullNames() throws {
        let registry = ServiceRegistry()
        registry.register(Config.self) { _ in Config() }
        registry.register(ReviewFeed.self) { r in
            _ = try r.resolve(Config.self)
            _ = try r.resolve(ServiceRegistryTestComponent.Config.self)  // never registered
            return Node()
        }
        let graph = registry.dependencyGraph()
        let feed = try #require(graph.node("ReviewFeed"))
        #expect(
            graph.dependencies(of: feed).map(\.node.id) == [
                "ServiceRegistryTestComponent.Config (missing)", "ServiceRegistryTests.Config",
            ])
        #expect(graph.nodes.map(\.serviceType).filter { $0.hasSuffix("Config") } == [
            "ServiceRegistryTestComponent.Config", "ServiceRegistryTests.Config",
        ])
    }

    /// Full names leave out the address the runtime puts in a private type's name, so the
    /// graph reads the same in every run.
    @Test func fullNamesOfPrivateTypesCarryNoAddress() async throws {
        var ids: [String] = []
        for _ in 0..<3 {
            let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let registry = ServiceRegistry()
                registry.register(PrivateCatalog.Config.self) { _ in PrivateCatalog.Config() }
                registry.register(ServiceRegistryTestComponent.PrivateCatalog.Config.self) { _ in
                    ServiceRegistryTestComponent.PrivateCatalog.Config()
                }
                print(registry.dependencyGraph().nodes.map(\.id).joined(separator: "|"), terminator: "")
            }
            ids.append(String(decoding: result.standardOutputContent, as: UTF8.self))
        }
        #expect(Set(ids).count == 1)
        #expect(
            ids.first == "ServiceRegistryTestComponent.PrivateCatalog.Config|ServiceRegistryTests.PrivateCatalog.Config")
    }

    /// A parent's registration that the child shadows is never built on its own, but a
    /// parent's singleton still resolves it: where it fails, the graph says so. Its
    /// dependency is missing, or registered with an argument it is not given; either way
    /// its factory fails whoever asks.
    @Test(arguments: [ResolutionError.Reason.notRegistered, .argumentMismatch])
    func aShadowedParentRegistrationThatFailsIsShownFailed(reason: ResolutionError.Reason) throws {
        let parent = ServiceRegistry()
        if reason == .argumentMismatch {
            parent.register(ShareSheet.self) { (_, title: String) in Node() }
        }
        parent.register(ReviewFeed.self) { r in
            _ = try r.resolve(ShareSheet.self)  // this factory always fails
            return Node()
        }
        parent.register(PageCache.self, scope: .singleton) { r in
            _ = try r.resolve(ReviewFeed.self)  // built in the parent: the parent's ReviewFeed
            return Node()
        }
        let child = parent.makeChild()
        child.register(ReviewFeed.self) { _ in Node() }
        let graph = child.dependencyGraph()
        let parentsFeed = try #require(graph.nodes.first { $0.serviceType == "ReviewFeed" && $0.registryLevel == 1 })
        #expect(parentsFeed.status == .failed(reason))
        let childsFeed = try #require(graph.nodes.first { $0.serviceType == "ReviewFeed" && $0.registryLevel == 0 })
        #expect(childsFeed.status == .resolved)
        let error = try #require(throws: ValidationError.self) { try child.validate() }
        #expect(error.failures.map(\.registration) == ["PageCache"])
        #expect(error.failures.first?.error.path == ["PageCache", "ReviewFeed", "ShareSheet"])
    }

    /// A failure that depends on the caller, which the caller then catches, leaves the
    /// node as it is: a cycle met from one side, a factory given a bad argument.
    @Test func aFailureThatDependsOnTheCallerIsNotTheNodes() throws {
        let registry = ServiceRegistry()
        registry.register(ReaderView.self) { r in
            _ = try r.resolve(Typesetter.self)
            return Node()
        }
        registry.register(Typesetter.self) { r in
            _ = try? r.resolve(ReaderView.self)  // an optional back-link: a cycle, caught
            return Node()
        }
        registry.register(ShareSheet.self) { (_, title: String) in
            guard !title.isEmpty else { throw GraphTestError() }
            return Node()
        }
        registry.register(Hyphenator.self) { r in
            _ = try? r.resolve(ShareSheet.self, argument: "")
            return Node()
        }
        try registry.validate()
        let graph = registry.dependencyGraph()
        #expect(graph.nodes.first { $0.serviceType == "ReaderView" }?.status == .resolved)
        #expect(graph.nodes.first { $0.serviceType == "ShareSheet" }?.status == .notChecked)
    }

    /// A factory may resolve from another registry directly (`ServiceRegistry.shared`
    /// through `@Injected`): what that registry holds, or lacks, is not a node of this
    /// registry's graph, which would show it as registered here.
    @Test func servicesOfAnotherRegistryAreNotNodes() throws {
        let other = ServiceRegistry()
        other.register(CatalogStore.self, scope: .singleton) { _ in Node() }
        let registry = ServiceRegistry()
        registry.register(BookDetailView.self) { _ in
            _ = try other.resolve(CatalogStore.self)
            _ = try? other.resolve(ReviewStore.self)  // not registered there either
            return Node()
        }
        try registry.validate()
        let graph = registry.dependencyGraph()
        #expect(graph.nodes.map(\.id) == ["BookDetailView"])
        #expect(graph.edges.isEmpty)
    }

    /// A child registry a factory makes is another registry too: its service is not a node,
    /// so what that service's factory resolves from this registry through its resolver
    /// gets no edge, which would lead from a node the graph does not have.
    @Test func aChildRegistryAFactoryMakesIsAnotherRegistryToo() throws {
        let registry = ServiceRegistry()
        registry.register(CatalogStore.self) { _ in Node() }
        registry.register(BookDetailView.self) { [unowned registry] _ in
            let child = registry.makeChild()
            child.register(ReviewFeed.self) { r in
                _ = try r.resolve(CatalogStore.self)
                return Node()
            }
            _ = try child.resolve(ReviewFeed.self)
            return Node()
        }
        try registry.validate()
        let graph = registry.dependencyGraph()
        #expect(graph.nodes.map(\.id) == ["BookDetailView", "CatalogStore"])
        #expect(graph.edges.isEmpty)
    }

    /// As the graph's documentation says: an edge is a resolve through the resolver `r`. A
    /// factory that resolves through the registry directly starts a resolve of its own,
    /// which no edge links to it, whatever its scope; a missing service asked for that way
    /// is a missing node no edge leads to, and validation still reports the factory.
    @Test(arguments: [Scope.transient, .singleton])
    func aServiceResolvedThroughTheRegistryDirectlyHasNoEdgeFromTheFactory(scope: Scope) throws {
        let registry = ServiceRegistry()
        registry.register(ReaderView.self, scope: scope) { [unowned registry] _ in
            _ = try registry.resolve(Typesetter.self)
            _ = try? registry.resolve(ReviewStore.self)  // never registered
            return Node()
        }
        registry.register(Typesetter.self) { _ in Node() }
        let graph = registry.dependencyGraph()
        #expect(graph.nodes.map(\.id) == ["ReaderView", "ReviewStore (missing)", "Typesetter"])
        #expect(graph.edges.isEmpty)
        #expect(graph.node("ReviewStore (missing)")?.status == .missing)
    }

    /// How a factory can ask for a registered service with an argument its registration
    /// does not take.
    enum WrongArgument: CaseIterable, Sendable {
        case anotherType, noArgument, anArgumentWhereNoneIsTaken

        /// The registration asked for: its node id and how its line in the tree names it.
        var dependency: (id: String, path: String, tree: String) {
            switch self {
            case .anotherType, .noArgument: ("ShareSheet <String>", "ShareSheet", "ShareSheet (argument: String)")
            case .anArgumentWhereNoneIsTaken: ("PageCache", "PageCache", "PageCache (no argument)")
            }
        }
    }

    /// A dependency asked for with an argument its registration does not take is not
    /// missing: the edge leads to that registration and is marked as an argument
    /// mismatch, which is also what validation reports.
    @Test(arguments: WrongArgument.allCases)
    func aDependencyAskedWithTheWrongArgumentIsAnArgumentMismatchNotMissing(_ asked: WrongArgument) throws {
        let registry = ServiceRegistry()
        registry.register(ShareSheet.self) { (_, title: String) in Node() }
        registry.register(PageCache.self, scope: .singleton) { _ in Node() }
        registry.register(ReaderView.self) { r in
            switch asked {
            case .anotherType: _ = try r.resolve(ShareSheet.self, argument: 42)
            case .noArgument: _ = try r.resolve(ShareSheet.self)
            case .anArgumentWhereNoneIsTaken: _ = try r.resolve(PageCache.self, argument: 42)
            }
            return Node()
        }
        let dependency = asked.dependency

        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        #expect(error.failures.map(\.registration) == ["ReaderView"])
        #expect(error.failures.map(\.error.reason) == [.argumentMismatch])
        #expect(error.failures.map(\.error.path) == [["ReaderView", dependency.path]])

        let graph = registry.dependencyGraph()
        #expect(!graph.nodes.contains { $0.status == .missing })
        #expect(graph.node("ReaderView")?.status == .failed(.argumentMismatch))
        #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == ["ReaderView -> \(dependency.id)"])
        #expect(graph.edges.map(\.isArgumentMismatch) == [true])
        #expect(graph.edges.map(\.isCycle) == [false])
        let reader = """
            ✗ ReaderView [transient, registered directly] — FAILED: argumentMismatch
            └── ✗ \(dependency.tree) — ARGUMENT MISMATCH
            """
        let shareSheet = "ShareSheet (argument: String) [transient, registered directly] — not checked (no sample argument fits)"
        let pageCache = "PageCache [singleton, registered directly]"
        #expect(graph.textTree == [pageCache, reader, shareSheet].joined(separator: "\n") + "\n")
        #expect(graph.dot.contains(
            #""ReaderView" -> "\#(dependency.id)" [color=red, fontcolor=red, style=dashed, label="argument mismatch"];"#))
        expectWellFormedDOT(graph.dot)
    }

    /// A type and name registered with several argument types: a mismatched resolve has
    /// an edge to each, beside the ordinary edge of a resolve that matched one. Caught
    /// (an optional dependency), the mismatch fails nothing, but the graph still shows it.
    @Test func aMismatchedArgumentLeadsToEachRegistrationOfTheTypeAndName() throws {
        let registry = ServiceRegistry()
        registry.register(ShareSheet.self) { (_, title: String) in Node() }
        registry.register(ShareSheet.self) { (_, page: Int) in Node() }
        registry.register(ReaderView.self) { r in
            _ = try r.resolve(ShareSheet.self, argument: "title")
            _ = try? r.resolve(ShareSheet.self, argument: 1.5)
            return Node()
        }
        try registry.validate()
        let graph = registry.dependencyGraph()
        #expect(
            graph.edges.map { "\($0.from) -> \($0.to)\($0.isArgumentMismatch ? " (argument mismatch)" : "")" } == [
                "ReaderView -> ShareSheet <Int> (argument mismatch)",
                "ReaderView -> ShareSheet <String>",
                "ReaderView -> ShareSheet <String> (argument mismatch)",
            ])
        #expect(!graph.nodes.contains { $0.status == .missing })
        #expect(graph.node("ReaderView")?.status == .resolved)
    }

    /// A factory that asks for a service both as registered, closing a cycle, and with a
    /// wrong argument (each caught): the cycle's edge and the mismatch's are both drawn.
    @Test func aMismatchedArgumentIsDrawnBesideTheCycleOfTheSamePair() throws {
        let registry = ServiceRegistry()
        // PageCache is validated first, so ReaderView → PageCache is met as the cycle.
        registry.register(PageCache.self) { r in
            _ = try r.resolve(ReaderView.self)
            return Node()
        }
        registry.register(ReaderView.self) { r in
            _ = try? r.resolve(PageCache.self)
            _ = try? r.resolve(PageCache.self, argument: 42)
            return Node()
        }
        try registry.validate()
        let graph = registry.dependencyGraph()
        let edges = graph.edges.map { edge in
            "\(edge.from) -> \(edge.to)" + (edge.isCycle ? " (cycle)" : "")
                + (edge.isArgumentMismatch ? " (argument mismatch)" : "")
        }
        #expect(
            edges == [
                "PageCache -> ReaderView",
                "ReaderView -> PageCache (cycle)",
                "ReaderView -> PageCache (argument mismatch)",
            ])
        #expect(
            graph.textTree.contains(
                "    ├── ↺ PageCache — CYCLE\n    └── ✗ PageCache (no argument) — ARGUMENT MISMATCH\n"))
    }

    @Test func edgesShowWhoResolvedWhom() throws {
        let graph = makeAppRegistry().dependencyGraph()
        let edges = graph.edges.map { "\($0.from) -> \($0.to)\($0.isCycle ? " (cycle)" : "")" }
        #expect(
            edges == [
                "BookDetailView -> CatalogStore",
                "BookDetailView -> ReviewFeed",
                "ReviewFeed -> ReviewStore (missing)",
            ])
        let detail = try #require(graph.node("BookDetailView"))
        #expect(graph.dependencies(of: detail).map(\.node.id) == ["CatalogStore", "ReviewFeed"])
    }

    /// A dependency asked for without an argument gets an argument-mismatch edge to each
    /// registration of its type and name, not to one under another name; and nodes are
    /// sorted by service type, then name.
    @Test func mismatchEdgesGoToTheAskedNameOnlyAndNodesSortByTypeThenName() throws {
        let registry = ServiceRegistry()
        registry.register(String.self) { (_, number: Int) in "\(number)" }
        registry.register(String.self, name: "x") { (_, number: Int) in "\(number)" }
        registry.register(String.self, name: "y") { _ in "y" }
        registry.register(Double.self) { r in Double(try r.resolve(String.self)) ?? 0 }

        let graph = registry.dependencyGraph()
        let unnamed = graph.nodes.first { $0.argumentType == "Int" && $0.name == nil }
        #expect(graph.edges.filter(\.isArgumentMismatch).map(\.to) == [unnamed?.id])
        #expect(graph.nodes.map(\.displayName) == ["Double", "String", "String (name: \"x\")", "String (name: \"y\")"])
    }

    @Test func cycleEdgesAreMarked() throws {
        let graph = makeCyclicRegistry().dependencyGraph()
        let edges = graph.edges.map { "\($0.from) -> \($0.to)\($0.isCycle ? " (cycle)" : "")" }
        #expect(
            edges == [
                // Validation meets the cycle from both ends; only the edge that closes the
                // loop is drawn as the cycle.
                "Hyphenator -> Typesetter",
                "ReaderView -> Typesetter",
                "Typesetter -> Hyphenator (cycle)",
            ])
        #expect(graph.nodes.allSatisfy { $0.status == .failed(.circularDependency) })
    }

    @Test func selfDependencyIsACycleEdgeToItself() {
        let registry = ServiceRegistry()
        registry.register(PageCache.self) { r in
            _ = try r.resolve(PageCache.self)
            return Node()
        }
        let graph = registry.dependencyGraph()
        #expect(graph.edges.map(\.from) == ["PageCache"])
        #expect(graph.edges.map(\.to) == ["PageCache"])
        #expect(graph.edges.map(\.isCycle) == [true])
        #expect(graph.textTree == """
            ✗ PageCache [transient, registered directly] — FAILED: circularDependency
            └── ↺ PageCache — CYCLE

            """)
    }

    /// ShareSheet takes a book id and needs CatalogStore, and ReviewStore, which nothing
    /// registers: its edges appear only when a sample book id lets validation build it.
    @Test func anArgumentTakingRegistrationShowsItsDependenciesGivenASample() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogModule())
        registry.register(ShareSheet.self) { (r, bookID: String) in
            _ = try r.resolve(CatalogStore.self)
            _ = try r.resolve(ReviewStore.self)
            return Node()
        }

        let withoutSample = registry.dependencyGraph()
        #expect(withoutSample.edges.isEmpty)
        #expect(withoutSample.node("ShareSheet <String>")?.status == .notChecked)

        let graph = registry.dependencyGraph(sampleArguments: [42, "book 1"])
        #expect(
            graph.edges.map { "\($0.from) -> \($0.to)" } == [
                "ShareSheet <String> -> CatalogStore", "ShareSheet <String> -> ReviewStore (missing)",
            ])
        #expect(graph.node("ShareSheet <String>")?.status == .failed(.notRegistered))
        #expect(graph.textTree == """
            ✗ ShareSheet (argument: String) [transient, registered directly] — FAILED: notRegistered
            ├── CatalogStore [singleton, CatalogModule]
            └── ✗ ReviewStore — MISSING

            """)

        registry.register(ReviewStore.self) { _ in Node() }
        #expect(registry.dependencyGraph(sampleArguments: ["book 1"]).node("ShareSheet <String>")?.status == .resolved)
    }

    /// No sample fits ShareSheet, so it is not checked on its own; but BookDetailView's
    /// factory resolves it with a book id, and what it resolved then is drawn.
    @Test func aNotCheckedRegistrationShowsTheDependenciesItHadWhenAnotherFactoryResolvedIt() throws {
        let registry = ServiceRegistry()
        registry.install(CatalogModule())
        registry.register(BookDetailView.self) { r in
            _ = try r.resolve(ShareSheet.self, argument: "book 1")
            return Node()
        }
        registry.register(ShareSheet.self) { (r, bookID: String) in
            _ = try r.resolve(CatalogStore.self)
            return Node()
        }
        let graph = registry.dependencyGraph(sampleArguments: [42])
        #expect(graph.node("ShareSheet <String>")?.status == .notChecked)
        #expect(
            graph.edges.map { "\($0.from) -> \($0.to)" } == [
                "BookDetailView -> ShareSheet <String>", "ShareSheet <String> -> CatalogStore",
            ])
    }

    @Test func namesArgumentsAndOverridesAppearOnTheirNodes() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewFeed.self, name: "offline", scope: .weak) { _ in Node() }
        registry.register(ShareSheet.self) { (_, bookID: String) in Node() }
        let graph = registry.withOverrides {
            $0.register(PageCache.self, scope: .graph) { _ in Node() }
        } operation: {
            registry.dependencyGraph()
        }
        let named = try #require(graph.nodes.first { $0.serviceType == "ReviewFeed" })
        #expect(named.name == "offline")
        #expect(named.displayName == "ReviewFeed (name: \"offline\")")
        #expect(named.scope == .weak)
        #expect(named.status == .resolved)

        let withArgument = try #require(graph.nodes.first { $0.serviceType == "ShareSheet" })
        #expect(withArgument.argumentType == "String")
        #expect(withArgument.status == .notChecked)

        let overridden = try #require(graph.nodes.first { $0.serviceType == "PageCache" })
        #expect(overridden.origin == "override")
        #expect(overridden.scope == .graph)
        #expect(overridden.id.contains("(override)"))
    }

    @Test func nodesSayWhichRegistryOfAHierarchyHoldsThem() throws {
        let parent = ServiceRegistry()
        parent.install(CatalogModule())
        let child = parent.makeChild()
        child.register(ReaderView.self) { r in
            _ = try r.resolve(CatalogStore.self)
            return Node()
        }
        let graph = child.dependencyGraph()
        let catalog = try #require(graph.nodes.first { $0.serviceType == "CatalogStore" })
        let reader = try #require(graph.nodes.first { $0.serviceType == "ReaderView" })
        #expect(catalog.registryLevel == 1)
        #expect(reader.registryLevel == 0)
        #expect(graph.edges.map { "\($0.from) -> \($0.to)" } == ["ReaderView -> \(catalog.id)"])
        #expect(graph.textTree == """
            ReaderView [transient, registered directly]
            └── CatalogStore [singleton, CatalogModule, parent registry]

            """)
    }

    @Test func dotIsWellFormed() {
        for registry in [makeAppRegistry(), makeCyclicRegistry(), ServiceRegistry()] {
            expectWellFormedDOT(registry.dependencyGraph().dot)
        }
    }

    @Test func dotDrawsMissingFailedAndNotCheckedNodesDistinctly() {
        let registry = makeAppRegistry()
        registry.register(ShareSheet.self) { (_, bookID: String) in Node() }
        let dot = registry.dependencyGraph().dot
        #expect(dot.contains(#""ReviewStore (missing)" [label="ReviewStore\nMISSING", style=dashed, color=red, fontcolor=red];"#))
        #expect(dot.contains(#""ReviewFeed" [label="ReviewFeed\nFAILED: notRegistered\nsingleton · ReviewModule", color=red, fontcolor=red];"#))
        #expect(dot.contains(#""CatalogStore" [label="CatalogStore\nsingleton · CatalogModule"];"#))
        #expect(dot.contains(#"[label="ShareSheet\nargument: String\nnot checked (no sample argument fits)\ntransient · registered directly", style=dotted];"#))
        #expect(dot.contains(#""ReviewFeed" -> "ReviewStore (missing)";"#))
    }

    @Test func dotDrawsCycleEdgesDistinctly() {
        let dot = makeCyclicRegistry().dependencyGraph().dot
        #expect(dot.contains(#""Typesetter" -> "Hyphenator" [color=red, fontcolor=red, label="cycle"];"#))
        #expect(dot.contains(#""ReaderView" -> "Typesetter";"#))
    }

    /// A picture shows only the labels: a child's registration and the parent's one it
    /// shadows must not draw as two identical boxes, so a label says which registry holds
    /// the service, as the text tree does.
    @Test func dotLabelsSayWhichRegistryOfAHierarchyHoldsANode() throws {
        let parent = ServiceRegistry()
        parent.register(ReaderView.self) { _ in Node() }
        parent.register(PageCache.self, scope: .singleton) { r in
            _ = try r.resolve(ReaderView.self)  // built in the parent: the parent's ReaderView
            return Node()
        }
        let child = parent.makeChild()
        child.register(ReaderView.self) { _ in Node() }
        let grandchild = child.makeChild()
        let dot = grandchild.dependencyGraph().dot
        #expect(dot.contains(#""ReaderView @1" [label="ReaderView\ntransient · registered directly · parent registry"];"#))
        #expect(dot.contains(#""ReaderView @2" [label="ReaderView\ntransient · registered directly · ancestor registry 2"];"#))
        let labels = dot.split(separator: "\n").compactMap { line in
            line.firstRange(of: "[label=\"").map { line[$0.upperBound...].prefix { $0 != "\"" } }
        }
        #expect(labels.count == 3)
        #expect(Set(labels).count == labels.count)
        expectWellFormedDOT(dot)
    }

    @Test func dotEscapesQuotesInNames() {
        let registry = ServiceRegistry()
        registry.register(ReviewFeed.self, name: "say \"hi\"") { _ in Node() }
        let dot = registry.dependencyGraph().dot
        // The display name `ReviewFeed (name: "say \"hi\"")` quotes the name as Swift
        // source would; DOT escapes each quote and backslash of it once more.
        #expect(dot.contains(#"  "ReviewFeed (name: \"say \\\"hi\\\"\")" [label="ReviewFeed (name: \"say \\\"hi\\\"\")\n"#))
        expectWellFormedDOT(dot)
    }

    /// Graphviz reads the document byte by byte: a quote or a backslash that a combining
    /// mark follows, one `Character` with the mark in Swift, is escaped as any other, or the
    /// quote would end the string and the rest of the name would be DOT.
    @Test func dotEscapesAQuoteThatACombiningMarkFollows() throws {
        let registry = ServiceRegistry()
        registry.register(ReviewFeed.self, name: "a\"\u{301}] -> x [b\\\u{301}") { _ in Node() }
        let graph = registry.dependencyGraph()
        let node = try #require(graph.nodes.first)
        let line = try #require(graph.dot.split(separator: "\n").first { $0.hasPrefix("  \"") })
        #expect(quotedStrings(in: String(line))?.first == node.id)
        expectWellFormedDOT(graph.dot)
    }

    @Test func textTreeRendersTheAppForATerminal() {
        #expect(makeAppRegistry().dependencyGraph().textTree == """
            ✗ BookDetailView [transient, DetailModule] — FAILED: notRegistered
            ├── CatalogStore [singleton, CatalogModule]
            └── ✗ ReviewFeed [singleton, ReviewModule] — FAILED: notRegistered
                └── ✗ ReviewStore — MISSING

            """)
    }

    @Test func textTreeRendersCycles() {
        #expect(makeCyclicRegistry().dependencyGraph().textTree == """
            ✗ Hyphenator [transient, registered directly] — FAILED: circularDependency
            └── ✗ Typesetter [transient, registered directly] — FAILED: circularDependency
                └── ↺ Hyphenator — CYCLE
            ✗ ReaderView [transient, registered directly] — FAILED: circularDependency
            └── ✗ Typesetter [transient, registered directly] — FAILED: circularDependency (see above)

            """)
    }

    @Test func textTreePrintsASharedSubtreeOnce() {
        let registry = ServiceRegistry()
        registry.register(Hyphenator.self) { _ in Node() }
        registry.register(Typesetter.self) { r in
            _ = try r.resolve(Hyphenator.self)
            return Node()
        }
        registry.register(ReaderView.self) { r in
            _ = try r.resolve(Typesetter.self)
            return Node()
        }
        registry.register(ShareSheet.self) { r in
            _ = try r.resolve(Typesetter.self)
            return Node()
        }
        let graph = registry.dependencyGraph()
        #expect(graph.textTree == """
            ReaderView [transient, registered directly]
            └── Typesetter [transient, registered directly]
                └── Hyphenator [transient, registered directly]
            ShareSheet [transient, registered directly]
            └── Typesetter [transient, registered directly] (see above)

            """)
        #expect(graph.description == graph.textTree)
    }

    /// A loop whose edges were each met first as an ordinary dependency has no root and no
    /// cycle edge: a factory that takes an argument resolves, for some arguments only, a
    /// service that resolves it back. Its services are printed all the same, not left out
    /// of the tree because another service is a root. With no other service, nothing is a
    /// root, so every service is one: each is printed, or referred to, in the order of the
    /// nodes.
    @Test(arguments: [true, false])
    func textTreePrintsALoopThatNoRootLeadsTo(besideAnotherRoot: Bool) {
        let registry = ServiceRegistry()
        if besideAnotherRoot {
            registry.register(ReaderView.self) { _ in Node() }
        }
        registry.register(PageCache.self) { r in
            _ = try r.resolve(ShareSheet.self, argument: 1)
            return Node()
        }
        registry.register(ShareSheet.self) { (r, page: Int) in
            if page == 0 { _ = try r.resolve(PageCache.self) }
            return Node()
        }
        let graph = registry.dependencyGraph(sampleArguments: [0])
        #expect(graph.node("ShareSheet <Int>")?.status == .failed(.circularDependency))
        let loop = """
            PageCache [transient, registered directly]
            └── ✗ ShareSheet (argument: Int) [transient, registered directly] — FAILED: circularDependency
                └── PageCache [transient, registered directly] (see above)

            """
        #expect(
            graph.textTree
                == (besideAnotherRoot
                    ? "ReaderView [transient, registered directly]\n" + loop
                    : loop
                        + "✗ ShareSheet (argument: Int) [transient, registered directly] — FAILED: circularDependency "
                        + "(see above)\n"))
    }

    /// Rendering and walking a large graph take time in proportion to its size: each
    /// node's dependencies are found by its id, not by scanning every edge (which took
    /// about 4 s here in a debug build). No clock is read: on shared or sanitized CI
    /// machines a time limit fails at random. What is checked is that the lookups by id
    /// answer as scanning the nodes and edges does.
    @Test func aLargeGraphIsWalkedByIdAsByScanning() throws {
        let registry = ServiceRegistry()
        for index in 0..<50 {
            registry.register(PageCache.self, name: "leaf \(index)") { _ in Node() }
        }
        for index in 0..<4_000 {
            registry.register(ReviewFeed.self, name: "feed \(index)") { r in
                _ = try r.resolve(PageCache.self, name: "leaf \(index % 50)")
                return Node()
            }
        }
        let graph = registry.dependencyGraph()
        #expect(graph.nodes.count == 4_050)

        let tree = graph.textTree
        let dependencyCount = graph.nodes.reduce(0) { $0 + graph.dependencies(of: $1).count }
        #expect(dependencyCount == 4_000)
        #expect(tree.split(separator: "\n").count == 8_000)

        let sampled = graph.nodes.filter { $0.name == "feed 7" || $0.name == "leaf 7" }
        #expect(sampled.count == 2)
        for node in sampled {
            #expect(graph.node(node.id)?.id == node.id)
            let byScan = graph.edges.filter { $0.from == node.id }
            #expect(graph.dependencies(of: node).map(\.edge) == byScan)
            #expect(graph.dependencies(of: node).map(\.node.id) == byScan.map(\.to))
        }
        #expect(graph.node("no such node") == nil)
    }

    @Test func graphOfAnEmptyRegistryIsEmpty() {
        let graph = ServiceRegistry().dependencyGraph()
        #expect(graph.nodes.isEmpty)
        #expect(graph.edges.isEmpty)
        #expect(graph.textTree == "")
    }

    @Test func agreesWithWhatValidateReports() throws {
        let registry = makeAppRegistry()
        let error = try #require(throws: ValidationError.self) { try registry.validate() }
        let failedInGraph = registry.dependencyGraph().nodes.filter {
            if case .failed = $0.status { return true } else { return false }
        }
        #expect(failedInGraph.map(\.displayName) == error.failures.map(\.registration))
    }

    @Test func leavesTheRegistrysSingletonCachesUntouched() throws {
        let builds = Tally()
        let registry = ServiceRegistry()
        registry.register(CatalogStore.self, scope: .singleton) { _ in
            builds.add()
            return Node()
        }
        _ = registry.dependencyGraph()
        #expect(builds.count == 1)
        _ = try registry.resolve(CatalogStore.self)
        _ = try registry.resolve(CatalogStore.self)
        #expect(builds.count == 2)
    }
}

/// A private type that shares its short name with ServiceRegistryTestComponent's
/// `PrivateCatalog.Config`; the runtime gives its full name an address.
private enum PrivateCatalog { struct Config: Sendable {} }

/// What a factory in ``DependencyGraphTests`` throws.
private struct GraphTestError: Error {}
