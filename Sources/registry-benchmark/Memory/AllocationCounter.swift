#if canImport(Glibc)
import Glibc
#endif
import ServiceRegistry
import Synchronization

/// Counts the heap allocations one thread makes while it runs a closure.
///
/// For the length of ``count(_:)`` the Swift runtime's calls to `malloc`, `calloc`,
/// `realloc` and `posix_memalign`, those of the core runtime (`libswiftCore.so`) and of the
/// concurrency runtime (`libswift_Concurrency.so`), are routed through counting functions
/// (see ``ImportSlots``); every other thread's allocations pass straight through
/// uncounted, so a measurement is exact even while other threads (parallel tests, the
/// runtime) allocate. Every Swift heap allocation — class instances, boxes, closure
/// contexts, array, string and dictionary storage, `UnsafeMutablePointer.allocate`, the
/// items of task-locals bound outside a task — goes through those functions.
///
/// The counters are global, so measurements are serialised: a second thread calling
/// ``count(_:)`` waits for the first. The closure must not call ``count(_:)`` itself.
enum AllocationCounter {
    /// What one thread allocated during a measurement.
    struct Tally: Equatable, Sendable {
        /// How many allocation calls were made (`realloc` counts as one).
        var allocations: Int
        /// How many bytes those calls asked for (before the allocator's rounding and headers).
        var bytes: Int
    }

    /// Whether counting works in this process: the runtime library was found and its
    /// allocation imports located.
    static var isAvailable: Bool { redirection != nil }

    /// Runs `body` on the calling thread and reports the allocations it made.
    ///
    /// - Parameter body: The work to measure; it runs exactly once, on this thread.
    /// - Returns: The closure's result, and the tally, or `nil` for the tally when counting
    ///   is not available here (see ``isAvailable``).
    /// - Throws: Whatever `body` throws; counting is switched off first.
    static func count<Result>(_ body: () throws -> Result) rethrows -> (result: Result, tally: Tally?) {
        guard let redirection else { return (try body(), nil) }
        return try sessionLock.withLock { _ in
            allocationCount.store(0, ordering: .relaxed)
            allocatedBytes.store(0, ordering: .relaxed)
            redirection.install()
            countingThread.store(currentThreadID(), ordering: .releasing)
            defer {
                countingThread.store(0, ordering: .releasing)
                redirection.remove()
            }
            let result = try body()
            let tally = Tally(
                allocations: allocationCount.load(ordering: .relaxed),
                bytes: allocatedBytes.load(ordering: .relaxed))
            return (result, tally)
        }
    }
}

// MARK: - Process-wide state
//
// Globals because the counting functions are C function pointers and cannot capture
// anything. All of it is atomics, a lock, or immutable after its lazy initialisation.

/// Serialises measurements: there is one set of counters per process. The package's `Lock`,
/// not a bare `Mutex`: on Linux the thread sanitizer cannot see a `Mutex` hand a contended
/// lock over, and reported two measurements rewriting the same slots as a race.
private let sessionLock = Lock(())
/// The thread whose allocations count; 0 (never a valid `pthread_t`) when none does.
private let countingThread = Atomic<UInt>(0)
private let allocationCount = Atomic<Int>(0)
private let allocatedBytes = Atomic<Int>(0)

/// Where the runtime's allocation imports live and what they pointed to; built on first
/// use, before any slot is touched, so the counting functions never wait on it.
private let redirection: Redirection? = Redirection.locate()

private func currentThreadID() -> UInt {
    #if canImport(Glibc)
    return UInt(pthread_self())
    #else
    return 1
    #endif
}

@inline(__always)
private func record(bytes: Int) {
    guard countingThread.load(ordering: .acquiring) == currentThreadID() else { return }
    allocationCount.add(1, ordering: .relaxed)
    allocatedBytes.add(bytes, ordering: .relaxed)
}

#if canImport(Glibc)
private typealias MallocFunction = @convention(c) (Int) -> UnsafeMutableRawPointer?
private typealias CallocFunction = @convention(c) (Int, Int) -> UnsafeMutableRawPointer?
private typealias ReallocFunction = @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?
private typealias PosixMemalignFunction =
    @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int, Int) -> Int32

/// The real allocator entry points, as resolved by the dynamic loader (so a sanitizer's
/// interceptors, when present, stay in the path). Plain integers, not optionals: the
/// counting functions run inside the runtime's allocator calls, sometimes while it holds
/// its metadata lock, so they must not touch anything that could need new type metadata.
private struct RealAllocator: Sendable {
    let malloc: UInt, calloc: UInt, realloc: UInt, posixMemalign: UInt

    var isComplete: Bool { malloc != 0 && calloc != 0 && realloc != 0 && posixMemalign != 0 }

    static func resolve() -> RealAllocator {
        RealAllocator(
            malloc: UInt(bitPattern: dlsym(nil, "malloc")), calloc: UInt(bitPattern: dlsym(nil, "calloc")),
            realloc: UInt(bitPattern: dlsym(nil, "realloc")),
            posixMemalign: UInt(bitPattern: dlsym(nil, "posix_memalign")))
    }
}

private let realAllocator = RealAllocator.resolve()

private let countingMalloc: MallocFunction = { size in
    record(bytes: size)
    return unsafeBitCast(realAllocator.malloc, to: MallocFunction.self)(size)
}

private let countingCalloc: CallocFunction = { count, size in
    record(bytes: count &* size)
    return unsafeBitCast(realAllocator.calloc, to: CallocFunction.self)(count, size)
}

private let countingRealloc: ReallocFunction = { pointer, size in
    record(bytes: size)
    return unsafeBitCast(realAllocator.realloc, to: ReallocFunction.self)(pointer, size)
}

private let countingPosixMemalign: PosixMemalignFunction = { result, alignment, size in
    record(bytes: size)
    return unsafeBitCast(realAllocator.posixMemalign, to: PosixMemalignFunction.self)(result, alignment, size)
}

/// Calls every counting function once while counting and once while not, before any
/// slot points at them: whatever they touch (lazy globals, in a debug build the
/// metadata of `Atomic` and of the function types) is initialised now, not inside an
/// allocation the runtime makes under its own locks, where that would deadlock.
private func warmUpCountingFunctions() {
    for counting in [true, false] {
        countingThread.store(counting ? currentThreadID() : 0, ordering: .releasing)
        free(countingMalloc(16))
        free(countingCalloc(1, 16))
        free(countingRealloc(nil, 16))
        var aligned: UnsafeMutableRawPointer?
        if countingPosixMemalign(&aligned, 64, 64) == 0 { free(aligned) }
    }
    countingThread.store(0, ordering: .releasing)
}
#endif

/// The runtime library's allocation slots, what each held, and what to put there while counting.
private struct Redirection: Sendable {
    struct Slot: Sendable {
        let address: UInt
        let original: UInt
        let counting: UInt
    }

    let slots: [Slot]

    static func locate() -> Redirection? {
        #if canImport(Glibc)
        guard realAllocator.isComplete else { return nil }
        warmUpCountingFunctions()
        let counting: [String: UInt] = [
            "malloc": UInt(bitPattern: unsafeBitCast(countingMalloc, to: UnsafeRawPointer.self)),
            "calloc": UInt(bitPattern: unsafeBitCast(countingCalloc, to: UnsafeRawPointer.self)),
            "realloc": UInt(bitPattern: unsafeBitCast(countingRealloc, to: UnsafeRawPointer.self)),
            "posix_memalign": UInt(bitPattern: unsafeBitCast(countingPosixMemalign, to: UnsafeRawPointer.self)),
        ]
        // The runtime is its own shared library unless the program links the standard
        // library statically, in which case the program's own slots are the ones to use.
        let imports =
            ImportSlots.find(symbols: Set(counting.keys), inLibraryWithSuffix: "/libswiftCore.so")
            ?? ImportSlots.find(symbols: Set(counting.keys), inLibraryWithSuffix: "")
        guard let imports, imports.addresses["malloc"]?.isEmpty == false else { return nil }
        // The concurrency runtime calls `malloc` itself, through slots of its own: for a
        // task-local bound outside a task (every `install(_:)` and `withOverrides` from a
        // plain thread), among others. Absent when linked statically (its slots are then
        // the program's).
        let concurrency = ImportSlots.find(symbols: Set(counting.keys), inLibraryWithSuffix: "/libswift_Concurrency.so")
        let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
        var slots: [Slot] = []
        for (symbol, addresses) in imports.addresses.merging(concurrency?.addresses ?? [:], uniquingKeysWith: +) {
            guard let replacement = counting[symbol] else { continue }
            for address in addresses {
                // Slots under RELRO are read-only once loading finishes; make the page writable.
                let page = UnsafeMutableRawPointer(bitPattern: address & ~(pageSize - 1))
                guard mprotect(page, Int(pageSize), PROT_READ | PROT_WRITE) == 0 else { return nil }
                let current = UnsafeMutablePointer<UInt>(bitPattern: address).unsafelyUnwrapped.pointee
                slots.append(Slot(address: address, original: current, counting: replacement))
            }
        }
        return Redirection(slots: slots)
        #else
        return nil
        #endif
    }

    /// Points every slot at its counting function. An aligned word store, so a thread
    /// calling through the slot at that moment sees either the old or the new function.
    func install() {
        for slot in slots {
            UnsafeMutablePointer<UInt>(bitPattern: slot.address).unsafelyUnwrapped.pointee = slot.counting
        }
    }

    /// Puts every slot back as it was.
    func remove() {
        for slot in slots {
            UnsafeMutablePointer<UInt>(bitPattern: slot.address).unsafelyUnwrapped.pointee = slot.original
        }
    }
}
