/// What a factory resolves its dependencies through.
///
/// A factory receives a resolver for the duration of its call. Resolving through it
/// (rather than through the registry) is what lets the registry see the resolution path:
/// it detects cycles, shares `.graph` instances within one top-level resolve, and puts
/// the full path into errors.
///
/// ```swift
/// registry.register(BookDetailService.self) { r in
///     BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
/// }
/// ```
///
/// A resolver is non-copyable and only borrowed by the factory, so it cannot be stored or
/// captured by an escaping closure: it describes a resolution in progress. Use it on the
/// thread running the factory. To resolve later (lazily) or from other threads, keep the
/// registry instead. (Swift 6.3.1 does not always say so. When an escaping closure that is
/// not `@Sendable`, such as a `Task`'s (in the Swift 5 language mode, any escaping closure),
/// captures the `r` of a factory written `{ r in ... }`, the compiler crashes in its
/// `MoveOnlyChecker` pass; written `{ (r: borrowing Resolver) in ... }`, the factory gets
/// the error "'r' cannot be captured by an escaping closure since it is a borrowed
/// parameter".)
public struct Resolver: ~Copyable {
    let frame: UnsafePointer<ResolutionFrame>

    init(frame: UnsafePointer<ResolutionFrame>) {
        self.frame = frame
    }

    /// Resolves a service that takes no argument, as a dependency of the one being built.
    ///
    /// - Parameters:
    ///   - type: The service type, usually a protocol. Inferred from the context if omitted.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    /// - Returns: The service instance.
    /// - Throws: ``ResolutionError``, whose path includes the service being built, except
    ///   for a ``ResolutionError/Reason/circularDependency`` that a factory further down
    ///   met resolving through the registry rather than its resolver: a cycle is passed on
    ///   as it is, with the path of the resolve that met it.
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

    /// Resolves a service whose factory takes a runtime argument, as a dependency of the
    /// one being built.
    ///
    /// - Parameters:
    ///   - type: The service type, usually a protocol. Inferred from the context if omitted.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - argument: The value handed to the factory; pass several as a tuple.
    /// - Returns: The service instance.
    /// - Throws: ``ResolutionError``, whose path includes the service being built, except
    ///   for a ``ResolutionError/Reason/circularDependency`` that a factory further down
    ///   met resolving through the registry rather than its resolver: a cycle is passed on
    ///   as it is, with the path of the resolve that met it.
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

    /// Resolves into `result` as a dependency of the service in this resolver's frame.
    @usableFromInline
    func resolveUntyped(
        _ serviceType: Any.Type, name: String?, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, copyingCached copy: InstanceCopy
    ) throws(ResolutionError) {
        let key = ServiceKey(serviceType, name: name, argument: argumentType)
        // The frame's registry outlives this call (it is resolving the frame), so it is
        // used where it is rather than retained.
        var failure: ResolutionError?
        Unmanaged.passUnretained(frame.pointee.registry)._withUnsafeGuaranteedRef { registry in
            do throws(ResolutionError) {
                try registry.resolve(
                    key: key, serviceType: serviceType, argumentType: argumentType, argument: argument, into: result,
                    copyingCached: copy, parent: frame, resolution: frame.pointee.resolution)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
