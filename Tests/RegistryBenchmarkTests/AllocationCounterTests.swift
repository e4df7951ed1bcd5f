import Dispatch
import Foundation
import ServiceRegistry
import Synchronization
import Testing

@testable import registry_benchmark

/// An object of known size: a 16-byte header plus two words, so 32 bytes requested.
private final class TwoWords {
    var first = 1
    var second = 2
}

/// A task-local to bind outside any task.
private enum TaskLocalProbe {
    @TaskLocal static var value: Int?
}

@Suite("Allocation counter and heap usage")
struct AllocationCounterTests {
    @Test func countsEveryObjectThisThreadAllocates() throws {
        try #require(AllocationCounter.isAvailable, "the runtime's allocation imports were not found")
        var kept: [TwoWords] = []
        kept.reserveCapacity(1_000)
        let (_, tally) = AllocationCounter.count {
            for _ in 0..<1_000 { kept.append(TwoWords()) }
        }
        let counted = try #require(tally)
        #expect(counted.allocations == 1_000)
        #expect(counted.bytes == 1_000 * 32)
        #expect(kept.count == 1_000)
    }

    /// Binding a task-local outside a task allocates its item with `malloc` inside the
    /// concurrency runtime (`libswift_Concurrency.so`), not the core runtime, as
    /// `install(_:)` and `withOverrides` do on every call from a plain thread; inside a task
    /// the item comes from the task's own allocator instead. So the same binding must count
    /// more allocations on a plain thread than in a task: a counter that watched only the
    /// core runtime's imports counts the two the same.
    @Test func countsWhatTheConcurrencyRuntimeAllocates() async throws {
        try #require(AllocationCounter.isAvailable)
        try #require(withUnsafeCurrentTask { $0 != nil }, "the test must run in a task")
        _ = Self.bindTaskLocal()  // the task-local's one-time set-up
        let inTask = try #require(AllocationCounter.count(Self.bindTaskLocal).tally)

        let onThread = Mutex<AllocationCounter.Tally?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = AllocationCounter.count(Self.bindTaskLocal)  // the thread's one-time set-up
            onThread.withLock { $0 = AllocationCounter.count(Self.bindTaskLocal).tally }
            done.signal()
        }
        thread.start()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        let outsideTask = try #require(onThread.withLock { $0 })
        #expect(outsideTask.allocations > inTask.allocations, "in a task: \(inTask); on a thread: \(outsideTask)")
    }

    private static func bindTaskLocal() -> Int? {
        TaskLocalProbe.$value.withValue(42) { TaskLocalProbe.value }
    }

    @Test func countsNothingForWorkThatDoesNotAllocate() throws {
        try #require(AllocationCounter.isAvailable)
        let numbers = Array(0..<1_000)
        let (sum, tally) = AllocationCounter.count {
            // An index loop: a debug build's array iterator allocates on every step.
            var sum = 0
            for index in numbers.indices { sum &+= numbers[index] }
            return sum
        }
        #expect(sum == 499_500)
        #expect(try #require(tally).allocations == 0)
    }

    /// Measurements started on several threads at once take turns: each counts exactly its
    /// own allocations. They wait for each other on the counter's session lock, so under the
    /// thread sanitizer this is also the test that shows whether that lock's hand-offs are
    /// visible to it (a `Mutex` alone is not, on Linux, and the slots each measurement
    /// rewrites were reported as raced).
    @Test func measurementsOnSeveralThreadsAtOnceTakeTurns() throws {
        try #require(AllocationCounter.isAvailable)
        let threads = 4
        // The package's `Lock`, so the sanitizer sees the hand-offs of the test's own lock too.
        let tallies = Lock<[AllocationCounter.Tally?]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            Thread {
                var counted: [AllocationCounter.Tally?] = []
                counted.reserveCapacity(50)
                for _ in 0..<50 {
                    var kept: [TwoWords] = []
                    kept.reserveCapacity(10)
                    counted.append(AllocationCounter.count { for _ in 0..<10 { kept.append(TwoWords()) } }.tally)
                }
                tallies.withLock { [counted] in $0 += counted }
                done.signal()
            }.start()
        }
        for _ in 0..<threads { done.wait() }
        let all = tallies.withLock { $0 }
        #expect(all.count == threads * 50)
        #expect(all.allSatisfy { $0 == AllocationCounter.Tally(allocations: 10, bytes: 10 * 32) }, "\(all)")
    }

    /// The runtime reaches the allocator through four imports, and a count must see a call
    /// through each, with the bytes it asks for. Swift code reaches `calloc` and `realloc`
    /// only inside the runtime's C++, so the calls here go through `libswiftCore.so`'s own
    /// slots while counting, as the runtime's do.
    @Test func countsACallThroughEachOfTheRuntimesAllocationImports() throws {
        try #require(AllocationCounter.isAvailable)
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        typealias Calloc = @convention(c) (Int, Int) -> UnsafeMutableRawPointer?
        typealias Realloc = @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?
        typealias PosixMemalign = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int, Int) -> Int32
        let symbols = ["malloc", "calloc", "realloc", "posix_memalign"]
        let found = try #require(ImportSlots.find(symbols: Set(symbols), inLibraryWithSuffix: "/libswiftCore.so"))
        let slots = try symbols.map { symbol in
            try #require(found.addresses[symbol]?.first.flatMap { UnsafePointer<UnsafeRawPointer>(bitPattern: $0) }, "\(symbol)")
        }
        /// Calls each through what its slot holds now; made once before counting, so that
        /// what the calls need the first time (function type metadata) is not counted.
        func callEach() -> (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) {
            var aligned: UnsafeMutableRawPointer?
            let malloced = unsafeBitCast(slots[0].pointee, to: Malloc.self)(40)
            let calloced = unsafeBitCast(slots[1].pointee, to: Calloc.self)(3, 16)
            let realloced = unsafeBitCast(slots[2].pointee, to: Realloc.self)(nil, 72)
            if unsafeBitCast(slots[3].pointee, to: PosixMemalign.self)(&aligned, 64, 100) != 0 { aligned = nil }
            return (malloced, calloced, realloced, aligned)
        }
        func release(_ pointers: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)) {
            free(pointers.0)
            free(pointers.1)
            free(pointers.2)
            free(pointers.3)
        }
        release(callEach())
        let (pointers, tally) = AllocationCounter.count(callEach)
        release(pointers)
        #expect(pointers.3 != nil)
        #expect(tally == AllocationCounter.Tally(allocations: 4, bytes: 40 + 3 * 16 + 72 + 100))
    }

    @Test func ignoresAllocationsMadeByOtherThreads() throws {
        try #require(AllocationCounter.isAvailable)
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            start.wait()
            var kept: [TwoWords] = []
            for _ in 0..<1_000 { kept.append(TwoWords()) }
            withExtendedLifetime(kept) {}
            done.signal()
        }
        thread.start()
        let (_, tally) = AllocationCounter.count {
            start.signal()
            done.wait()
        }
        #expect(try #require(tally).allocations < 10)
    }

    /// In a process of its own: the figure is process-wide, and in the test process other
    /// suites run meanwhile, freeing and allocating megabytes of their own. There, while
    /// other processes kept the cores busy, four readings in a row came out 3 to 11 MB short
    /// of a 64 MB payload, two of them beyond the bound; alone, the payload reads within a
    /// few kilobytes. A reading that ignored the payload (or counted it twice) fails the
    /// bound of an eighth either way. Only a C library without `mallinfo2` (not glibc, or
    /// glibc before 2.33) may give no reading; the report then leaves held bytes out.
    @Test func heapUsageSeesBytesThatAreHeld() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let payload = 64 << 20
            guard let before = HeapUsage.bytesInUse() else {
                print("no reading", terminator: "")
                return
            }
            let blocks = (0..<1_024).map { _ in [UInt8](repeating: 1, count: payload / 1_024) }
            let after = HeapUsage.bytesInUse()
            withExtendedLifetime(blocks) {}
            print(after.map { "\($0 - before)" } ?? "no reading", terminator: "")
        }
        try expectHeldReading(result.standardOutputContent, near: 64 << 20)
    }
}

/// Checks a heap reading a child process printed: within an eighth of `expected` bytes, or
/// `no reading` only where the C library has no `mallinfo2` to read the heap with.
func expectHeldReading(
    _ printed: [UInt8], near expected: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let output = String(decoding: printed, as: UTF8.self)
    if output == "no reading" {
        #if canImport(Glibc)
        #expect(
            dlsym(nil, "mallinfo2") == nil, "the C library has mallinfo2, yet the heap could not be read",
            sourceLocation: sourceLocation)
        #endif
        return
    }
    let held = try #require(Int(output), "the heap could not be read: \(output)", sourceLocation: sourceLocation)
    #expect(
        (expected - expected / 8)..<(expected + expected / 8) ~= held,
        "held bytes where \(expected) were expected: \(held)", sourceLocation: sourceLocation)
}

/// What the registry's resolve allocates, counted directly rather than through a
/// benchmark case.
@Suite("Registry resolves: allocations")
struct RegistryResolveAllocationTests {
    /// A cached singleton is handed out without allocating, whatever its name's length,
    /// ASCII or not. (A name that is not ASCII goes to `Hasher`, which allocates for one
    /// with a combining accent, such as `"cafe\u{301}"`, or `"x\u{301}"`, which is
    /// already in NFC; not covered here.)
    ///
    /// In a process of its own: while another test has an override scope or an observer,
    /// resolves here leave the fast path, and this debug build's unspecialized slow path
    /// allocates (a release build does not).
    @Test func aNamedCachedSingletonResolvesWithoutAllocating() async throws {
        try #require(AllocationCounter.isAvailable)
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            final class Cache: Sendable {}
            let names = [
                "offline", "offline-reviews-cache", "überprüfung", "überprüfung-offline-cache",
                "\u{212A}elvin-offline-cache-x",
            ]
            var lines: [String] = []
            for name in names {
                let registry = ServiceRegistry()
                registry.register(Cache.self, name: name, scope: .singleton) { _ in Cache() }
                let first = try registry.resolve(Cache.self, name: name)
                let (same, tally) = try AllocationCounter.count {
                    var same = true
                    for _ in 0..<100 { same = try registry.resolve(Cache.self, name: name) === first && same }
                    return same
                }
                lines.append("\(name): \(same ? "same" : "other") \(tally.map { "\($0.allocations)" } ?? "uncounted")")
            }
            print(lines.joined(separator: "\n"), terminator: "")
        }
        let lines = String(decoding: result.standardOutputContent, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 5)
        for line in lines {
            #expect(line.hasSuffix(": same 0"), "\(line)")
        }
    }
}
