import Synchronization

/// One registered factory, as the registration table stores it.
///
/// Immutable once made; re-registering a key makes a new registration (with a new, empty
/// instance cell) and drops this one.
///
/// The resolve engine is not generic: it moves instances through raw pointers and lets
/// the registration, which knows its `Service` type, build, copy and destroy them through
/// these overridden methods. Generic code compiled in the library (rather than
/// specialized in the caller) would look up the metadata of types like
/// `FactoryRegistration<Service>` on every call, which costs more than the whole lookup.
@usableFromInline
class AnyRegistration: @unchecked Sendable {
    // @unchecked: every stored property is immutable or atomic.
    let key: ServiceKey
    /// `key.tableHash`, kept so growing the table and probing never rehash names.
    let keyHash: UInt
    let scope: Scope
    /// Index of the assembly that made this registration in its registry's origin list.
    let origin: Int32
    /// The cell caching this registration's `.singleton` or `.weak` instance, made on
    /// first use: an `Unmanaged<InstanceCell>` published with a compare-exchange.
    private let cellBits = Atomic<UInt>(0)

    init(key: ServiceKey, scope: Scope, origin: Int32) {
        self.key = key
        self.keyHash = key.tableHash
        self.scope = scope
        self.origin = origin
    }

    deinit {
        // `releaseStoredInstance` is dispatched to the subclass, which uses only its
        // `Service` type, never its (already destroyed) stored properties.
        if let cell = existingCell {
            destroyInstance(in: cell)
            Unmanaged.passUnretained(cell).release()
        }
    }

    // MARK: Typed operations, overridden by ServiceRegistration<Service>

    /// The service type as a reader writes it, such as `ReviewService`.
    var serviceTypeName: String { fatalError("subclass responsibility") }

    /// The argument type as a reader writes it, or `nil` for a factory without one.
    var argumentTypeName: String? { fatalError("subclass responsibility") }

    /// Runs the factory, initializing `result` (a `Service`) with what it returns.
    ///
    /// - Parameter argument: Points to the factory's `Argument`; `nil` when it takes none.
    func invoke(_ resolver: borrowing Resolver, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer)
        throws
    {
        fatalError("subclass responsibility")
    }

    /// Initializes `destination` with a copy of the `Service` at `source`.
    func copyInstance(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        fatalError("subclass responsibility")
    }

    /// A heap copy of the `Service` at `source`, to keep in a cache.
    func storeInstance(copying source: UnsafeRawPointer) -> UnsafeMutableRawPointer {
        fatalError("subclass responsibility")
    }

    /// Destroys and frees a heap copy made by ``storeInstance(copying:)``.
    func releaseStoredInstance(_ storage: UnsafeMutableRawPointer) {
        fatalError("subclass responsibility")
    }

    /// The class instance the `Service` at `source` is, or `nil` for a value type.
    func object(of source: UnsafeRawPointer) -> AnyObject? {
        fatalError("subclass responsibility")
    }

    /// Initializes `destination` with `object` as a `Service`; `false` if it is not one.
    func copyInstance(of object: AnyObject, to destination: UnsafeMutableRawPointer) -> Bool {
        fatalError("subclass responsibility")
    }

    /// Builds this registration from `registry` as a top-level resolve, for validation,
    /// and drops the instance. Only factories without an argument can be built this way.
    func buildForValidation(from registry: ServiceRegistry, resolution: UnsafeMutablePointer<Resolution>)
        throws(ResolutionError)
    {
        fatalError("subclass responsibility")
    }

    // MARK: Shared instances

    /// The cell caching this registration's shared instance in the registry.
    var cell: InstanceCell {
        if let existing = existingCell { return existing }
        let fresh = Unmanaged.passRetained(InstanceCell())
        let (exchanged, current) = cellBits.compareExchange(
            expected: 0, desired: UInt(bitPattern: fresh.toOpaque()), ordering: .acquiringAndReleasing)
        if exchanged { return fresh.takeUnretainedValue() }
        fresh.release()
        return Unmanaged<InstanceCell>.fromOpaque(UnsafeRawPointer(bitPattern: current)!).takeUnretainedValue()
    }

    private var existingCell: InstanceCell? {
        let bits = cellBits.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<InstanceCell>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// Copies the built singleton into `result`, retaining nothing else: the resolve fast
    /// path. The caller keeps this registration alive (it holds a table lock).
    @inline(__always)
    func copyCachedSingleton(into result: UnsafeMutableRawPointer) -> Bool {
        let bits = cellBits.load(ordering: .acquiring)
        guard bits != 0 else { return false }
        let storage = Unmanaged<InstanceCell>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            ._withUnsafeGuaranteedRef { $0.singletonStorage }
        guard let storage else { return false }
        copyInstance(from: storage, to: result)
        return true
    }

    /// Frees the singleton `cell` holds, if any; called once, when the cell's owner goes.
    func destroyInstance(in cell: InstanceCell) {
        if let storage = cell.takeSingletonStorage() {
            releaseStoredInstance(storage)
        }
    }

    /// `ReviewService` or `ReviewService (name: "offline")`, for paths and listings.
    var displayName: String {
        TypeName.describe(serviceTypeName, name: key.name)
    }
}

/// A registration of a `Service`: the typed half of ``AnyRegistration``.
@usableFromInline
class ServiceRegistration<Service>: AnyRegistration, @unchecked Sendable {
    // @unchecked: no stored state beyond the immutable and atomic base.

    override var serviceTypeName: String { TypeName.of(Service.self) }

    override func copyInstance(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        destination.assumingMemoryBound(to: Service.self).initialize(to: source.assumingMemoryBound(to: Service.self).pointee)
    }

    override func storeInstance(copying source: UnsafeRawPointer) -> UnsafeMutableRawPointer {
        let storage = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        storage.initialize(from: source.assumingMemoryBound(to: Service.self), count: 1)
        return UnsafeMutableRawPointer(storage)
    }

    override func releaseStoredInstance(_ storage: UnsafeMutableRawPointer) {
        let typed = storage.assumingMemoryBound(to: Service.self)
        typed.deinitialize(count: 1)
        typed.deallocate()
    }

    override func object(of source: UnsafeRawPointer) -> AnyObject? {
        let value = source.assumingMemoryBound(to: Service.self).pointee
        guard type(of: value as Any) is AnyObject.Type else { return nil }
        return value as AnyObject
    }

    override func copyInstance(of object: AnyObject, to destination: UnsafeMutableRawPointer) -> Bool {
        guard let value = object as? Service else { return false }
        destination.assumingMemoryBound(to: Service.self).initialize(to: value)
        return true
    }
}

/// A registration whose factory takes no runtime argument.
@usableFromInline
final class FactoryRegistration<Service>: ServiceRegistration<Service>, @unchecked Sendable {
    let factory: @Sendable (borrowing Resolver) throws -> Service

    @usableFromInline
    init(
        name: String?, scope: Scope, origin: Int32,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service
    ) {
        self.factory = factory
        super.init(key: ServiceKey(service: ObjectIdentifier(Service.self), argument: nil, name: name), scope: scope, origin: origin)
    }

    override var argumentTypeName: String? { nil }

    override func invoke(_ resolver: borrowing Resolver, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer)
        throws
    {
        result.assumingMemoryBound(to: Service.self).initialize(to: try factory(resolver))
    }

    override func buildForValidation(from registry: ServiceRegistry, resolution: UnsafeMutablePointer<Resolution>)
        throws(ResolutionError)
    {
        let result = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        defer { result.deallocate() }
        try registry.resolve(
            key: key, serviceType: Service.self, argumentType: nil, argument: nil, into: UnsafeMutableRawPointer(result),
            parent: nil, resolution: resolution)
        result.deinitialize(count: 1)
    }
}

/// A registration whose factory takes a runtime argument (several travel as a tuple).
@usableFromInline
final class ArgumentFactoryRegistration<Service, Argument>: ServiceRegistration<Service>, @unchecked Sendable {
    let factory: @Sendable (borrowing Resolver, Argument) throws -> Service

    @usableFromInline
    init(
        name: String?, scope: Scope, origin: Int32,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service
    ) {
        self.factory = factory
        super.init(
            key: ServiceKey(service: ObjectIdentifier(Service.self), argument: ObjectIdentifier(Argument.self), name: name),
            scope: scope, origin: origin)
    }

    override var argumentTypeName: String? { TypeName.of(Argument.self) }

    override func invoke(_ resolver: borrowing Resolver, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer)
        throws
    {
        // The key holds `Argument`'s identity, so a resolve that found this registration
        // passed an `Argument`.
        let value = argument!.assumingMemoryBound(to: Argument.self).pointee
        result.assumingMemoryBound(to: Service.self).initialize(to: try factory(resolver, value))
    }
}
