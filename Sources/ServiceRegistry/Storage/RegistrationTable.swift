import Synchronization

/// The registrations of one registry: an open-addressing hash table behind a read-mostly
/// striped lock.
///
/// Every resolve reads this table and registrations are rare, so reads must not serialise
/// threads. A reader takes one of eight stripe locks, picked by where its stack is (each
/// thread runs on its own stack, so two threads rarely share a stripe; the core may not
/// import Glibc for a thread id). Nothing runs under a stripe but the lookup itself: no
/// factory, no deinit, so a stripe can never be part of a deadlock.
///
/// Writers are serialised by one writer lock. Adding a key only fills an empty slot,
/// which is an atomic store a reader sees whole or not at all, so it needs no stripe.
/// Replacing a registration and growing the table also take all eight stripes: a reader
/// may still be using the old registration or the old slot array, and holding every
/// stripe is what proves none is.
///
/// Lookups hash the key with ``ServiceKey/tableHash`` (no `Hasher`, no allocation) and
/// probe linearly, so a lookup costs the same with 10 or 10,000 registrations. The hash
/// leaves the argument type out, so the keys of one service type and name, whatever their
/// argument, share a probe sequence, and whether any of them is registered is one probe. A slot
/// keeps a few bits of its key's hash beside the registration's address, so a probe
/// passes most other keys without loading their registration. Entries are never removed,
/// only replaced, so probing needs no tombstones.
final class RegistrationTable: @unchecked Sendable {
    // @unchecked: `slots`, `capacity` and `indexShift` change only while holding the
    // writer lock and every stripe, and are read while holding either; each slot is an
    // atomic holding a retained `Unmanaged<AnyRegistration>` and its key's tag (0 when
    // empty), filled with a release store that readers load acquiring; `count` is guarded
    // by the writer lock; `stripes` is fixed at init. A registration in a slot stays alive
    // while a reader holds a stripe: only a writer holding every stripe takes it out, and
    // it is released after the locks are dropped.
    private static let stripeCount = 8
    private static let stripeStride = 128  // two cache lines, so stripes never share one

    private let stripes: UnsafeMutableRawPointer
    private let writer = Lock(())
    private var slots: UnsafeMutablePointer<Atomic<UInt>>
    private var capacity: Int
    /// `32 - log2(capacity)`: an index is the top bits of a key's 32-bit hash.
    private var indexShift: UInt32
    private var count = 0

    init() {
        stripes = UnsafeMutableRawPointer.allocate(
            byteCount: Self.stripeCount * Self.stripeStride, alignment: Self.stripeStride)
        for index in 0..<Self.stripeCount {
            (stripes + index * Self.stripeStride).bindMemory(to: Lock<Void>.self, capacity: 1)
                .initialize(to: Lock(()))
        }
        capacity = 16
        indexShift = 32 - 4
        slots = Self.makeSlots(capacity)
    }

    deinit {
        for index in 0..<capacity {
            Self.registration(in: slots[index].load(ordering: .acquiring))?.release()
        }
        Self.freeSlots(slots, capacity)
        for index in 0..<Self.stripeCount {
            _ = stripe(index).deinitialize(count: 1)
        }
        stripes.deallocate()
    }

    // MARK: Reading

    /// The registration for `key`, retained so it outlives the lock.
    func registration(for key: ServiceKey) -> AnyRegistration? {
        readLocked { find(key)?.takeUnretainedValue() }
    }

    /// What ``lookup(_:copyingSingletonInto:using:countingTopLevel:)`` found.
    enum Lookup {
        /// `key` is a built singleton, now copied into the result.
        case copiedSingleton
        /// The registration for `key`, retained so it outlives the lock.
        case found(AnyRegistration)
        /// The `.transient` or `.graph` registration for `key`, not retained: its top-level
        /// resolve is counted instead (see ``AnyRegistration/beginTopLevelResolve()``),
        /// with `othersRunning` the count before it. The caller must end it with
        /// ``AnyRegistration/endTopLevelResolve()``.
        case countedTopLevel(Unmanaged<AnyRegistration>, othersRunning: UInt)
        case missing
    }

    /// Finds `key` with one lock and one probe: copies a built singleton straight into
    /// `result` with `copy` (the resolve fast path, which retains nothing but the instance
    /// it copies), or returns the registration to resolve. `copy` runs under the lock, so
    /// the singleton cannot be dropped meanwhile; the key names the service type, so the
    /// storage holds the type `copy` copies.
    ///
    /// - Parameter countingTopLevel: Whether the caller is a top-level resolve that takes a
    ///   `.transient` or `.graph` registration counted rather than retained.
    @inline(__always)
    func lookup(
        _ key: ServiceKey, copyingSingletonInto result: UnsafeMutableRawPointer, using copy: InstanceCopy,
        countingTopLevel: Bool = false
    ) -> Lookup {
        readLocked {
            guard let found = find(key) else { return .missing }
            return found._withUnsafeGuaranteedRef { registration in
                switch registration.scope.kind {
                case .singleton:
                    if let storage = registration.cachedSingletonStorage {
                        copy(storage, result)
                        return .copiedSingleton
                    }
                case .transient, .graph:
                    // Under the lock, so no writer has let go of the registration yet.
                    if countingTopLevel {
                        return .countedTopLevel(found, othersRunning: registration.beginTopLevelResolve())
                    }
                case .weak:
                    break
                }
                return .found(found.takeUnretainedValue())
            }
        }
    }

    /// Every registration, in no particular order.
    var allRegistrations: [AnyRegistration] {
        registrations { _ in true }
    }

    /// Every registration for the service type `service`, in no particular order: what a
    /// failing resolve lists, without retaining or hashing every other registration.
    func registrations(of service: ObjectIdentifier) -> [AnyRegistration] {
        registrations { $0.service == service }
    }

    /// Whether a registration for the service type `service` under `name` is here, whatever
    /// argument its factory takes. One probe, not a scan: the table hash leaves the argument
    /// type out (see ``ServiceKey/tableHash``), so every such registration is found from
    /// the same home slot. What a resolve of an optional type asks before it resolves the
    /// wrapped type instead, on every resolve of `if let p: P = try? registry.resolve()`.
    ///
    /// - Parameter excluded: A key of `service` and `name` whose registration does not
    ///   count: one the caller's lookup missed, which another thread registered since.
    func hasRegistration(of service: ObjectIdentifier, name: String?, otherThan excluded: ServiceKey? = nil) -> Bool {
        let hash = ServiceKey(service: service, argument: nil, name: name).tableHash
        return readLocked {
            probe(hash) { registration in
                registration.keyHash == hash && registration.service == service && registration.name == name
                    && !(excluded.map { registration.matches($0, hash: hash) } ?? false)
            } != nil
        }
    }

    /// The registrations `isIncluded` accepts, each retained only if it is: the test sees
    /// the registration while the stripe lock keeps it alive.
    private func registrations(where isIncluded: (AnyRegistration) -> Bool) -> [AnyRegistration] {
        readLocked {
            var result: [AnyRegistration] = []
            for index in 0..<capacity {
                if let registration = Self.registration(in: slots[index].load(ordering: .acquiring)),
                    registration._withUnsafeGuaranteedRef(isIncluded)
                {
                    result.append(registration.takeUnretainedValue())
                }
            }
            return result
        }
    }

    // MARK: Writing

    /// Stores `registration`, replacing any registration with the same key.
    ///
    /// - Returns: The replaced registration. The caller drops it after this returns, so a
    ///   cached instance's deinit never runs under the table's locks, after calling
    ///   ``AnyRegistration/tableLetsGo()`` on one that is `.transient` or `.graph`.
    func insert(_ registration: AnyRegistration) -> AnyRegistration? {
        let key = registration.key
        let hash = registration.keyHash
        let address = UInt(bitPattern: Unmanaged.passRetained(registration).toOpaque())
        assert(address & Self.tagMask == 0, "a heap object is aligned to at least a pointer")
        let bits = address | Self.tag(hash)
        var replaced: Unmanaged<AnyRegistration>?
        writer.withLock { _ in
            if (count + 1) * 4 > capacity * 3 {
                lockAllStripes { grow() }
            }
            var index = homeIndex(hash)
            while let slot = Self.registration(in: slots[index].load(ordering: .relaxed)) {
                if slot._withUnsafeGuaranteedRef({ $0.matches(key, hash: hash) }) {
                    // Readers may be using the old registration: swap it while none reads.
                    lockAllStripes { slots[index].store(bits, ordering: .releasing) }
                    replaced = slot
                    return
                }
                index = (index + 1) & (capacity - 1)
            }
            // Readers see the slot empty or holding the finished registration.
            slots[index].store(bits, ordering: .releasing)
            count += 1
        }
        return replaced?.takeRetainedValue()
    }

    // MARK: Internals

    @inline(__always)
    private func find(_ key: ServiceKey) -> Unmanaged<AnyRegistration>? {
        let hash = key.tableHash
        return probe(hash) { $0.matches(key, hash: hash) }
    }

    /// The first registration from the home slot of `hash` on, up to the first empty slot,
    /// that `isMatch` accepts; `isMatch` sees only registrations whose tag is the hash's.
    @inline(__always)
    private func probe(_ hash: UInt32, _ isMatch: (AnyRegistration) -> Bool) -> Unmanaged<AnyRegistration>? {
        let tag = Self.tag(hash)
        let mask = capacity &- 1
        var index = homeIndex(hash)
        while true {
            let bits = slots[index].load(ordering: .acquiring)
            guard let slot = Self.registration(in: bits) else { return nil }
            // The tag rules out most other keys without loading their registration.
            if bits & Self.tagMask == tag, slot._withUnsafeGuaranteedRef(isMatch) {
                return slot
            }
            index = (index &+ 1) & mask
        }
    }

    /// Doubles the slot array. Called holding the writer lock and every stripe.
    private func grow() {
        let oldSlots = slots
        let oldCapacity = capacity
        capacity *= 2
        indexShift -= 1
        slots = Self.makeSlots(capacity)
        for oldIndex in 0..<oldCapacity {
            let bits = oldSlots[oldIndex].load(ordering: .relaxed)
            guard let slot = Self.registration(in: bits) else { continue }
            var index = homeIndex(slot._withUnsafeGuaranteedRef { $0.keyHash })
            while slots[index].load(ordering: .relaxed) != 0 {
                index = (index + 1) & (capacity - 1)
            }
            slots[index].store(bits, ordering: .relaxed)
        }
        Self.freeSlots(oldSlots, oldCapacity)
    }

    /// The slot a key with `hash` is looked for first.
    @inline(__always)
    private func homeIndex(_ hash: UInt32) -> Int {
        Int(truncatingIfNeeded: hash >> indexShift)
    }

    private static func makeSlots(_ capacity: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        let slots = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity)
        for index in 0..<capacity {
            (slots + index).initialize(to: Atomic(0))
        }
        return slots
    }

    private static func freeSlots(_ slots: UnsafeMutablePointer<Atomic<UInt>>, _ capacity: Int) {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The bits of a slot that hold its tag: the low bits of a registration's address,
    /// which are zero because a heap object is aligned to at least a pointer (three bits
    /// on 64-bit platforms, two on 32-bit ones).
    @inline(__always)
    private static var tagMask: UInt { UInt(MemoryLayout<UnsafeRawPointer>.alignment - 1) }

    /// A key's tag: the low bits of its table hash. The slot index comes from the high
    /// bits, so keys that probe the same slots mostly differ in their tags; keys of one
    /// service type and name that differ only in their argument type share their hash, and
    /// so their tag too (``ServiceKey/tableHash`` leaves the argument out).
    @inline(__always)
    private static func tag(_ hash: UInt32) -> UInt {
        UInt(hash) & tagMask
    }

    /// The registration a slot holds (its address, with the tag masked off), or `nil` for
    /// an empty slot.
    @inline(__always)
    private static func registration(in bits: UInt) -> Unmanaged<AnyRegistration>? {
        UnsafeRawPointer(bitPattern: bits & ~tagMask).map { Unmanaged.fromOpaque($0) }
    }

    @inline(__always)
    private func stripe(_ index: Int) -> UnsafeMutablePointer<Lock<Void>> {
        (stripes + index * Self.stripeStride).assumingMemoryBound(to: Lock<Void>.self)
    }

    /// The stripe for the calling thread, from the address of its stack.
    ///
    /// Threads' stacks are mapped next to each other, 8 MB apart (Linux's default) or
    /// 512 kB apart (Apple's secondary threads). Bits 23 up count 8 MB blocks and bits 19
    /// up count 512 kB blocks; their exclusive or gives any eight neighbouring 8 MB stacks
    /// eight different stripes, and eight neighbouring 512 kB stacks too when they lie in
    /// one 8 MB block. A run that straddles two blocks may share stripes: of all runs of
    /// eight 512 kB stacks, about two in three get eight stripes, the rest four to seven.
    /// No choice of bits does better for both sizes: one that gave every run of eight
    /// 512 kB blocks eight stripes would repeat every eight blocks, and so give every 8 MB
    /// stack the same one. A hash would give two threads the same stripe in one run of eight.
    @inline(__always)
    private var currentStripe: Int {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return Int(truncatingIfNeeded: ((address >> 23) ^ (address >> 19)) & UInt(Self.stripeCount - 1))
    }

    @inline(__always)
    private func readLocked<Result>(_ body: () -> Result) -> Result {
        // The result leaves the lock as the caller's value; nothing else holds it.
        stripe(currentStripe).pointee.withLock { _ in UncheckedSendable(body()) }.value
    }

    /// Takes every stripe in order (one fixed order, so two writers never deadlock), then
    /// runs `body`: no reader is inside the table while it runs.
    private func lockAllStripes(from index: Int = 0, _ body: () -> Void) {
        if index == Self.stripeCount {
            return body()
        }
        stripe(index).pointee.withLock { _ in lockAllStripes(from: index + 1, body) }
    }
}
