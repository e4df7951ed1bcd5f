import Dispatch
import Foundation
import Testing

@testable import registry_benchmark

/// An object of known size: a 16-byte header plus two words, so 32 bytes requested.
private final class TwoWords {
    var first = 1
    var second = 2
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

    @Test func heapUsageSeesBytesThatAreHeld() throws {
        let before = try #require(HeapUsage.bytesInUse())
        let blocks = (0..<1_000).map { _ in [UInt8](repeating: 1, count: 4_096) }
        let after = try #require(HeapUsage.bytesInUse())
        let held = after - before
        // 4 MB of payload; other tests running meanwhile can only blur this a little.
        #expect(held >= 3_600_000)
        #expect(held < 40_000_000)
        #expect(blocks.count == 1_000)
    }
}
