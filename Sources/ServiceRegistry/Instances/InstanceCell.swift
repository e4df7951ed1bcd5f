import Synchronization

/// Where a shared (`.singleton` or `.weak`) instance is cached.
///
/// A registration owns one cell for the registry; an override scope keeps cells of its
/// own, so instances built inside the scope never leak out of it. Building into a cell is
/// coordinated by ``BuildCoordinator``. The cell does not know the instance's type: the
/// registration that owns it stores, copies and frees the instance.
final class InstanceCell: @unchecked Sendable {
    // @unchecked: the singleton's storage is published once through an atomic (and taken
    // back only by the cell's owner, when nobody else can reach the cell); the weak
    // reference lives inside its lock.
    private let singletonBits = Atomic<UInt>(0)
    private let weakReference = Lock(WeakReference())

    /// The built singleton's storage, or `nil` before it is built.
    @inline(__always)
    var singletonStorage: UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: singletonBits.load(ordering: .acquiring))
    }

    /// Publishes the singleton's storage. Called once, by the one resolve that built it.
    func publishSingleton(_ storage: UnsafeMutableRawPointer) {
        // A second build would overwrite the first one's copy, which would then leak
        // unseen; the build coordinator rules that out, and debug builds check it.
        assert(singletonStorage == nil, "a singleton was published twice")
        singletonBits.store(UInt(bitPattern: storage), ordering: .releasing)
    }

    /// Takes the singleton's storage back, for the owner to free.
    func takeSingletonStorage() -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: singletonBits.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// The `.weak` instance, if someone still holds it.
    ///
    /// The strong reference the read makes leaves the lock with the caller: when its last
    /// holder lets go meanwhile it is the last one, and the instance's `deinit` (user code)
    /// must not run under the lock.
    var weakObject: AnyObject? {
        weakReference.withLock { UncheckedSendable($0.object) }.value
    }

    /// Holds `object` weakly.
    func storeWeak(_ object: AnyObject) {
        let object = UncheckedSendable(object)
        weakReference.withLock { $0.object = object.value }
    }
}

struct WeakReference {
    weak var object: AnyObject?
}

/// Carries a value across a lock or task boundary that the compiler cannot see is safe.
///
/// Used only where the value is a shared instance handed out by design (a cached service),
/// is immutable (an assembly's metatype), or is read on the thread that made it (what a
/// table lookup returns out of its stripe lock).
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline
    var value: Value
    @usableFromInline
    init(_ value: Value) { self.value = value }
}
