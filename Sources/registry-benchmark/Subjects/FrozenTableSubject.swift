/// The `frozen-table` subject: the benchmark services in a ``FrozenTable``.
enum FrozenTableSubject {
    /// The serial of the table's ``SharedService`` instances.
    static let sharedSerial = 6

    /// A table holding every benchmark service.
    ///
    /// The shared instances are made here, with the table, not on first use: a lazily made
    /// instance would need the synchronisation the table leaves out.
    ///
    /// - Returns: The filled table.
    static func makeTable() -> FrozenTable {
        let shared = SharedServiceImpl(serial: sharedSerial)
        let threadShared = ThreadSharedServiceImpl.names.indices.map {
            ThreadSharedServiceImpl(serial: sharedSerial, thread: $0)
        }
        let perThread = zip(ThreadSharedServiceImpl.names, threadShared).map { name, service in
            FrozenTable.Registration.factory(SharedService.self, name: name) { _ in service }
        }
        return FrozenTable(
            perThread + [
                .factory(SharedService.self) { _ in shared },
                .factory(TrivialService.self) { _ in TrivialServiceImpl() },
                .factory(TrivialService.self, name: TrivialServiceImpl.secondaryName) { _ in
                    TrivialServiceImpl(value: TrivialServiceImpl.secondaryValue)
                },
                .factory(ChainTail.self) { _ in ChainTailImpl() },
                .factory(ChainMiddle.self) { table in ChainMiddleImpl(tail: try table.resolve(ChainTail.self)) },
                .factory(ChainHead.self) { table in ChainHeadImpl(middle: try table.resolve(ChainMiddle.self)) },
                .factory(BookScreen.self) { (_, bookID: String) in BookScreenImpl(bookID: bookID) },
                // No graph scope: the root makes the context and passes it down as an argument.
                .factory(GraphLeft.self) { (_, context: GraphContext) in GraphLeft(context: context) },
                .factory(GraphRight.self) { (_, context: GraphContext) in GraphRight(context: context) },
                .factory(GraphRoot.self) { table in
                    let context = GraphContext()
                    return GraphRootImpl(
                        left: try table.resolve(GraphLeft.self, argument: context),
                        right: try table.resolve(GraphRight.self, argument: context))
                },
            ])
    }

    /// A table holding only the shared singleton and `fillers` other registrations.
    ///
    /// - Parameter fillers: How many generated registrations sit next to the singleton.
    /// - Returns: The filled table.
    static func makeLookupTable(fillers: Int) -> FrozenTable {
        let shared = SharedServiceImpl(serial: sharedSerial)
        return FrozenTable(
            GeneratedKeys.types.prefix(fillers).map(registration(for:))
                + [.factory(SharedService.self) { _ in shared }])
    }

    /// A factory for one generated key type.
    ///
    /// - Parameter keyType: The generated type to register.
    /// - Returns: Its registration.
    static func registration(for keyType: any GeneratedKey.Type) -> FrozenTable.Registration {
        registration(keyType)
    }

    private static func registration<Key: GeneratedKey>(_ keyType: Key.Type) -> FrozenTable.Registration {
        .factory(Key.self) { _ in Key() }
    }
}
