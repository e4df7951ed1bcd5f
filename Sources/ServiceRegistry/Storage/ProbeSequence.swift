/// The slots of a ``RegistrationTable`` that a key with a given home slot is looked for in,
/// in order: the home slot, then 1, 2, 3, … slots past the one before (triangular probing).
///
/// Stepping one slot at a time (linear probing) lets runs of occupied slots merge into
/// long clusters, and a key whose home falls in one passes the rest of it: among 10,000
/// registrations, the one registered last passed seven or more other slots in about one
/// process in six, and the longest lookups in a table passed dozens. Growing steps part
/// two probes that meet, so clusters stay short. Every slot is still visited, each once,
/// within `capacity` steps of a power-of-two table (the offsets, triangular numbers, cover
/// every residue), so a probe always reaches an empty slot in a table never full; and keys
/// with one hash share one sequence, which
/// ``RegistrationTable/hasRegistration(of:name:otherThan:)`` relies on.
struct ProbeSequence {
    /// The slot to look at now.
    private(set) var index: Int
    private var step = 0
    private let mask: Int

    /// - Parameters:
    ///   - home: The key's home slot, where its probe starts.
    ///   - capacity: The table's number of slots, a power of two.
    @inline(__always)
    init(home: Int, capacity: Int) {
        index = home
        mask = capacity &- 1
    }

    /// Moves to the next slot of the sequence.
    @inline(__always)
    mutating func advance() {
        step &+= 1
        index = (index &+ step) & mask
    }
}
