/// How a benchmark's operations run, and which memory figure it reports.
///
/// A workload is prepared once (registries filled, routers launched: nothing of that is
/// timed) and yields a body that performs a given number of operations. The harness
/// calibrates that number, times repeated calls, and runs one more call under the
/// allocation counter.
struct Workload {
    /// Performs `operations` operations and returns anything that must stay alive until
    /// the heap has been read (a filled registry, a launched router), or `nil`.
    typealias Body = (_ operations: Int) throws -> Any?

    /// Performs `operations` operations on one of several threads running at once.
    typealias ThreadBody = @Sendable (_ operations: Int) throws -> Void

    /// Where the operations run.
    enum Execution {
        /// On the calling thread; `prepare` runs once before any timing.
        case sequential(prepare: () throws -> Body)
        /// On `threads` OS threads started together, each running the body; the figure is
        /// wall time per operation across all of them (the inverse of throughput).
        case parallel(threads: Int, prepare: () throws -> ThreadBody)
    }

    /// Which heap figure `bytes_per_op` carries.
    enum MemoryFigure: Sendable {
        /// Bytes requested from the allocator per operation, freed or not: for calls.
        case allocated
        /// Bytes still held per operation after the body returns, its result kept alive:
        /// for registrations and start-up, where what stays in memory is the point.
        case held
        /// No memory figure (thread cases: the counter follows one thread only).
        case none
    }

    /// Where the operations run.
    let execution: Execution
    /// Which heap figure to report.
    var memoryFigure: MemoryFigure
    /// Operations per sample when the workload fixes it (start-up installs exactly N
    /// components); `nil` lets the harness calibrate.
    var operationsPerSample: Int?
    /// Reads how many service instances have been built so far, so the harness can report
    /// how many one sample built (start-up must build none).
    var instancesBuilt: (@Sendable () -> Int)?
    /// Whether the very first run (before any warm-up) is timed and its heap read too: for
    /// start-up, which an app does once per process, paying one-time costs such as the
    /// runtime instantiating generic metadata.
    var measuresFirstRun = false

    /// Calls measured one after another on this thread, reporting bytes allocated per call.
    ///
    /// - Parameter prepare: Builds the subject and returns the body that runs the calls.
    /// - Returns: A sequential workload.
    static func calls(_ prepare: @escaping () throws -> Body) -> Workload {
        Workload(execution: .sequential(prepare: prepare), memoryFigure: .allocated)
    }

    /// Operations whose results stay in memory (registrations), reporting bytes held per operation.
    ///
    /// - Parameters:
    ///   - operations: Operations per sample, or `nil` to calibrate.
    ///   - instancesBuilt: Reads a running count of built service instances, if tracked.
    ///   - measuresFirstRun: Whether to report the first, cold run as well (needs `operations`).
    ///   - prepare: Returns the body; it must return what it built so the heap can be read.
    /// - Returns: A sequential workload with the held-bytes figure.
    static func holdings(
        operations: Int? = nil, instancesBuilt: (@Sendable () -> Int)? = nil, measuresFirstRun: Bool = false,
        _ prepare: @escaping () throws -> Body
    ) -> Workload {
        Workload(
            execution: .sequential(prepare: prepare), memoryFigure: .held,
            operationsPerSample: operations, instancesBuilt: instancesBuilt, measuresFirstRun: measuresFirstRun)
    }

    /// The same body on `threads` threads at once, reporting wall time per operation.
    ///
    /// - Parameters:
    ///   - threads: How many OS threads run the body together.
    ///   - prepare: Builds the shared subject and returns the per-thread body.
    /// - Returns: A parallel workload.
    static func threads(_ threads: Int, _ prepare: @escaping () throws -> ThreadBody) -> Workload {
        Workload(execution: .parallel(threads: threads, prepare: prepare), memoryFigure: .none)
    }
}
