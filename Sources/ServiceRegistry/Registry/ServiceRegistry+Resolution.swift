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
    public func resolve<Service>(
        _ type: Service.Type = Service.self, name: String? = nil
    ) throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name)
        if OverrideLayer.noneActive, let cached = table.cachedSingleton(for: key, as: Service.self) {
            return cached
        }
        return try resolveTopLevel(key: key, argumentType: nil) { registration, resolver in
            try unsafeDowncast(registration, to: FactoryRegistration<Service>.self).factory(resolver)
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
    public func resolve<Service, Argument>(
        _ type: Service.Type = Service.self, name: String? = nil, argument: Argument
    ) throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, argument: Argument.self)
        if OverrideLayer.noneActive, let cached = table.cachedSingleton(for: key, as: Service.self) {
            return cached
        }
        return try resolveTopLevel(key: key, argumentType: Argument.self) { registration, resolver in
            try unsafeDowncast(registration, to: ArgumentFactoryRegistration<Service, Argument>.self)
                .factory(resolver, argument)
        }
    }

    private func resolveTopLevel<Service>(
        key: ServiceKey, argumentType: Any.Type?,
        make: (AnyRegistration, borrowing Resolver) throws -> Service
    ) throws(ResolutionError) -> Service {
        var resolution = Resolution(overrides: OverrideLayer.active, enclosingBuild: BuildTrace.enclosing)
        return try withUnsafeMutablePointer(to: &resolution) { resolution throws(ResolutionError) in
            try resolve(key: key, argumentType: argumentType, parent: nil, resolution: resolution, make: make)
        }
    }
}
