extension ServiceRegistry {
    /// Resolves a service whose factory takes no argument.
    ///
    /// ```swift
    /// let detail = try registry.resolve(BookDetailService.self)
    /// let inferred: any BookDetailService = try registry.resolve()
    /// let offline = try registry.resolve(ReviewService.self, name: "offline")
    /// ```
    ///
    /// An optional type with nothing registered for it resolves its wrapped type, under
    /// the same name: Swift infers `Optional<any ReviewService>` for
    /// `let reviews: (any ReviewService)? = try registry.resolve()` and for
    /// `if let reviews: any ReviewService = try? registry.resolve()`, which then get the
    /// registered `ReviewService` rather than an error or `nil`. That detour (a lookup that
    /// misses, a dynamic cast, then the wrapped type's resolve) takes about 0.3 µs where a
    /// cached singleton takes about 25 ns; on a hot path, name the type:
    /// `try? registry.resolve(ReviewService.self)`.
    ///
    /// Returning a cached singleton holds a lock only for the lookup, one of eight picked
    /// by the calling thread's stack, so threads rarely wait for each other; it allocates
    /// nothing (unless its name has a combining accent, such as `"cafe\u{301}"`, which
    /// the standard library's string hashing allocates for) and formats no type name.
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
    /// As without an argument, an optional type with nothing registered for it resolves
    /// its wrapped type, under the same name and with the same argument.
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
        let key = ServiceKey(serviceType, name: name, argument: argumentType)
        if FastPath.isOpen {
            switch table.lookup(key, copyingSingletonInto: result, using: copy, countingTopLevel: true) {
            case .copiedSingleton:
                return
            case .found(let registration):
                return try resolveTopLevel(registration, key: key, argument: argument, into: result)
            case .countedTopLevel(let registration, let othersRunning):
                return try resolveTopLevel(
                    counted: registration, othersRunning: othersRunning, key: key, argument: argument, into: result)
            case .missing:
                break
            }
        }
        try resolveTopLevel(
            key: key, serviceType: serviceType, argumentType: argumentType, argument: argument, into: result,
            copyingCached: copy)
    }

    /// The rest of a top-level resolve whose registration the fast path found in this
    /// registry's table (so no override scope is active). Kept out of line, like the
    /// function below, so the cached-singleton path above stays small.
    ///
    /// A function of its own rather than a branch of the one below: there the
    /// registration would be an optional binding, which costs a retain and a release.
    @inline(never)
    private func resolveTopLevel(
        _ registration: AnyRegistration, key: ServiceKey, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer
    ) throws(ResolutionError) {
        try withResolution(overrides: nil) { resolution throws(ResolutionError) in
            try resolve(
                registration, owner: self, cacheLayer: nil, key: key, argument: argument, into: result, parent: nil,
                resolution: resolution)
        }
    }

    /// The rest of a top-level resolve of a `.transient` or `.graph` registration that the
    /// fast path found and counted (see ``RegistrationTable/Lookup/countedTopLevel(_:othersRunning:)``)
    /// rather than retained: the count keeps it alive until this ends it.
    @inline(never)
    private func resolveTopLevel(
        counted registration: Unmanaged<AnyRegistration>, othersRunning: UInt, key: ServiceKey,
        argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer
    ) throws(ResolutionError) {
        var failure: ResolutionError?
        let releasesTableReference = registration._withUnsafeGuaranteedRef { registration in
            do throws(ResolutionError) {
                try withResolution(overrides: nil) { resolution throws(ResolutionError) in
                    try resolve(
                        registration, owner: self, cacheLayer: nil, key: key, argument: argument, into: result,
                        parent: nil, resolution: resolution, othersRunning: othersRunning)
                }
            } catch {
                failure = error
            }
            return registration.endTopLevelResolve()
        }
        // Outside the closure above, which may use the registration until it returns.
        if releasesTableReference { registration.release() }
        if let failure { throw failure }
    }

    /// The rest of any other top-level resolve: while an override scope or a resolution
    /// observer exists, or when this registry's table lacks the key (a parent may have
    /// it, or nobody).
    @inline(never)
    private func resolveTopLevel(
        key: ServiceKey, serviceType: Any.Type, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, copyingCached copy: InstanceCopy
    ) throws(ResolutionError) {
        try withResolution(overrides: OverrideLayer.active) { resolution throws(ResolutionError) in
            try resolve(
                key: key, serviceType: serviceType, argumentType: argumentType, argument: argument, into: result,
                copyingCached: copy, parent: nil, resolution: resolution)
        }
    }

    /// Runs `body` with the state the nested resolves of one top-level resolve share, on
    /// the stack, and frees its `.graph` instances when `body` returns or throws (the
    /// registry keeps no reference to them).
    ///
    /// - Parameter enclosingBuild: The shared build the resolve continues; by default the
    ///   one the calling code runs inside, if any.
    @inline(__always)
    func withResolution(
        overrides: OverrideLayer?, enclosingBuild: BuildTrace? = BuildTrace.enclosing,
        _ body: (UnsafeMutablePointer<Resolution>) throws(ResolutionError) -> Void
    ) throws(ResolutionError) {
        var resolution = Resolution(registry: self, overrides: overrides, enclosingBuild: enclosingBuild)
        defer {
            resolution.releaseGraphInstances()
            // The resolution holds both unretained (see Resolution).
            withExtendedLifetime(overrides) {}
            withExtendedLifetime(enclosingBuild) {}
        }
        try withUnsafeMutablePointer(to: &resolution, body)
    }
}
