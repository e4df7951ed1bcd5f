import ServiceRegistry
import WeReadBookDetail
import WeReadBookshelf
import WeReadCatalog
import WeReadInterfaces
import WeReadReading
import WeReadReview

/// The same components as ``WeReadApp``, wired so the scripted session can see every
/// service instance handed out, including the dependencies factories resolve for each other.
///
/// A registry runs the factories it was given and offers no hook around them, and the
/// composition root cannot reach inside a component's factories. So each component is
/// installed into a child registry of its own, and the app registry gets one small
/// forwarder per interface that asks the owning component's registry and reports what
/// came back to a ``BuildObserver``. Because each component's registry is a child of the
/// app registry, a factory resolving another component's service (through its resolver)
/// falls through to the app registry's forwarder, so nested builds are seen too.
///
/// Each component keeps its own scopes: the forwarders are transient and cache nothing;
/// the singleton catalog is cached in the catalog component's registry, the weak reader in
/// the reading component's. The app's real wiring, used by every other command and by the
/// tests of the wiring, is the plain ``WeReadApp/makeRegistry()``.
enum ObservedComposition {
    /// Creates the session's registry, reporting every handed-out instance to `observer`.
    ///
    /// - Parameter observer: Where forwarders report instances.
    /// - Returns: The app registry to resolve from.
    static func makeRegistry(observer: BuildObserver) -> ServiceRegistry {
        let app = ServiceRegistry()
        let catalog = component(CatalogAssembly(), of: app)
        let reviews = component(ReviewAssembly(), of: app)
        let detail = component(BookDetailAssembly(), of: app)
        let shelf = component(BookshelfAssembly(), of: app)
        let reading = component(ReadingAssembly(), of: app)

        forward(CatalogService.self, "CatalogService", to: catalog, in: app, observer: observer)
        forward(ReviewService.self, "ReviewService", to: reviews, in: app, observer: observer)
        forward(BookshelfService.self, "BookshelfService", to: shelf, in: app, observer: observer)
        forward(ReadingService.self, "ReadingService", to: reading, in: app, observer: observer)
        app.register(BookDetailService.self) { (_, bookID: BookID) in
            let ticket = observer.start()
            return observer.finish(
                try detail.resolve(BookDetailService.self, argument: bookID), "BookDetailService", ticket: ticket)
        }
        return app
    }

    private static func component(_ assembly: any ServiceAssembly, of app: ServiceRegistry) -> ServiceRegistry {
        let registry = app.makeChild()
        registry.install(assembly)
        return registry
    }

    private static func forward<Service>(
        _ type: Service.Type, _ name: String, to component: ServiceRegistry, in app: ServiceRegistry,
        observer: BuildObserver
    ) {
        app.register(type) { _ in
            let ticket = observer.start()
            return observer.finish(try component.resolve(type), name, ticket: ticket)
        }
    }
}
