import Synchronization

/// A service type made up at run time, so that thousands of registrations can each have a
/// type of their own, as thousands of components would.
///
/// Keys are nested generic types spelling a number in binary (`One<Zero<One<Leaf>>>` is
/// 5), so 15 levels give 32,768 distinct types from three declarations. Their metadata is
/// instantiated once, by ``GeneratedKeys/types``, before anything is measured: a real
/// app's component types are in its binary and cost nothing to look up.
protocol GeneratedKey: Sendable {
    /// Builds an instance; counted in ``GeneratedKeys/instancesBuilt`` so start-up can show
    /// that registering builds nothing.
    init()
}

/// The innermost key type.
struct Leaf: GeneratedKey {
    init() { GeneratedKeys.noteInstanceBuilt() }
}

/// A `0` bit followed by the bits of `Rest`.
struct Zero<Rest: GeneratedKey>: GeneratedKey {
    init() { GeneratedKeys.noteInstanceBuilt() }
}

/// A `1` bit followed by the bits of `Rest`.
struct One<Rest: GeneratedKey>: GeneratedKey {
    init() { GeneratedKeys.noteInstanceBuilt() }
}

/// The distinct key types and the count of key instances ever built.
enum GeneratedKeys {
    /// How many distinct key types exist (and so the most registrations a case can make
    /// without repeating a key).
    static let capacity = 1 << bits
    private static let bits = 15

    /// The first `capacity` key types, each distinct, built on first use.
    static let types: [any GeneratedKey.Type] = (0..<capacity).map { keyType(for: $0) }

    private static let built = Atomic<Int>(0)

    /// How many key instances have been built, by any factory, since the process started.
    static var instancesBuilt: Int { built.load(ordering: .relaxed) }

    /// Counts the key instances built in the task that binds it, besides the process-wide
    /// count: a test that runs beside others that build keys too (on other threads) counts
    /// only its own. Factories run on the resolving thread, inside the binding.
    @TaskLocal static var taskTally: Tally?

    /// Counts one built instance.
    static func noteInstanceBuilt() {
        built.add(1, ordering: .relaxed)
        taskTally?.note()
    }

    /// A count of built key instances, for ``taskTally``.
    final class Tally: Sendable {
        private let count = Atomic<Int>(0)

        /// How many instances were counted.
        var instancesBuilt: Int { count.load(ordering: .relaxed) }

        func note() {
            count.add(1, ordering: .relaxed)
        }
    }

    /// The key type spelling `number`.
    ///
    /// - Parameter number: A number in `0..<capacity`.
    /// - Returns: A type unique to that number.
    static func keyType(for number: Int) -> any GeneratedKey.Type {
        var type: any GeneratedKey.Type = Leaf.self
        for bit in 0..<bits {
            type = wrap(type, bitIsSet: number & (1 << bit) != 0)
        }
        return type
    }

    private static func wrap<Rest: GeneratedKey>(_ rest: Rest.Type, bitIsSet: Bool) -> any GeneratedKey.Type {
        bitIsSet ? One<Rest>.self : Zero<Rest>.self
    }
}
