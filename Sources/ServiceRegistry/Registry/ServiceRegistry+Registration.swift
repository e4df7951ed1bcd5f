extension ServiceRegistry {
    /// Registers a lazy factory for a service that takes no runtime argument.
    ///
    /// Registering builds nothing; the factory runs on the first resolve that needs it
    /// (and again according to `scope`). Registering the same type and name again with a
    /// factory that takes no argument replaces this registration and drops any instance it
    /// cached; one that takes an argument registers beside it, leaving this one as it is.
    ///
    /// ```swift
    /// registry.register(BookDetailService.self) { r in
    ///     BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
    /// }
    /// registry.register(ReviewService.self, name: "offline", scope: .singleton) { _ in OfflineReviews() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service type callers resolve, usually a protocol.
    ///   - name: A name that tells apart several registrations of the same type.
    ///   - scope: How long a built instance lives and who shares it; ``Scope/transient``
    ///     by default.
    ///   - factory: Builds the service; resolves dependencies through its ``Resolver``.
    ///     Whatever it throws reaches the caller as ``ResolutionError/Reason/factoryFailed``,
    ///     except a ``ResolutionError`` whose path already runs through this service (one
    ///     from a resolve through the resolver) or that reports a circular dependency,
    ///     which reaches it as it is.
    ///     The registry keeps it, with what it captures, until the registration is
    ///     replaced or the registry goes, so one that captures this registry (rather than
    ///     resolving through the resolver) keeps the registry, and every instance it
    ///     caches, alive until it is replaced. That matters for a registry meant to go
    ///     away: a child made per screen, one a test makes.
    @inlinable
    public func register<Service>(
        _ type: Service.Type, name: String? = nil, scope: Scope = .transient,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service
    ) {
        add(FactoryRegistration(name: name, scope: scope, origin: currentOrigin, factory: factory))
    }

    /// Registers a lazy factory for a service built from a runtime argument.
    ///
    /// The argument type is part of the key: a type may have a factory without an
    /// argument and factories with different argument types side by side. Pass several
    /// values as a tuple. A `.singleton` that takes an argument is built from the first
    /// resolve's argument and shared after that.
    ///
    /// ```swift
    /// registry.register(BookScreen.self) { (r, bookId: String) in BookScreenImpl(bookId: bookId) }
    /// registry.register(BookScreen.self) { (r, args: (String, Int)) in
    ///     BookScreenImpl(bookId: args.0, page: args.1)
    /// }
    /// let screen = try registry.resolve(BookScreen.self, argument: "42")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service type callers resolve, usually a protocol.
    ///   - name: A name that tells apart several registrations of the same type.
    ///   - scope: How long a built instance lives and who shares it; ``Scope/transient``
    ///     by default.
    ///   - factory: Builds the service from its ``Resolver`` and the argument.
    ///     The registry keeps it, with what it captures, until the registration is
    ///     replaced or the registry goes, so one that captures this registry (rather than
    ///     resolving through the resolver) keeps the registry, and every instance it
    ///     caches, alive until it is replaced. That matters for a registry meant to go
    ///     away: a child made per screen, one a test makes.
    @inlinable
    public func register<Service, Argument>(
        _ type: Service.Type, name: String? = nil, scope: Scope = .transient,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service
    ) {
        add(ArgumentFactoryRegistration(name: name, scope: scope, origin: currentOrigin, factory: factory))
    }

    @usableFromInline
    func add(_ registration: AnyRegistration) {
        let replaced = table.insert(registration)
        if let replaced, !replaced.scope.isShared {
            // Top-level resolves the table counted may still be using it, unretained.
            replaced.tableLetsGo()
        }
        if let replaced, !OverrideLayer.noneActive {
            // An override scope may have cached an instance of the replaced registration,
            // which no resolve can reach any more: the scopes this task runs in drop it now,
            // any other scope once the registration is gone (see `OverrideLayer.cell(for:)`).
            OverrideLayer.current?.dropCells(of: replaced)
        }
        // Dropped here, after the table's locks are released: the replaced registration's
        // cached instance may run a deinit that touches the registry.
        withExtendedLifetime(replaced) {}
    }

    @usableFromInline
    var currentOrigin: Int32 {
        guard let installing = Installing.current, installing.registry == ObjectIdentifier(self) else {
            return Installing.directRegistration
        }
        return installing.origin
    }
}
