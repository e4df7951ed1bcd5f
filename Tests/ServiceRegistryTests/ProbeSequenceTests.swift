@testable import ServiceRegistry
import Testing

@Suite struct ProbeSequenceTests {
    /// A lookup stops only at its key or at an empty slot, so its sequence must reach every
    /// slot: a table three-quarters full may have its only empty slots anywhere. Steps of one
    /// slot more each time do that on a power-of-two table, each slot once per lap.
    @Test(arguments: [2, 16, 1_024, 16_384])
    func visitsEverySlotOnceInAsManyStepsAsThereAreSlots(capacity: Int) {
        for home in Set([0, 1, capacity / 2, capacity - 1]) {
            var probe = ProbeSequence(home: home, capacity: capacity)
            var visited = Set<Int>()
            for _ in 0..<capacity {
                visited.insert(probe.index)
                probe.advance()
            }
            #expect(visited.count == capacity, "from slot \(home) of \(capacity)")
            #expect(visited.allSatisfy { (0..<capacity).contains($0) })
        }
    }

    /// The sequence depends only on the home slot, so keys with one hash (one service type
    /// and name, whatever their argument) probe the same slots in the same order.
    @Test func startsAtTheHomeSlotThenStepsOneTwoThreeSlotsOn() {
        var probe = ProbeSequence(home: 14, capacity: 16)
        var indices = [probe.index]
        for _ in 0..<4 {
            probe.advance()
            indices.append(probe.index)
        }
        #expect(indices == [14, 15, 1, 4, 8])
    }
}
