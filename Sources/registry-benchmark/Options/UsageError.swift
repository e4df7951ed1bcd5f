/// A command line the benchmark cannot run: says what was wrong and shows the usage.
struct UsageError: Error, CustomStringConvertible, Equatable {
    /// What was wrong with the arguments, such as "unknown argument `--fast`".
    let problem: String

    /// The problem, followed by the usage text so the fix is on screen.
    var description: String {
        "registry-benchmark: \(problem)\n\n\(BenchmarkOptions.usage)"
    }
}
