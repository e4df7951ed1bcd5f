/// Every benchmark the executable knows, in the order they run and print.
///
/// Each file under `Cases/` contributes one function from the options to its benchmarks.
/// To add cases from a new file, write such a function there and append it to
/// ``groups``; for cases of the existing subjects nothing else needs to change (the table
/// groups rows by case name, the JSON lists every result, and `--filter` selects by case
/// name). A new subject's name also goes into ``BenchmarkOptions/subjectNames`` and the
/// usage text, which `--subject` checks against and `--help` prints.
enum BenchmarkCatalog {
    /// The contributing functions, one per file of cases.
    static var groups: [(BenchmarkOptions) -> [Benchmark]] {
        [
            ResolveCases.benchmarks,
            LookupCases.benchmarks,
            RegisterCases.benchmarks,
            ThreadCases.benchmarks,
            OverrideScopeCases.benchmarks,
            InjectedCases.benchmarks,
            StartupCases.benchmarks,
            RouterCases.benchmarks,
        ]
    }

    /// The benchmarks the options select.
    ///
    /// - Parameter options: Sizing and the case filter.
    /// - Returns: The selected benchmarks, in run order.
    static func benchmarks(for options: BenchmarkOptions) -> [Benchmark] {
        groups.flatMap { $0(options) }.filter(options.selects)
    }
}

/// Runs every benchmark the options select on the calling thread, their timed samples in
/// rounds (see ``Sampler``).
///
/// The generated key types are instantiated first, so no benchmark pays for (or counts
/// the heap of) the runtime metadata a real app's types would have in its binary; then,
/// unless operation counts are fixed (tests), the CPU is kept busy for a moment so the
/// first benchmark is not measured on a cold core.
///
/// - Parameters:
///   - options: What to run and how long to spend.
///   - progress: Told what starts, as a line for a person (see
///     ``Sampler/measure(_:progress:)``), if given.
/// - Returns: One result per benchmark, failures included, in run order.
func runBenchmarks(options: BenchmarkOptions, progress: ((String) -> Void)? = nil) -> [BenchmarkResult] {
    _ = GeneratedKeys.types
    let sampler = Sampler(options: options)
    if options.fixedOperations == nil {
        // A timing run only: the tests' runs leave the test process's allocator as it is.
        FreedMemoryRetention.keepFreedMemory()
        sampler.keepBusy(for: options.sampleDuration * 10)
    }
    return sampler.measure(BenchmarkCatalog.benchmarks(for: options), progress: progress)
}
