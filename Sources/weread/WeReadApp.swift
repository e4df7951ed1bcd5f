import ServiceRegistry
import WeReadBookDetail
import WeReadBookshelf
import WeReadCatalog
import WeReadInterfaces
import WeReadReading
import WeReadReview

/// The composition root: the only place in WeRead that knows every component.
///
/// Components never import each other; each publishes one assembly, and this is where
/// they meet. Installing registers lazy factories and builds nothing, so adding a
/// component costs the app nothing until one of its services is first used.
enum WeReadApp {
    /// Every component's assembly, in install order.
    ///
    /// The order does not matter for correctness (factories run only on resolve, when
    /// everything is registered); it is fixed so the dependency graph prints the same way
    /// on every run.
    static var assemblies: [any ServiceAssembly] {
        [
            CatalogAssembly(),
            ReviewAssembly(),
            BookDetailAssembly(),
            BookshelfAssembly(),
            ReadingAssembly(),
        ]
    }

    /// A value of each resolve argument the app's services take, for drawing and
    /// validating the wiring of those services too (`ServiceRegistry`'s
    /// `dependencyGraph(sampleArguments:)` and `validate(sampleArguments:)`).
    ///
    /// `BookDetailService` takes a `BookID`; 42 is a book the bundled catalog has, since
    /// the detail screen's factory throws for one it lacks. The elements are
    /// `any Sendable` so the list can be a stored static; the `[Any]` those methods take
    /// accepts it as it is.
    static let sampleArguments: [any Sendable] = [BookID(42)]

    /// Creates a registry with every component installed.
    ///
    /// - Parameter install: Installs the components; ``install(into:)`` by default.
    /// - Returns: A new registry, separate from `ServiceRegistry.shared` so that each
    ///   command and each test starts from nothing built.
    static func makeRegistry(install: (ServiceRegistry) -> Void = install(into:)) -> ServiceRegistry {
        let registry = ServiceRegistry()
        install(registry)
        return registry
    }

    /// Installs every component's assembly into a registry.
    ///
    /// - Parameter registry: The registry to install into.
    static func install(into registry: ServiceRegistry) {
        for assembly in assemblies {
            registry.install(assembly)
        }
    }

    /// How many registrations the registry holds and how many components made them.
    ///
    /// Counted from the registry's dependency graph, its public view of what is
    /// registered. Drawing the graph runs each factory once, in isolation, and caches
    /// nothing; resolution observers do not hear of it, but a factory's own side effects
    /// happen.
    ///
    /// - Parameter registry: The registry to count.
    /// - Returns: The registrations made in `registry` itself (not its parents) and the
    ///   number of distinct assemblies that made them.
    static func registrationSummary(of registry: ServiceRegistry) -> (registrations: Int, components: Int) {
        let registered = registry.dependencyGraph().nodes.filter { node in
            node.registryLevel == 0 && node.status != .missing
        }
        return (registered.count, Set(registered.map(\.origin)).count)
    }
}
