import Synchronization

/// One registered factory, as the registration table stores it.
///
/// Immutable once made; re-registering a key makes a new registration (with a new,
/// empty instance cell) and drops this one. Subclasses carry the typed factory, so a
/// resolve reaches it with an `unsafeDowncast` checked by the key (which holds both the
/// service and the argument type) instead of a dynamic cast.
class AnyRegistration: @unchecked Sendable {
    // @unchecked: every stored property is immutable or atomic.
    let key: ServiceKey
    let scope: Scope
    /// Index of the assembly that made this registration in its registry's origin list.
    let origin: Int32

    init(key: ServiceKey, scope: Scope, origin: Int32) {
        self.key = key
        self.scope = scope
        self.origin = origin
    }

    /// The service type as a reader writes it, such as `ReviewService`.
    var serviceTypeName: String { fatalError("subclass responsibility") }

    /// The argument type as a reader writes it, or `nil` for a factory without one.
    var argumentTypeName: String? { fatalError("subclass responsibility") }

    /// Builds this registration from `registry` as a top-level resolve, for validation.
    /// Only factories without an argument can be built this way.
    func buildForValidation(from registry: ServiceRegistry, resolution: UnsafeMutablePointer<Resolution>)
        throws(ResolutionError)
    {
        fatalError("only registrations without an argument are built by validation")
    }

    /// `ReviewService` or `ReviewService (name: "offline")`, for paths and listings.
    var displayName: String {
        TypeName.describe(serviceTypeName, name: key.name)
    }
}

/// A registration of a `Service`, with the cell that caches its shared instance.
class ServiceRegistration<Service>: AnyRegistration, @unchecked Sendable {
    // @unchecked: the cell pointer is published once with a compare-exchange and freed in deinit.
    private let cellBits = Atomic<UInt>(0)

    override var serviceTypeName: String { TypeName.of(Service.self) }

    /// The cell caching this registration's `.singleton` or `.weak` instance; made on first use.
    var cell: InstanceCell<Service> {
        let bits = cellBits.load(ordering: .acquiring)
        if bits != 0 {
            return Unmanaged<InstanceCell<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
                .takeUnretainedValue()
        }
        let fresh = Unmanaged.passRetained(InstanceCell<Service>())
        let freshBits = UInt(bitPattern: fresh.toOpaque())
        let (exchanged, current) = cellBits.compareExchange(
            expected: 0, desired: freshBits, ordering: .acquiringAndReleasing)
        if exchanged { return fresh.takeUnretainedValue() }
        fresh.release()
        return Unmanaged<InstanceCell<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: current)!)
            .takeUnretainedValue()
    }

    /// The cached singleton, read without retaining the cell or its box.
    @inline(__always)
    var cachedSingleton: Service? {
        let bits = cellBits.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<InstanceCell<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            ._withUnsafeGuaranteedRef { $0.singleton }
    }

    deinit {
        let bits = cellBits.load(ordering: .acquiring)
        if bits != 0 {
            Unmanaged<InstanceCell<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        }
    }
}

/// A registration whose factory takes no runtime argument.
final class FactoryRegistration<Service>: ServiceRegistration<Service>, @unchecked Sendable {
    let factory: @Sendable (borrowing Resolver) throws -> Service

    init(
        name: String?, scope: Scope, origin: Int32,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service
    ) {
        self.factory = factory
        super.init(key: ServiceKey(Service.self, name: name), scope: scope, origin: origin)
    }

    override var argumentTypeName: String? { nil }

    override func buildForValidation(from registry: ServiceRegistry, resolution: UnsafeMutablePointer<Resolution>)
        throws(ResolutionError)
    {
        let _: Service = try registry.resolve(key: key, argumentType: nil, parent: nil, resolution: resolution) {
            registration, resolver in
            try unsafeDowncast(registration, to: FactoryRegistration<Service>.self).factory(resolver)
        }
    }
}

/// A registration whose factory takes a runtime argument (several travel as a tuple).
final class ArgumentFactoryRegistration<Service, Argument>: ServiceRegistration<Service>, @unchecked Sendable {
    let factory: @Sendable (borrowing Resolver, Argument) throws -> Service

    init(
        name: String?, scope: Scope, origin: Int32,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service
    ) {
        self.factory = factory
        super.init(
            key: ServiceKey(Service.self, name: name, argument: Argument.self), scope: scope, origin: origin)
    }

    override var argumentTypeName: String? { TypeName.of(Argument.self) }
}
