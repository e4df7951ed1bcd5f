/// What to run and how long to spend on it; parsed from the command line by ``init(arguments:)``.
///
/// Three presets cover the uses: ``standard`` (the default run, about 25 seconds on the
/// 2-core machine of Docs/Performance.md), ``quick`` (`--quick`, everything in a few
/// seconds there, against the limit of 20) and ``smoke`` (a few operations per
/// benchmark, for tests that check the benchmark builds what it claims, never how fast).
struct BenchmarkOptions: Sendable {
    /// How results are printed.
    enum OutputFormat: Sendable, Equatable {
        /// The readable table with ratios to `direct` and the targets.
        case table
        /// A JSON array of `{"case", "subject", "ns_per_op", "bytes_per_op", "allocs_per_op"}`.
        case json
    }

    /// How results are printed.
    var format: OutputFormat = .table
    /// The wall time one timed sample aims for; operations per sample are calibrated to it.
    var sampleDuration: Duration = .milliseconds(20)
    /// Timed samples per benchmark, after calibration and one warm-up sample.
    var repetitions = 11
    /// When set, every sample runs exactly this many operations and calibration is
    /// skipped: for tests, which check behaviour rather than speed.
    var fixedOperations: Int?
    /// Operations in the pass that counts allocations and heap bytes.
    var memoryOperations = 2_000
    /// The component counts the start-up cases install.
    var startupComponentCounts = [1_000, 10_000]
    /// Only cases whose name contains one of these strings run (only the case of that name,
    /// for a string in ``exactCaseFilters``); empty runs every case.
    var caseFilters: [String] = []
    /// The ``caseFilters`` that name a case exactly, which select that case alone: the
    /// start-up case of 1,000 components is also in the name of the one of 10,000.
    var exactCaseFilters: Set<String> = []
    /// Only these subjects (exact names) run; empty runs every subject.
    var subjects: [String] = []
    /// Whether `--quick` was given (reported in the table's header).
    var isQuick = false
    /// Whether to print the usage text instead of running.
    var showsHelp = false

    /// The default run.
    static let standard = BenchmarkOptions()

    /// `--quick`: short samples and few repetitions; medians are noisier but every figure
    /// is still produced.
    static let quick: BenchmarkOptions = {
        var options = BenchmarkOptions()
        options.sampleDuration = .milliseconds(4)
        options.repetitions = 5
        options.memoryOperations = 500
        options.isQuick = true
        return options
    }()

    /// A handful of operations per benchmark and small start-up counts: what tests run.
    static let smoke: BenchmarkOptions = {
        var options = BenchmarkOptions()
        options.fixedOperations = 8
        options.repetitions = 1
        options.memoryOperations = 8
        options.startupComponentCounts = [100]
        return options
    }()

    /// Whether a benchmark of the given case is selected by ``caseFilters``.
    ///
    /// - Parameter caseName: A case name such as `singleton` or `lookup-10000`.
    /// - Returns: `true` when no filter is set, one of them is the name, or one that names
    ///   no case exactly occurs in the name.
    func selects(caseName: String) -> Bool {
        caseFilters.isEmpty
            || caseFilters.contains { $0 == caseName || (!exactCaseFilters.contains($0) && caseName.contains($0)) }
    }

    /// Whether a benchmark is selected by both ``caseFilters`` and ``subjects``.
    ///
    /// - Parameter benchmark: A benchmark from the catalog.
    /// - Returns: `true` when its case and its subject are both selected.
    func selects(_ benchmark: Benchmark) -> Bool {
        selects(caseName: benchmark.caseName) && (subjects.isEmpty || subjects.contains(benchmark.subject))
    }

    /// Parses the command-line arguments (without the program name).
    ///
    /// - Parameter arguments: Such as `["--quick", "--json"]`.
    /// - Throws: ``UsageError`` for an unknown option or subject, `--filter`/`--subject`
    ///   without a value or with an empty one, a `--filter` that no case name contains, or
    ///   filters and subjects that together select no benchmark.
    init(arguments: [String]) throws(UsageError) {
        self = arguments.contains("--quick") ? .quick : .standard
        // Asking for the help is answered whatever else the line holds, as a mistake in
        // the rest of it is most often why the help was wanted.
        if arguments.contains("--help") || arguments.contains("-h") {
            showsHelp = true
            return
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                break
            case "--json":
                format = .json
            case "--filter":
                // An empty value is in every case name: it would quietly select them all.
                guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("--") else {
                    throw UsageError(problem: "`--filter` needs a case name (or part of one) after it")
                }
                caseFilters.append(value)
            case "--subject":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError(problem: "`--subject` needs a subject name after it, such as `registry`")
                }
                guard Self.subjectNames.contains(value) else {
                    throw UsageError(
                        problem: "unknown subject `\(value)`; the subjects are "
                            + Self.subjectNames.map { "`\($0)`" }.joined(separator: ", "))
                }
                subjects.append(value)
            default:
                throw UsageError(problem: "unknown argument `\(argument)`")
            }
        }
        try checkSelection()
    }

    /// Refuses a selection that would run nothing, which would otherwise print an empty
    /// table (or `[]`) and succeed: a filter with a typo in it looks like a run that
    /// measured nothing.
    private mutating func checkSelection() throws(UsageError) {
        guard !caseFilters.isEmpty || !subjects.isEmpty else { return }
        let catalog = BenchmarkCatalog.groups.flatMap { $0(self) }
        var caseNames: [String] = []
        for benchmark in catalog where !caseNames.contains(benchmark.caseName) { caseNames.append(benchmark.caseName) }
        exactCaseFilters = Set(caseFilters.filter(caseNames.contains))
        for filter in caseFilters where !caseNames.contains(where: { $0.contains(filter) }) {
            throw UsageError(
                problem: "`--filter \(filter)` matches no case; the cases are "
                    + caseNames.map { "`\($0)`" }.joined(separator: ", "))
        }
        if !catalog.contains(where: selects) {
            let subjectsOfCases = Set(catalog.filter { selects(caseName: $0.caseName) }.map(\.subject))
            throw UsageError(
                problem: "no selected case has the subject "
                    + subjects.map { "`\($0)`" }.joined(separator: " or ")
                    + "; the cases `--filter` selects have "
                    + Self.subjectNames.filter(subjectsOfCases.contains).map { "`\($0)`" }.joined(separator: ", "))
        }
    }

    private init() {}

    /// Every subject `--subject` accepts: the containers, then the router's.
    static let subjectNames = SubjectName.all + [RouterCases.routerMatch, RouterCases.routerOpen, RouterCases.router]

    /// The text `--help` prints.
    static let usage = """
        usage: registry-benchmark [--quick] [--json] [--filter CASE]... [--subject NAME]...

          --quick        short samples and few repetitions (everything in under 20 s)
          --json         print a JSON array of {"case", "subject", "ns_per_op",
                         "bytes_per_op", "allocs_per_op"} instead of the table
          --filter CASE  run only the case named CASE, or if none is, the cases whose
                         name contains CASE (repeatable; one that matches no case
                         is refused)
          --subject NAME run only that subject: direct, direct-owned, registry,
                         url-block, mediator, naive-dictionary, frozen-table,
                         router-match, router-open, router (repeatable)
          --help         show this text

        Exit status: 0 when every benchmark ran, 1 when one failed (each failure and its
        reason also go to standard error), 2 for a command line it cannot run.

        Build in release for meaningful figures:
          swift run -c release registry-benchmark
        """
}
