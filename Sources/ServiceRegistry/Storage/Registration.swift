import Synchronization

/// One registered factory, as the registration table stores it.
///
/// Immutable once made; re-registering a key makes a new registration (with no instance
/// cell until it is first resolved) and drops this one.
///
/// The resolve engine is not generic: it moves instances through raw pointers and lets
/// the registration, which knows its `Service` type, build, copy and destroy them through
/// these overridden methods. Generic code compiled in the library (rather than
/// specialized in the caller) would look up the metadata of types like
/// `FactoryRegistration<Service>` on every call, which costs more than the whole lookup.
///
/// What the subclasses do not override is `final`: the runtime builds each subclass's
/// metadata once per service type, copying this class's vtable into it, so every
/// overridable member costs every registered service type a word for the process's life.
@usableFromInline
class AnyRegistration: @unchecked Sendable {
    // @unchecked: every stored property is immutable or atomic.

    /// The service type's identity.
    let service: ObjectIdentifier
    /// The registration name, if any.
    let name: String?
    /// Everything else about the key and the registration, packed into one word so a
    /// registration fits a small allocation: the key's table hash (high 32 bits), the
    /// origin (24 bits, offset by 2), whether the factory takes an argument (1 bit), and
    /// the scope (7 bits).
    private let packed: UInt64
    /// One word with a meaning per scope, so a registration stays one small allocation.
    /// For `.singleton` and `.weak`: the cell caching the instance, made on first use, as
    /// an `Unmanaged<InstanceCell>` published with a compare-exchange. For `.transient` and
    /// `.graph`, which never have a cell: how many top-level resolves of this registration
    /// are running (see ``beginTopLevelResolve()``), below ``letGoBit`` and ``releasedBit``.
    private let cellOrCount = Atomic<UInt>(0)

    init(key: ServiceKey, scope: Scope, origin: Int32) {
        service = key.service
        name = key.name
        let storedOrigin = UInt64(min(max(Int(origin) + 2, 0), 0xFF_FFFF))
        packed =
            UInt64(key.tableHash) << 32 | storedOrigin << 8 | (key.takesNoArgument ? 0 : 0x80)
            | UInt64(scope.kind.rawValue)
    }

    /// The key's table hash (``ServiceKey/tableHash``), kept so growing the table and
    /// probing never rehash names.
    @inline(__always)
    final var keyHash: UInt32 { UInt32(truncatingIfNeeded: packed >> 32) }

    /// How long a built instance lives and who shares it.
    @inline(__always)
    final var scope: Scope { Scope(kind: Scope.Kind(rawValue: UInt8(truncatingIfNeeded: packed & 0x7F))!) }

    /// Index of the assembly that made this registration in its registry's origin list,
    /// or one of the negative markers in ``Installing``.
    final var origin: Int32 { Int32(truncatingIfNeeded: (packed >> 8) & 0xFF_FFFF) - 2 }

    /// Whether the factory takes a runtime argument.
    @inline(__always)
    final var takesArgument: Bool { packed & 0x80 != 0 }

    /// The identity of the factory's argument type; overridden by factories that take one.
    var argumentIdentity: ObjectIdentifier { ObjectIdentifier(NoArgument.self) }

    /// The key this registration is found by.
    final var key: ServiceKey {
        ServiceKey(service: service, argument: takesArgument ? argumentIdentity : nil, name: name)
    }

    /// Whether this registration is the one for `key`, whose table hash is `hash`. Asks
    /// the subclass for its argument type only when the key has one.
    @inline(__always)
    final func matches(_ key: ServiceKey, hash: UInt32) -> Bool {
        guard keyHash == hash, service == key.service, name == key.name else { return false }
        return key.takesNoArgument ? !takesArgument : takesArgument && argumentIdentity == key.argument
    }

    deinit {
        if scope.isShared {
            if let cell = existingCell {
                Self.destroyInstance(in: cell)
                Unmanaged.passUnretained(cell).release()
            }
            // What an override scope cached for it may go now.
            OverrideLayer.registrationIsGone()
        }
    }

    // MARK: Typed operations, overridden by FactoryRegistration and ArgumentFactoryRegistration

    /// The service type.
    var serviceType: Any.Type { fatalError("subclass responsibility") }

    /// The service type as a reader writes it, such as `ReviewService`.
    final var serviceTypeName: String { TypeName.of(serviceType) }

    /// The service type with the module and types it is nested in, such as
    /// `WeReadInterfaces.ReviewService` (see ``TypeName/qualified(_:)``): tells apart two
    /// types of one short name.
    final var qualifiedServiceTypeName: String { TypeName.qualified(serviceType) }

    /// The argument type as a reader writes it, or `nil` for a factory without one.
    final var argumentTypeName: String? { argumentType.map(TypeName.of) }

    /// The factory's argument type, or `nil` for a factory without one.
    var argumentType: Any.Type? { nil }

    /// Whether `value`, an argument given to a resolve that missed this registration,
    /// casts to this factory's argument type. Only for building an error.
    func argumentCasts(_ value: Any) -> Bool { false }

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
    ///
    /// A class method: it needs only the `Service` type, so an override scope's cell can
    /// free its instance after the registration has gone (see ``OverrideLayer``).
    class func releaseStoredInstance(_ storage: UnsafeMutableRawPointer) {
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
    /// and drops the instance. A factory that takes an argument is given one of
    /// `sampleArguments`: the first whose type is exactly its argument type, otherwise the
    /// first that casts to it.
    ///
    /// - Returns: `false`, running nothing, when the factory takes an argument and no
    ///   sample is one.
    func buildForValidation(
        from registry: ServiceRegistry, sampleArguments: [Any], resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> Bool {
        fatalError("subclass responsibility")
    }

    // MARK: Unshared instances

    /// Counts a top-level resolve of this `.transient` or `.graph` registration as
    /// running, and returns how many already were: a factory that resolves its own
    /// service through the registry, rather than through its resolver, starts a fresh
    /// top-level resolve each time, and this count is how the engine notices it (see
    /// ``ServiceRegistry/resolveTraced(_:argument:into:resolution:)``).
    ///
    /// The count also keeps the registration alive for resolves that hold no reference to
    /// it: the table's fast path counts a resolve under its stripe lock instead of
    /// retaining the registration (one atomic instead of three), and a table that lets go
    /// of a counted registration leaves its reference to the last of them (see
    /// ``tableLetsGo()``).
    ///
    /// Pair every call with ``endTopLevelResolve()``.
    @inline(__always)
    final func beginTopLevelResolve() -> UInt {
        assert(!scope.isShared, "a shared registration's word holds its cell")
        return cellOrCount.wrappingAdd(1, ordering: .relaxed).oldValue & Self.countMask
    }

    /// Counts a top-level resolve counted by ``beginTopLevelResolve()`` as finished.
    ///
    /// - Returns: Whether the caller must now release the reference the table left to the
    ///   resolves it counted (see ``tableLetsGo()``): this was the last of them. Released
    ///   by the caller, not here, as the release may free this registration.
    @inline(__always)
    final func endTopLevelResolve() -> Bool {
        // One atomic step both ends the count and, when it was the last after the table let
        // go, claims the table's reference. With a subtract and then a claim, a resolve that
        // holds no reference (the fast path's) would touch this registration between the two
        // while another resolve, which holds one, began, ended, claimed the reference,
        // released it and dropped its own: freed.
        var old = cellOrCount.load(ordering: .relaxed)
        #if INTERLEAVING_HOOKS
        if old == Self.letGoBit | 1 { InterleavingHooks.run(InterleavingHooks.beforeLastEnd, for: self) }
        #endif
        while true {
            let claims = old == Self.letGoBit | 1
            let (exchanged, current) = cellOrCount.weakCompareExchange(
                expected: old, desired: claims ? Self.letGoBit | Self.releasedBit : old &- 1,
                successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
            if exchanged { return claims }
            old = current
        }
    }

    /// Called by the registry that replaced this `.transient` or `.graph` registration in
    /// its table, which holds a reference to it: the resolves counted by
    /// ``beginTopLevelResolve()`` may hold none, so the table's reference passes to the
    /// last of them (a retain here), or is released now if none is running.
    ///
    /// A resolve can no longer find the registration, so none begins counted by the
    /// table's fast path; one that holds a reference of its own (the slow path, an
    /// override scope) may still begin and end, and then takes part in deciding who
    /// releases: the ``releasedBit`` makes that exactly one.
    final func tableLetsGo() {
        assert(!scope.isShared, "a shared registration's word holds its cell")
        let reference = Unmanaged.passRetained(self)
        let old = cellOrCount.bitwiseOr(Self.letGoBit, ordering: .acquiringAndReleasing).oldValue
        if old & Self.countMask == 0, claimTableReference() {
            reference.release()
        }
    }

    /// Whether the caller is the one to release the reference ``tableLetsGo()`` left: set
    /// ``releasedBit`` if no counted resolve runs. Fails when a resolve began meanwhile;
    /// its end claims it instead.
    private final func claimTableReference() -> Bool {
        cellOrCount.compareExchange(
            expected: Self.letGoBit, desired: Self.letGoBit | Self.releasedBit, ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Set in an unshared registration's word once its table has let go of it (see
    /// ``tableLetsGo()``).
    private static var letGoBit: UInt { 1 << (UInt.bitWidth - 1) }

    /// Set once the reference the table left has been claimed for release.
    private static var releasedBit: UInt { 1 << (UInt.bitWidth - 2) }

    /// The bits of an unshared registration's word that count its top-level resolves.
    private static var countMask: UInt { releasedBit - 1 }

    // MARK: Shared instances

    /// The cell caching this registration's shared instance in the registry.
    final var cell: InstanceCell {
        assert(scope.isShared, "an unshared registration's word counts its resolves")
        if let existing = existingCell { return existing }
        let fresh = Unmanaged.passRetained(InstanceCell())
        let (exchanged, current) = cellOrCount.compareExchange(
            expected: 0, desired: UInt(bitPattern: fresh.toOpaque()), ordering: .acquiringAndReleasing)
        if exchanged { return fresh.takeUnretainedValue() }
        fresh.release()
        return Unmanaged<InstanceCell>.fromOpaque(UnsafeRawPointer(bitPattern: current)!).takeUnretainedValue()
    }

    private final var existingCell: InstanceCell? {
        let bits = cellOrCount.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<InstanceCell>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// The built singleton's storage, or `nil` before it is built: the resolve fast path,
    /// which retains nothing. The caller keeps this registration alive (it holds a table
    /// lock) while it copies the instance out.
    @inline(__always)
    final var cachedSingletonStorage: UnsafeRawPointer? {
        let bits = cellOrCount.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<InstanceCell>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            ._withUnsafeGuaranteedRef { $0.singletonStorage }
    }

    /// Frees the singleton `cell` holds, if any; called once, when the cell's owner goes.
    static func destroyInstance(in cell: InstanceCell) {
        if let storage = cell.takeSingletonStorage() {
            releaseStoredInstance(storage)
        }
    }

    /// `ReviewService` or `ReviewService (name: "offline")`, for paths and listings.
    final var displayName: String {
        TypeName.describe(serviceTypeName, name: key.name)
    }
}

// MARK: Typed operations, shared by the subclasses

// Generic functions rather than a generic class between `AnyRegistration` and the two
// subclasses: the runtime instantiates a generic class's metadata once per type argument,
// at first use, and keeps it for the life of the process. A level in between would be a
// second class metadata per service type, and completing the subclass's metadata would
// look that superclass up by demangling its name. A generic function costs nothing per
// type; each subclass's override calls it with its `Service` (or, for a copy, the
// `copyService(_:from:to:)` every `resolve` passes down).
extension AnyRegistration {
    /// ``storeInstance(copying:)`` for a `Service`.
    static func storeInstance<Service>(_: Service.Type, copying source: UnsafeRawPointer) -> UnsafeMutableRawPointer {
        let storage = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        storage.initialize(from: source.assumingMemoryBound(to: Service.self), count: 1)
        return UnsafeMutableRawPointer(storage)
    }

    /// ``releaseStoredInstance(_:)`` for a `Service`.
    static func releaseStoredInstance<Service>(_: Service.Type, _ storage: UnsafeMutableRawPointer) {
        let typed = storage.assumingMemoryBound(to: Service.self)
        typed.deinitialize(count: 1)
        typed.deallocate()
    }

    /// ``object(of:)`` for a `Service`.
    static func object<Service>(_: Service.Type, of source: UnsafeRawPointer) -> AnyObject? {
        // An optional is a value even when it holds an object: its object is the one it
        // wraps (the check below alone would keep a `.weak` optional service from being held).
        if let optional = Service.self as? any OptionalService.Type {
            return optional.wrappedObject(at: source)
        }
        let value = source.assumingMemoryBound(to: Service.self).pointee
        // This check is what keeps values out: any cast to `AnyObject` succeeds, boxing a
        // value that is not a class instance, so the `default` below is never taken.
        guard type(of: value as Any) is AnyObject.Type else { return nil }
        // A dynamic cast rather than `value as AnyObject`, which makes an `any Error` the box
        // the runtime keeps it in (on Linux), not the error object: no cast takes the box
        // back to `any Error`, so a `.weak` error was rebuilt on every resolve, and observers
        // were handed the box. (`as?` would warn that it always succeeds.)
        switch value {
        case let object as AnyObject: return object
        default: return nil
        }
    }

    /// ``copyInstance(of:to:)`` for a `Service`.
    static func copyInstance<Service>(
        _: Service.Type, of object: AnyObject, to destination: UnsafeMutableRawPointer
    ) -> Bool {
        guard let value = object as? Service else { return false }
        destination.assumingMemoryBound(to: Service.self).initialize(to: value)
        return true
    }

    /// Resolves this registration's key from `registry` as a top-level resolve, with the
    /// `argumentType` at `argument` if any, and drops the instance: validation's build.
    final func buildDroppingInstance<Service>(
        _: Service.Type, from registry: ServiceRegistry, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) {
        let result = UnsafeMutablePointer<Service>.allocate(capacity: 1)
        defer { result.deallocate() }
        try registry.resolve(
            key: key, serviceType: Service.self, argumentType: argumentType, argument: argument,
            into: UnsafeMutableRawPointer(result), copyingCached: { copyService(Service.self, from: $0, to: $1) },
            parent: nil, resolution: resolution)
        result.deinitialize(count: 1)
    }
}

/// A registration whose factory takes no runtime argument.
@usableFromInline
final class FactoryRegistration<Service>: AnyRegistration, @unchecked Sendable {
    // @unchecked: the base's state is immutable or atomic, and the factory is immutable.

    let factory: @Sendable (borrowing Resolver) throws -> Service

    @usableFromInline
    init(
        name: String?, scope: Scope, origin: Int32,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service
    ) {
        self.factory = factory
        super.init(key: ServiceKey(Service.self, name: name), scope: scope, origin: origin)
    }

    override var serviceType: Any.Type { Service.self }

    override func copyInstance(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        copyService(Service.self, from: source, to: destination)
    }

    override func storeInstance(copying source: UnsafeRawPointer) -> UnsafeMutableRawPointer {
        Self.storeInstance(Service.self, copying: source)
    }

    override class func releaseStoredInstance(_ storage: UnsafeMutableRawPointer) {
        releaseStoredInstance(Service.self, storage)
    }

    override func object(of source: UnsafeRawPointer) -> AnyObject? {
        Self.object(Service.self, of: source)
    }

    override func copyInstance(of object: AnyObject, to destination: UnsafeMutableRawPointer) -> Bool {
        Self.copyInstance(Service.self, of: object, to: destination)
    }

    override func invoke(_ resolver: borrowing Resolver, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer)
        throws
    {
        result.assumingMemoryBound(to: Service.self).initialize(to: try factory(resolver))
    }

    override func buildForValidation(
        from registry: ServiceRegistry, sampleArguments: [Any], resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> Bool {
        try buildDroppingInstance(Service.self, from: registry, argumentType: nil, argument: nil, resolution: resolution)
        return true
    }
}

/// A registration whose factory takes a runtime argument (several travel as a tuple).
@usableFromInline
final class ArgumentFactoryRegistration<Service, Argument>: AnyRegistration, @unchecked Sendable {
    // @unchecked: the base's state is immutable or atomic, and the factory is immutable.

    let factory: @Sendable (borrowing Resolver, Argument) throws -> Service

    @usableFromInline
    init(
        name: String?, scope: Scope, origin: Int32,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service
    ) {
        self.factory = factory
        super.init(
            key: ServiceKey(Service.self, name: name, argument: Argument.self),
            scope: scope, origin: origin)
    }

    override var serviceType: Any.Type { Service.self }

    override func copyInstance(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        copyService(Service.self, from: source, to: destination)
    }

    override func storeInstance(copying source: UnsafeRawPointer) -> UnsafeMutableRawPointer {
        Self.storeInstance(Service.self, copying: source)
    }

    override class func releaseStoredInstance(_ storage: UnsafeMutableRawPointer) {
        releaseStoredInstance(Service.self, storage)
    }

    override func object(of source: UnsafeRawPointer) -> AnyObject? {
        Self.object(Service.self, of: source)
    }

    override func copyInstance(of object: AnyObject, to destination: UnsafeMutableRawPointer) -> Bool {
        Self.copyInstance(Service.self, of: object, to: destination)
    }

    override var argumentType: Any.Type? { Argument.self }

    override func argumentCasts(_ value: Any) -> Bool { value is Argument }

    override var argumentIdentity: ObjectIdentifier { ObjectIdentifier(Argument.self) }

    override func invoke(_ resolver: borrowing Resolver, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer)
        throws
    {
        // The key holds `Argument`'s identity, so a resolve that found this registration
        // passed an `Argument`.
        let value = argument!.assumingMemoryBound(to: Argument.self).pointee
        result.assumingMemoryBound(to: Service.self).initialize(to: try factory(resolver, value))
    }

    override func buildForValidation(
        from registry: ServiceRegistry, sampleArguments: [Any], resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> Bool {
        guard let sample = Self.sample(in: sampleArguments) else { return false }
        try withUnsafePointer(to: sample) { sample throws(ResolutionError) in
            try buildDroppingInstance(
                Service.self, from: registry, argumentType: Argument.self, argument: argumentAddress(sample),
                resolution: resolution)
        }
        return true
    }

    /// The sample validation builds this factory with: the first of `samples` whose
    /// dynamic type is exactly `Argument`, otherwise the first that `as?` converts to it
    /// (a `FixedClock` for an `any Clock`, a subclass for its superclass, a value for an
    /// optional of its type) without boxing it as an object; `nil` when none does.
    private static func sample(in samples: [Any]) -> Argument? {
        if let exact = samples.first(where: { ObjectIdentifier(type(of: $0)) == ObjectIdentifier(Argument.self) }) {
            return exact as? Argument
        }
        for sample in samples {
            // `as?` makes any value an `AnyObject` by boxing it, so a string would be an
            // `AnyObject` argument's sample: only an object (in optionals or not) converts to
            // an object.
            if let converted = sample as? Argument,
                type(of: unwrapped(sample)) is AnyObject.Type || !(type(of: unwrapped(converted)) is AnyObject.Type)
            {
                return converted
            }
        }
        return nil
    }

    /// The value `value` wraps in optionals, or `value` if it is no optional or `nil`.
    private static func unwrapped(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value else { return value }
        return unwrapped(wrapped)
    }
}
