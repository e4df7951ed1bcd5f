import ServiceRegistry

/// The `registry` subject: the benchmark services wired into a real ``ServiceRegistry``
/// the way an app's assemblies would wire them.
enum RegistrySubject {
    /// The serial of the registry's ``SharedService`` instance.
    static let sharedSerial = 2

    /// A registry holding every benchmark service.
    ///
    /// - Returns: The filled registry; nothing in it has been built yet.
    static func makeRegistry() -> ServiceRegistry {
        let registry = ServiceRegistry()
        registry.install(BenchmarkServicesAssembly())
        return registry
    }

    /// A registry holding only the shared singleton and `fillers` other registrations:
    /// what `lookup-10` and `lookup-10000` resolve from.
    ///
    /// - Parameter fillers: How many generated registrations sit next to the singleton.
    /// - Returns: The filled registry.
    static func makeLookupRegistry(fillers: Int) -> ServiceRegistry {
        let registry = ServiceRegistry()
        for keyType in GeneratedKeys.types.prefix(fillers) {
            registerKey(keyType, in: registry)
        }
        registry.register(SharedService.self, scope: .singleton) { _ in SharedServiceImpl(serial: sharedSerial) }
        return registry
    }

    /// Registers a lazy factory for one generated key type; the factory builds a key
    /// instance, which ``GeneratedKeys/instancesBuilt`` counts.
    ///
    /// - Parameters:
    ///   - keyType: The generated type to register.
    ///   - registry: Where to register it.
    static func registerKey(_ keyType: any GeneratedKey.Type, in registry: ServiceRegistry) {
        register(keyType, in: registry)
    }

    private static func register<Key: GeneratedKey>(_ keyType: Key.Type, in registry: ServiceRegistry) {
        registry.register(Key.self) { _ in Key() }
    }
}

/// The benchmark services as one app's assemblies would register them.
struct BenchmarkServicesAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(SharedService.self, scope: .singleton) { _ in
            SharedServiceImpl(serial: RegistrySubject.sharedSerial)
        }
        for (thread, name) in ThreadSharedServiceImpl.names.enumerated() {
            registry.register(SharedService.self, name: name, scope: .singleton) { _ in
                ThreadSharedServiceImpl(serial: RegistrySubject.sharedSerial, thread: thread)
            }
        }
        registry.register(TrivialService.self) { _ in TrivialServiceImpl() }
        registry.register(TrivialService.self, name: TrivialServiceImpl.secondaryName) { _ in
            TrivialServiceImpl(value: TrivialServiceImpl.secondaryValue)
        }
        registry.register(ChainTail.self) { _ in ChainTailImpl() }
        registry.register(ChainMiddle.self) { resolver in ChainMiddleImpl(tail: try resolver.resolve()) }
        registry.register(ChainHead.self) { resolver in ChainHeadImpl(middle: try resolver.resolve()) }
        registry.register(BookScreen.self) { (_, bookID: String) in BookScreenImpl(bookID: bookID) }
        registry.register(GraphContext.self, scope: .graph) { _ in GraphContext() }
        registry.register(GraphLeft.self) { resolver in GraphLeft(context: try resolver.resolve()) }
        registry.register(GraphRight.self) { resolver in GraphRight(context: try resolver.resolve()) }
        registry.register(GraphRoot.self) { resolver in
            GraphRootImpl(left: try resolver.resolve(), right: try resolver.resolve())
        }
    }
}

/// One component of the start-up cases: an assembly that registers one lazily built
/// service of its own type, as each of an app's components would.
struct ComponentAssembly: ServiceAssembly {
    /// The component's service type.
    let keyType: any GeneratedKey.Type

    func assemble(into registry: ServiceRegistry) {
        RegistrySubject.registerKey(keyType, in: registry)
    }
}
