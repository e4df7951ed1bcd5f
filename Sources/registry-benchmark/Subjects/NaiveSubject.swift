/// The `naive-dictionary` subject: the benchmark services in a ``NaiveContainer``.
enum NaiveSubject {
    /// The serial of the container's ``SharedService`` instance.
    static let sharedSerial = 5

    /// A container holding every benchmark service.
    ///
    /// - Returns: The filled container.
    static func makeContainer() -> NaiveContainer {
        let container = NaiveContainer()
        container.registerSingleton(SharedService.self) { SharedServiceImpl(serial: sharedSerial) }
        for (thread, name) in ThreadSharedServiceImpl.names.enumerated() {
            container.registerSingleton(SharedService.self, name: name) {
                ThreadSharedServiceImpl(serial: sharedSerial, thread: thread)
            }
        }
        container.register(TrivialService.self) { TrivialServiceImpl() }
        container.register(TrivialService.self, name: TrivialServiceImpl.secondaryName) {
            TrivialServiceImpl(value: TrivialServiceImpl.secondaryValue)
        }
        // `unowned`: the container owns these factories, so a strong capture would be a cycle.
        container.register(ChainTail.self) { ChainTailImpl() }
        container.register(ChainMiddle.self) { [unowned container] in
            ChainMiddleImpl(tail: try container.resolve(ChainTail.self))
        }
        container.register(ChainHead.self) { [unowned container] in
            ChainHeadImpl(middle: try container.resolve(ChainMiddle.self))
        }
        container.register(BookScreen.self) { (bookID: String) in BookScreenImpl(bookID: bookID) }
        // No graph scope: the root makes the context and passes it down as an argument.
        container.register(GraphLeft.self) { (context: GraphContext) in GraphLeft(context: context) }
        container.register(GraphRight.self) { (context: GraphContext) in GraphRight(context: context) }
        container.register(GraphRoot.self) { [unowned container] in
            let context = GraphContext()
            return GraphRootImpl(
                left: try container.resolve(GraphLeft.self, argument: context),
                right: try container.resolve(GraphRight.self, argument: context))
        }
        return container
    }

    /// A container holding only the shared singleton and `fillers` other registrations.
    ///
    /// - Parameter fillers: How many generated registrations sit next to the singleton.
    /// - Returns: The filled container.
    static func makeLookupContainer(fillers: Int) -> NaiveContainer {
        let container = NaiveContainer()
        for keyType in GeneratedKeys.types.prefix(fillers) {
            registerKey(keyType, in: container)
        }
        container.registerSingleton(SharedService.self) { SharedServiceImpl(serial: sharedSerial) }
        return container
    }

    /// Registers a factory for one generated key type.
    ///
    /// - Parameters:
    ///   - keyType: The generated type to register.
    ///   - container: Where to register it.
    static func registerKey(_ keyType: any GeneratedKey.Type, in container: NaiveContainer) {
        register(keyType, in: container)
    }

    private static func register<Key: GeneratedKey>(_ keyType: Key.Type, in container: NaiveContainer) {
        container.register(Key.self) { Key() }
    }
}
