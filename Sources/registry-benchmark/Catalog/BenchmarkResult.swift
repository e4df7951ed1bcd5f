/// What one benchmark measured.
struct BenchmarkResult: Sendable {
    /// The first run of a workload that asks for it, before anything was warm.
    struct FirstRun: Sendable, Equatable {
        /// Nanoseconds per operation in that one run.
        let nanosecondsPerOperation: Double
        /// Heap bytes held per operation after it, if the platform reports heap usage.
        let heldBytesPerOperation: Double?
    }

    /// The case name, such as `singleton`.
    let caseName: String
    /// The subject name, such as `registry`.
    let subject: String
    /// Nanoseconds per operation over the timed samples; `nil` when the benchmark failed.
    var nanosecondsPerOperation: SampleStatistics?
    /// Heap allocations per operation (counted on the measuring thread), if counted.
    var allocationsPerOperation: Double?
    /// Heap bytes per operation, allocated or held as ``memoryFigure`` says, if measured.
    var bytesPerOperation: Double?
    /// What ``bytesPerOperation`` means for this benchmark.
    var memoryFigure: Workload.MemoryFigure = .allocated
    /// Operations in one sample of a workload that fixes it (start-up: components installed).
    var fixedOperationsPerSample: Int?
    /// Service instances built while one sample ran, when the workload tracks it.
    var instancesBuiltPerSample: Int?
    /// The cold first run, for workloads that measure it (start-up).
    var firstRun: FirstRun?
    /// Why the benchmark produced no figures, when it failed.
    var failure: String?

    /// A result for a benchmark that could not run.
    ///
    /// - Parameters:
    ///   - benchmark: The benchmark that failed.
    ///   - reason: What went wrong, for the report.
    init(failed benchmark: Benchmark, reason: String) {
        caseName = benchmark.caseName
        subject = benchmark.subject
        failure = reason
    }

    /// The failure as the report lists it, `  case/subject: reason`, a reason of several
    /// lines (a resolution error's path) indented under it; `nil` when it did not fail.
    var failureLine: String? {
        failure.map { reason in
            "  \(caseName)/\(subject): "
                + reason.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    ")
        }
    }

    /// A result with timing statistics; memory figures are filled in afterwards.
    ///
    /// - Parameters:
    ///   - benchmark: The benchmark measured.
    ///   - timing: Nanoseconds per operation over the samples.
    init(_ benchmark: Benchmark, timing: SampleStatistics) {
        caseName = benchmark.caseName
        subject = benchmark.subject
        nanosecondsPerOperation = timing
        memoryFigure = benchmark.workload.memoryFigure
    }
}
