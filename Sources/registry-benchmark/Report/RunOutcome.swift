/// What the executable prints for a finished run, and the status it exits with.
///
/// A benchmark that failed still has its row (the table's *Failures*, a JSON object with
/// only its names), but in JSON nothing says why, and a script reading the output cannot
/// tell a failure from a figure that is simply not measured. So every failure is also
/// written to standard error, with its reason, and the run exits with status 1.
struct RunOutcome: Equatable {
    /// The report: the table or the JSON array.
    let output: String
    /// One line per failed benchmark, with its reason; `nil` when none failed.
    let errors: String?
    /// 0 when every benchmark produced its figures, 1 when any failed.
    let status: Int32

    /// The outcome of a run.
    ///
    /// - Parameters:
    ///   - results: What ``runBenchmarks(options:progress:)`` returned.
    ///   - options: The run's options (the output format, and the table's header).
    init(_ results: [BenchmarkResult], options: BenchmarkOptions) {
        switch options.format {
        case .table: output = TableReport.render(results, options: options)
        case .json: output = JSONReport.render(results)
        }
        let failures = results.compactMap(\.failureLine)
        errors =
            failures.isEmpty
            ? nil : (["registry-benchmark: \(failures.count) benchmark(s) failed:"] + failures).joined(separator: "\n")
        status = failures.isEmpty ? 0 : 1
    }
}
