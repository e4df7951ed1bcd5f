/// An `Optional` service type, which a resolve that finds nothing registered for it
/// resolves through its wrapped type.
///
/// Swift infers `Optional<P>` as the service type of `let x: P? = try registry.resolve()`
/// and of `if let x: P = try? registry.resolve()`. Looked up as it is, that key is never
/// registered, so the first would throw that nothing is registered and the second would
/// give a silent `nil`, however `P` is registered. Only a resolve that has already missed
/// asks for this (a dynamic cast), so it costs the resolves that succeed nothing.
protocol OptionalService {
    /// The type the optional wraps.
    static var wrappedType: Any.Type { get }

    /// Resolves the wrapped type under `name` and `argumentType` as part of `resolution`,
    /// below `parent`, and initializes `result` (an instance of this optional type) with it.
    static func resolveWrapped(
        in registry: ServiceRegistry, name: String?, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError)

    /// The class instance the optional at `source` (an instance of this optional type)
    /// wraps, or `nil` for `nil` or a value: what a `.weak` registration of this type holds
    /// weakly (see ``AnyRegistration/object(of:)``).
    static func wrappedObject(at source: UnsafeRawPointer) -> AnyObject?
}

extension Optional: OptionalService {
    static var wrappedType: Any.Type { Wrapped.self }

    static func resolveWrapped(
        in registry: ServiceRegistry, name: String?, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) {
        let wrapped = try resolvedInstance(of: Wrapped.self) { wrapped throws(ResolutionError) in
            try registry.resolve(
                key: ServiceKey(Wrapped.self, name: name, argument: argumentType), serviceType: Wrapped.self,
                argumentType: argumentType, argument: argument, into: wrapped,
                copyingCached: { copyService(Wrapped.self, from: $0, to: $1) }, parent: parent, resolution: resolution)
        }
        result.assumingMemoryBound(to: Self.self).initialize(to: wrapped)
    }

    static func wrappedObject(at source: UnsafeRawPointer) -> AnyObject? {
        guard let wrapped = source.assumingMemoryBound(to: Self.self).pointee else { return nil }
        return withUnsafePointer(to: wrapped) { AnyRegistration.object(Wrapped.self, of: $0) }
    }
}

extension ServiceRegistry {
    /// The optional type `serviceType`, when a resolve of `key` (a key of `serviceType`)
    /// that found no registration should resolve the wrapped type instead: nothing is
    /// registered for the optional type under the key's name, with any argument. (With a
    /// registration under that name but another argument type, the resolve throws
    /// ``ResolutionError/Reason/argumentMismatch`` for the optional type, as for any other.)
    ///
    /// A registration of `key` itself does not count: the lookup missed it, so another
    /// thread made it since, and the resolve came first (as the error would say, which
    /// leaves it out too).
    func optionalFallback(
        for key: ServiceKey, serviceType: Any.Type, overrides: OverrideLayer?
    ) -> (any OptionalService.Type)? {
        guard let optional = serviceType as? any OptionalService.Type else { return nil }
        // One probe per registry, not a scan: this runs on every resolve of
        // `if let p: P = try? registry.resolve()`, which succeeds.
        let sameName = lineage.contains { registry in
            registry.table.hasRegistration(of: key.service, name: key.name, otherThan: key)
                || overrides?.hasRegistration(of: key.service, name: key.name, in: registry) == true
        }
        return sameName ? nil : optional
    }

    /// Whether a resolve of `key` (for `serviceType`, taking an `argumentType`) would find
    /// a registration, directly or, for an optional type, through its wrapped type.
    func canResolve(
        _ key: ServiceKey, serviceType: Any.Type, argumentType: Any.Type?, overrides: OverrideLayer?
    ) -> Bool {
        if lookup(key, overrides: overrides) != nil { return true }
        guard let optional = optionalFallback(for: key, serviceType: serviceType, overrides: overrides) else {
            return false
        }
        let wrapped = optional.wrappedType
        return canResolve(
            ServiceKey(wrapped, name: key.name, argument: argumentType), serviceType: wrapped,
            argumentType: argumentType, overrides: overrides)
    }
}
