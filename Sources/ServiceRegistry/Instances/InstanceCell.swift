import Synchronization

/// Where a shared (`.singleton` or `.weak`) instance is cached.
///
/// A registration owns one cell for the registry; an override scope keeps cells of its
/// own, so instances built inside the scope never leak out of it. Building into a cell is
/// coordinated by ``BuildCoordinator``.
class AnyInstanceCell: @unchecked Sendable {
    // @unchecked: subclasses keep their state in atomics and a mutex.
}

final class InstanceCell<Service>: AnyInstanceCell, @unchecked Sendable {
    // @unchecked: the singleton box is published once through an atomic and freed in deinit;
    // the weak reference lives inside its mutex. The instance itself is handed to every
    // thread that resolves it, which is what a shared scope means (see `Scope.singleton`).
    private let singletonBits = Atomic<UInt>(0)
    private let weakReference = Lock(WeakReference())

    /// The built singleton, read without retaining its box.
    @inline(__always)
    var singleton: Service? {
        let bits = singletonBits.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<InstanceBox<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            ._withUnsafeGuaranteedRef { $0.value }
    }

    /// Publishes the singleton. Called once, by the one thread that built it.
    func storeSingleton(_ value: Service) {
        let box = Unmanaged.passRetained(InstanceBox(value))
        let (exchanged, _) = singletonBits.compareExchange(
            expected: 0, desired: UInt(bitPattern: box.toOpaque()), ordering: .acquiringAndReleasing)
        if !exchanged { box.release() }
    }

    /// The `.weak` instance, if someone still holds it.
    var weakInstance: Service? {
        let object = weakReference.withLock { UncheckedSendable($0.object) }.value
        return object.flatMap { $0 as? Service }
    }

    /// Keeps a weak reference to a class instance. A value-type instance cannot be held
    /// weakly and is not cached (see `Scope.weak`).
    func storeWeak(_ value: Service) {
        guard type(of: value as Any) is AnyObject.Type else { return }
        let object = UncheckedSendable(value as AnyObject)
        weakReference.withLock { $0.object = object.value }
    }

    deinit {
        let bits = singletonBits.load(ordering: .acquiring)
        if bits != 0 {
            Unmanaged<InstanceBox<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        }
    }
}

/// Holds a built instance so a cell can publish it through one atomic word.
final class InstanceBox<Service> {
    let value: Service
    init(_ value: Service) { self.value = value }
}

struct WeakReference {
    weak var object: AnyObject?
}

/// Carries a value across a lock or task boundary that the compiler cannot see is safe.
///
/// Used only where the value is a shared instance handed out by design (a cached service)
/// or is read on the thread that made it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
