/// The readable report: the main table (every case, every subject, with ratios to
/// `direct`), thread scaling, start-up and memory, then the issue's targets, met or not.
enum TableReport {
    /// Renders a run's results.
    ///
    /// - Parameters:
    ///   - results: What ``runBenchmarks(options:progress:)`` returned.
    ///   - options: The options of the run, described in the header.
    ///   - machine: The machine described in the header.
    /// - Returns: The report text.
    static func render(
        _ results: [BenchmarkResult], options: BenchmarkOptions, machine: MachineDescription = .current
    ) -> String {
        let figures = Figures(results)
        var lines = header(options: options, machine: machine)
        lines += mainTable(results.filter { !$0.caseName.hasPrefix("startup-") }, figures: figures)
        lines += threadScaling(figures)
        lines += startup(results.filter { $0.caseName.hasPrefix("startup-") })
        lines += targets(results)
        let failures = results.compactMap(\.failureLine)
        if !failures.isEmpty {
            lines += ["", "Failures"] + failures
        }
        return lines.joined(separator: "\n")
    }

    private static func header(options: BenchmarkOptions, machine: MachineDescription) -> [String] {
        var lines = [
            "ServiceRegistry benchmark — \(machine.buildConfiguration) build, \(machine.processorCount) × \(machine.cpuModel), \(machine.operatingSystem)"
        ]
        if machine.buildConfiguration != "release" {
            lines.append("WARNING: not a release build; run `swift run -c release registry-benchmark` for real figures.")
        }
        let sampling =
            options.fixedOperations.map { "\($0) operations per sample" }
            ?? "samples of ≥ \(formatNanoseconds(options.sampleDuration.nanoseconds))"
        // A fixed count is not calibrated.
        let warmUp = options.fixedOperations == nil ? "calibration and a warm-up sample" : "a warm-up sample"
        lines += [
            "ns/op: median of \(options.repetitions) timed \(sampling), taken in rounds of one per benchmark,",
            "  after \(warmUp)\(options.isQuick ? " (--quick)" : "");",
            // Not calibrated, so not as long: a start-up sample is one launch, 0.3 ms for 1,000.
            "  a case that fixes its count (route-register, start-up) times that count per sample, back to back,",
            "  after one warm-up sample;",
            "  spread: half the interquartile range, as a share of the median;",
            "  × direct: in the same case, each round's sample ÷ direct's of that round, the median over the rounds.",
            "allocs/op, bytes/op: counted on the measuring thread over \(memoryPass(options)) operations, or one sample of a case",
            "  that fixes its count (route-register, start-up);",
            "  bytes/op is bytes requested per call, or, marked \"held\", heap still in use per registration afterwards.",
        ]
        return lines
    }

    /// The operations in the memory pass of a case that does not fix its own count.
    private static func memoryPass(_ options: BenchmarkOptions) -> String {
        (options.fixedOperations ?? options.memoryOperations).withThousandsSeparators
    }

    private static func mainTable(_ results: [BenchmarkResult], figures: Figures) -> [String] {
        // `--filter startup` leaves no row here: a header over nothing reads as a run that lost them.
        guard !results.isEmpty else { return [] }
        let columns = ["case", "subject", "ns/op", "spread", "× direct", "allocs/op", "bytes/op"]
        let widths = [15, 17, 11, 8, 10, 10, 12]
        var lines = ["", row(columns, widths: widths), row(widths.map { String(repeating: "-", count: $0) }, widths: widths)]
        var caseOrder: [String] = []
        for result in results where !caseOrder.contains(result.caseName) { caseOrder.append(result.caseName) }
        for caseName in caseOrder {
            for (index, result) in results.filter({ $0.caseName == caseName }).enumerated() {
                let timing = result.nanosecondsPerOperation
                let ratio = result.subject == SubjectName.direct ? nil : figures.ratioToDirect(caseName, result.subject)
                let bytes = result.bytesPerOperation.map { formatBytes($0) + (result.memoryFigure == .held ? " held" : "") }
                lines.append(
                    row(
                        [
                            index == 0 ? caseName : "",
                            result.subject,
                            timing.map { formatNanoseconds($0.median) } ?? "failed",
                            timing.map { "±\(format($0.relativeSpread * 100, places: 1))%" } ?? "",
                            ratio.map { "\(format($0))×" } ?? (result.subject == SubjectName.direct && timing != nil ? "1.00×" : "—"),
                            result.allocationsPerOperation.map { format($0) } ?? "—",
                            bytes ?? "—",
                        ], widths: widths))
            }
        }
        return lines
    }

    private static func threadScaling(_ figures: Figures) -> [String] {
        let rows = SubjectName.all.compactMap { subject -> String? in
            let shared = figures.threadScaling(CaseName.threads1, CaseName.threads2, subject)
            let own = figures.threadScaling(CaseName.threads1Own, CaseName.threads2Own, subject)
            guard shared != nil || own != nil else { return nil }
            return "  \(subject.padded(to: 18))\((shared.map { "\(format($0))×" } ?? "—").padded(to: 16))"
                + (own.map { "\(format($0))×" } ?? "—")
        }
        guard !rows.isEmpty else { return [] }
        return [
            "", "Thread scaling: throughput of 2 threads ÷ 1 thread (2.00× is perfect, 1.00× fully serialised)",
            "  \("".padded(to: 18))\("one singleton".padded(to: 16))a singleton per thread (-own)",
        ] + rows
    }

    private static func startup(_ results: [BenchmarkResult]) -> [String] {
        guard !results.isEmpty else { return [] }
        let columns = [
            "components", "subject", "launch", "per component", "heap held", "per component", "allocs/component",
            "built", "first launch", "first heap held",
        ]
        let widths = [11, 10, 10, 14, 10, 14, 17, 7, 13, 16]
        var lines = [
            "", "Start-up: install every component, then the heap it holds (median of repeated launches; first",
            "launch: the process's first, cold, with one-time work such as instantiating type metadata)",
            row(columns, widths: widths), row(widths.map { String(repeating: "-", count: $0) }, widths: widths),
        ]
        for result in results {
            let components = Double(result.fixedOperationsPerSample ?? 0)
            let perComponent = result.nanosecondsPerOperation?.median
            lines.append(
                row(
                    [
                        (result.fixedOperationsPerSample ?? 0).withThousandsSeparators, result.subject,
                        formatNanoseconds(perComponent.map { $0 * components }),
                        formatNanoseconds(perComponent),
                        result.bytesPerOperation.map { formatBytes($0 * components) } ?? "—",
                        result.bytesPerOperation.map { formatBytes($0) } ?? "—",
                        result.allocationsPerOperation.map { format($0) } ?? "—",
                        result.instancesBuiltPerSample.map { $0.withThousandsSeparators } ?? "—",
                        formatNanoseconds(result.firstRun.map { $0.nanosecondsPerOperation * components }),
                        result.firstRun?.heldBytesPerOperation.map { formatBytes($0 * components) } ?? "—",
                    ], widths: widths))
        }
        return lines
    }

    private static func targets(_ results: [BenchmarkResult]) -> [String] {
        let assessments = PerformanceTargets.assess(results)
        let met = assessments.filter { $0.status == .met }.count
        let measured = assessments.filter { $0.status != .notMeasured }.count
        var lines = [
            "", "Targets (issue 5): \(met) of \(measured) measured targets met",
            "  (ratios round by round, as in the table; the medians beside them are each benchmark's own)",
        ]
        for assessment in assessments {
            let label: String
            switch assessment.status {
            case .met: label = "[met]"
            case .notMet: label = "[NOT MET]"
            case .notMeasured: label = "[—]"
            }
            lines.append("  \(label.padded(to: 10))\(assessment.target): \(assessment.measured)")
        }
        return lines
    }

    /// Left-aligns the first two columns (names) and right-aligns the rest (figures).
    private static func row(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { index, pair in
            index < 2 ? pair.0.padded(to: pair.1) : pair.0.padded(to: pair.1, left: true)
        }.joined(separator: " ").trimmingTrailingSpaces()
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
