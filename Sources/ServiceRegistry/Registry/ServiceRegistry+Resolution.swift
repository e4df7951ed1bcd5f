extension ServiceRegistry {
    /// Resolves a service whose factory takes no argument.
    ///
    /// ```swift
    /// let detail = try registry.resolve(BookDetailService.self)
    /// let inferred: any BookDetailService = try registry.resolve()
    /// let offline = try registry.resolve(ReviewService.self, name: "offline")
    /// ```
    ///
    /// Returning a cached singleton takes no lock that threads queue on, allocates
    /// nothing and formats no type name.
    ///
    /// - Parameters:
    ///   - type: The service type, usually a protocol. Inferred from the context if omitted.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    /// - Returns: The service instance, built or reused according to its scope.
    /// - Throws: ``ResolutionError`` when nothing is registered, the registration takes
    ///   an argument, a dependency cycle is met, or a factory throws.
    @inlinable
    public func resolve<Service>(
        _ type: Service.Type = Service.self, name: String? = nil
    ) throws(ResolutionError) -> Service {
        try resolvedInstance(of: Service.self) { result throws(ResolutionError) in
            try resolveUntyped(
                Service.self, name: name, argumentType: nil, argument: nil, into: result,
                copyingCached: { copyService(Service.self, from: $0, to: $1) })
        }
    }

    /// Resolves a service whose factory takes a runtime argument.
    ///
    /// ```swift
    /// let screen = try registry.resolve(BookScreen.self, argument: "42")
    /// let screen2 = try registry.resolve(BookScreen.self, argument: ("42", 1))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service type, usually a protocol. Inferred from the context if omitted.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - argument: The value handed to the factory; pass several as a tuple. Its type
    ///     must be the factory's argument type exactly.
    /// - Returns: The service instance, built or reused according to its scope.
    /// - Throws: ``ResolutionError`` when nothing is registered, the registration takes
    ///   another argument type (``ResolutionError/Reason/argumentMismatch``), a
    ///   dependency cycle is met, or a factory throws.
    @inlinable
    public func resolve<Service, Argument>(
        _ type: Service.Type = Service.self, name: String? = nil, argument: Argument
    ) throws(ResolutionError) -> Service {
        try resolvedInstance(of: Service.self, argument: argument) { argument, result throws(ResolutionError) in
            try resolveUntyped(
                Service.self, name: name, argumentType: Argument.self, argument: argument, into: result,
                copyingCached: { copyService(Service.self, from: $0, to: $1) })
        }
    }

    /// Resolves into `result`, which the caller has sized for a `serviceType` and which
    /// this initializes on success. Not generic, so nothing here depends on the caller's
    /// types being specialized.
    @usableFromInline
    func resolveUntyped(
        _ serviceType: Any.Type, name: String?, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, copyingCached copy: InstanceCopy
    ) throws(ResolutionError) {
        let key = ServiceKey(
            service: ObjectIdentifier(serviceType), argument: argumentType.map(ObjectIdentifier.init), name: name)
        var found: AnyRegistration?
        if FastPath.isOpen {
            switch table.lookup(key, copyingSingletonInto: result, using: copy) {
            case .copiedSingleton: return
            case .found(let registration): found = registration
            case .missing: break
            }
        }
        try resolveUncached(
            key: key, serviceType: serviceType, argumentType: argumentType, argument: argument, into: result,
            copyingCached: copy, found: found)
    }

    /// The rest of a top-level resolve, kept out of line so the cached-singleton path above
    /// stays small: sets up the state the nested resolves share, on the stack, and frees
    /// its `.graph` instances afterwards.
    ///
    /// - Parameter found: The registration, when the fast path already found it in this
    ///   registry's table (no override scope can be active then).
    @inline(never)
    private func resolveUncached(
        key: ServiceKey, serviceType: Any.Type, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, copyingCached copy: InstanceCopy, found: AnyRegistration?
    ) throws(ResolutionError) {
        var resolution = Resolution(
            overrides: found == nil ? OverrideLayer.active : nil, enclosingBuild: BuildTrace.enclosing)
        defer { resolution.releaseGraphInstances() }
        try withUnsafeMutablePointer(to: &resolution) { resolution throws(ResolutionError) in
            if let found {
                try resolve(
                    Found(registration: found, owner: self, cacheLayer: nil), key: key, argument: argument,
                    into: result, parent: nil, resolution: resolution)
            } else {
                try resolve(
                    key: key, serviceType: serviceType, argumentType: argumentType, argument: argument, into: result,
                    copyingCached: copy, parent: nil, resolution: resolution)
            }
        }
    }
}
