import Synchronization

/// The registrations of one registry: an open-addressing hash table behind a read-mostly
/// striped lock.
///
/// Every resolve reads this table and registrations are rare, so reads must not serialise
/// threads. A reader takes one of eight stripe locks, picked by where its stack is (each
/// thread runs on its own stack, so two threads rarely share a stripe; the core may not
/// import Glibc for a thread id). A writer takes all eight. Nothing runs under a stripe
/// but the table lookup itself: no factory, no deinit, so a stripe can never be part of a
/// deadlock.
///
/// Lookups hash the key with ``ServiceKey/tableHash`` (no `Hasher`, no allocation) and
/// probe linearly, so a lookup costs the same with 10 or 10,000 registrations. Entries are
/// never removed, only replaced, so probing needs no tombstones.
final class RegistrationTable: @unchecked Sendable {
    // @unchecked: `slots`, `capacity` and `count` are read only while holding one stripe
    // lock and written only while holding all of them.
    private static let stripeCount = 8
    private static let stripeStride = 128  // two cache lines, so stripes never share one

    private let stripes: UnsafeMutableRawPointer
    private var slots: UnsafeMutablePointer<Unmanaged<AnyRegistration>?>
    private var capacity: Int
    private var count = 0

    init() {
        stripes = UnsafeMutableRawPointer.allocate(
            byteCount: Self.stripeCount * Self.stripeStride, alignment: Self.stripeStride)
        for index in 0..<Self.stripeCount {
            (stripes + index * Self.stripeStride).bindMemory(to: Lock<Void>.self, capacity: 1)
                .initialize(to: Lock(()))
        }
        capacity = 16
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        for index in 0..<capacity {
            slots[index]?.release()
        }
        slots.deallocate()
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

    /// What ``lookup(_:copyingSingletonInto:)`` found.
    enum Lookup {
        /// `key` is a built singleton, now copied into the result.
        case copiedSingleton
        /// The registration for `key`, retained so it outlives the lock.
        case found(AnyRegistration)
        case missing
    }

    /// Finds `key` with one lock and one probe: copies a built singleton straight into
    /// `result` (the resolve fast path, which retains nothing but the instance it copies),
    /// or returns the registration to resolve.
    @inline(__always)
    func lookup(_ key: ServiceKey, copyingSingletonInto result: UnsafeMutableRawPointer) -> Lookup {
        readLocked {
            guard let found = find(key) else { return .missing }
            let copied = found._withUnsafeGuaranteedRef { registration in
                registration.scope.kind == .singleton && registration.copyCachedSingleton(into: result)
            }
            return copied ? .copiedSingleton : .found(found.takeUnretainedValue())
        }
    }

    /// Every registration, in no particular order.
    var allRegistrations: [AnyRegistration] {
        readLocked {
            var result: [AnyRegistration] = []
            result.reserveCapacity(count)
            for index in 0..<capacity {
                if let slot = slots[index] { result.append(slot.takeUnretainedValue()) }
            }
            return result
        }
    }

    /// How many keys are registered.
    var registrationCount: Int { readLocked { count } }

    // MARK: Writing

    /// Stores `registration`, replacing any registration with the same key.
    ///
    /// - Returns: The replaced registration. The caller drops it after this returns, so a
    ///   cached instance's deinit never runs under the table's locks.
    func insert(_ registration: AnyRegistration) -> AnyRegistration? {
        let retained = Unmanaged.passRetained(registration)
        let key = registration.key
        let hash = registration.keyHash
        var replaced: Unmanaged<AnyRegistration>?
        writeLocked {
            if (count + 1) * 4 > capacity * 3 {
                grow()
            }
            var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while let slot = slots[index] {
                if slot._withUnsafeGuaranteedRef({ $0.keyHash == hash && $0.key == key }) {
                    slots[index] = retained
                    replaced = slot
                    return
                }
                index = (index + 1) & (capacity - 1)
            }
            slots[index] = retained
            count += 1
        }
        return replaced?.takeRetainedValue()
    }

    // MARK: Internals

    @inline(__always)
    private func find(_ key: ServiceKey) -> Unmanaged<AnyRegistration>? {
        let hash = key.tableHash
        var index = Int(truncatingIfNeeded: hash) & (capacity - 1)
        while let slot = slots[index] {
            if slot._withUnsafeGuaranteedRef({ $0.keyHash == hash && $0.key == key }) {
                return slot
            }
            index = (index + 1) & (capacity - 1)
        }
        return nil
    }

    private func grow() {
        let oldSlots = slots
        let oldCapacity = capacity
        capacity *= 2
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        for oldIndex in 0..<oldCapacity {
            guard let slot = oldSlots[oldIndex] else { continue }
            var index = Int(truncatingIfNeeded: slot._withUnsafeGuaranteedRef { $0.keyHash }) & (capacity - 1)
            while slots[index] != nil {
                index = (index + 1) & (capacity - 1)
            }
            slots[index] = slot
        }
        oldSlots.deallocate()
    }

    @inline(__always)
    private func stripe(_ index: Int) -> UnsafeMutablePointer<Lock<Void>> {
        (stripes + index * Self.stripeStride).assumingMemoryBound(to: Lock<Void>.self)
    }

    /// The stripe for the calling thread, from the address of its stack.
    @inline(__always)
    private var currentStripe: Int {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return Int(truncatingIfNeeded: ((address >> 14) &* 0x9E37_79B9_7F4A_7C15) >> 61)
    }

    @inline(__always)
    private func readLocked<Result>(_ body: () -> Result) -> Result {
        // The result leaves the lock as the caller's value; nothing else holds it.
        stripe(currentStripe).pointee.withLock { _ in UncheckedSendable(body()) }.value
    }

    private func writeLocked(_ body: () -> Void) {
        lockStripes(from: 0, body)
    }

    /// Takes stripes `index...` in order (one fixed order, so two writers never deadlock).
    private func lockStripes(from index: Int, _ body: () -> Void) {
        if index == Self.stripeCount {
            return body()
        }
        stripe(index).pointee.withLock { _ in lockStripes(from: index + 1, body) }
    }
}
