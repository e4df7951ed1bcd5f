import Testing

@testable import registry_benchmark

@Suite("Command line")
struct BenchmarkOptionsTests {
    @Test func parsesJSONQuickAndFilters() throws {
        let options = try BenchmarkOptions(arguments: ["--json", "--quick", "--filter", "lookup", "--filter", "register"])
        #expect(options.format == .json)
        #expect(options.isQuick)
        #expect(options.repetitions == BenchmarkOptions.quick.repetitions)
        #expect(options.caseFilters == ["lookup", "register"])
        #expect(options.selects(caseName: CaseName.lookup10000))
        #expect(!options.selects(caseName: CaseName.singleton))
    }

    /// A filter that is a case's name selects that case alone, though it is part of other
    /// names too; one that is only part of names selects every case it is part of.
    @Test func aFilterNamingACaseSelectsOnlyThatCase() throws {
        let startup = try BenchmarkOptions(arguments: ["--filter", CaseName.startup(components: 1_000)])
        #expect(startup.selects(caseName: CaseName.startup(components: 1_000)))
        #expect(!startup.selects(caseName: CaseName.startup(components: 10_000)))
        let threads = try BenchmarkOptions(arguments: ["--filter", CaseName.threads1, "--filter", "lookup"])
        #expect(Set(BenchmarkCatalog.benchmarks(for: threads).map(\.caseName)) == [
            CaseName.lookup10, CaseName.lookup10000, CaseName.threads1,
        ])
    }

    @Test func subjectOptionSelectsExactSubjects() throws {
        let options = try BenchmarkOptions(arguments: ["--subject", "registry", "--filter", "singleton"])
        let selected = BenchmarkCatalog.benchmarks(for: options)
        #expect(selected.map(\.subject) == [SubjectName.registry])
        #expect(selected.map(\.caseName) == [CaseName.singleton])
    }

    /// `--quick` is Performance.md's run of a few seconds: samples of 4 ms instead of 20, 5
    /// timed samples instead of 11, a memory pass of 500 operations instead of 2,000. A
    /// preset that only set the flag would print "(--quick)" over a full-length run.
    @Test func quickShortensTheSamplesTheirCountAndTheMemoryPass() throws {
        let quick = try BenchmarkOptions(arguments: ["--quick"])
        let full = try BenchmarkOptions(arguments: [])
        #expect([quick.sampleDuration, full.sampleDuration] == [.milliseconds(4), .milliseconds(20)])
        #expect([quick.repetitions, full.repetitions] == [5, 11])
        #expect([quick.memoryOperations, full.memoryOperations] == [500, 2_000])
    }

    @Test func defaultsToTheFullTableRun() throws {
        let options = try BenchmarkOptions(arguments: [])
        #expect(options.format == .table)
        #expect(!options.isQuick)
        #expect(options.selects(caseName: CaseName.graph))
    }

    /// An empty filter (`--filter "$CASE"` with `CASE` unset) is in every case name; read as
    /// a filter it would quietly run everything, so it is refused like a missing one.
    @Test(arguments: [["--fast"], ["--filter"], ["--filter", "--json"], ["--filter", ""], ["--subject"], ["--subject", ""]])
    func rejectsWhatItDoesNotUnderstandAndShowsUsage(arguments: [String]) {
        #expect {
            try BenchmarkOptions(arguments: arguments)
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.description.contains("usage: registry-benchmark") && !usage.problem.isEmpty
        }
    }

    @Test func anUnknownSubjectIsRefusedAndEveryKnownOneAccepted() throws {
        #expect(throws: UsageError.self) { try BenchmarkOptions(arguments: ["--subject", "registy"]) }
        for subject in BenchmarkOptions.subjectNames {
            #expect(try BenchmarkOptions(arguments: ["--subject", subject]).subjects == [subject])
        }
        #expect(BenchmarkOptions.subjectNames.contains(RouterCases.routerMatch))
    }

    /// `--subject` checks names against a fixed list, which `--help` spells out: a case file
    /// that brings a subject of its own must add it to both, or `--subject` refuses it.
    @Test func subjectOptionAndHelpKnowEverySubjectTheCatalogRuns() {
        let catalogSubjects = Set(BenchmarkCatalog.groups.flatMap { $0(.standard) }.map(\.subject))
        #expect(Set(BenchmarkOptions.subjectNames) == catalogSubjects)
        let helpWords = Set(BenchmarkOptions.usage.split { " ,:()\n".contains($0) }.map(String.init))
        for subject in catalogSubjects {
            #expect(helpWords.contains(subject), "`--help` does not name \(subject)")
        }
    }

    /// A filter with a typo in it, or a subject the filtered cases do not have, would run
    /// nothing and print an empty report as if it had succeeded.
    @Test(arguments: [
        (["--filter", "singelton"], "`--filter singelton` matches no case; the cases are `singleton`, "),
        (["--filter", "lookup", "--filter", "threads-3"], "`--filter threads-3` matches no case; the cases are "),
        (["--json", "--filter", "register", "--subject", "mediator"],
         "no selected case has the subject `mediator`; the cases `--filter` selects have `registry`, `url-block`, `naive-dictionary`"),
    ])
    func aSelectionThatRunsNothingIsRefused(arguments: [String], problem: String) {
        #expect {
            try BenchmarkOptions(arguments: arguments)
        } throws: { error in
            (error as? UsageError)?.problem.hasPrefix(problem) == true
        }
    }

    @Test func everyCaseNameIsAFilterThatSelectsIt() throws {
        let names = Set(BenchmarkCatalog.benchmarks(for: .standard).map(\.caseName))
        #expect(names.isSuperset(of: CaseName.issueCases))
        for name in names {
            let options = try BenchmarkOptions(arguments: ["--filter", name])
            #expect(BenchmarkCatalog.benchmarks(for: options).contains { $0.caseName == name })
        }
    }

    /// Asking for the help answers it, whatever else the line holds: a mistake elsewhere in
    /// it is most often why the help was wanted.
    @Test(arguments: [["--help"], ["-h"], ["--filter", "zzz", "--help"], ["--fast", "-h"], ["--subject", "x", "--help"]])
    func helpIsShownWhateverElseTheLineHolds(arguments: [String]) throws {
        #expect(try BenchmarkOptions(arguments: arguments).showsHelp)
    }

    @Test func unknownArgumentIsNamedInTheError() {
        #expect(throws: UsageError(problem: "unknown argument `--fast`")) { try BenchmarkOptions(arguments: ["--fast"]) }
    }
}

/// A result with a given median, for report tests.
private func result(
    _ caseName: String, _ subject: String, nanoseconds: Double, allocations: Double? = 0, bytes: Double? = 0
) -> BenchmarkResult {
    result(caseName, subject, samples: [nanoseconds], allocations: allocations, bytes: bytes)
}

/// A result with the given samples, one a round, for report tests.
private func result(
    _ caseName: String, _ subject: String, samples: [Double], allocations: Double? = 0, bytes: Double? = 0
) -> BenchmarkResult {
    let benchmark = Benchmark(caseName: caseName, subject: subject, workload: .calls { { _ in nil } })
    var result = BenchmarkResult(benchmark, timing: SampleStatistics(samples: samples))
    result.allocationsPerOperation = allocations
    result.bytesPerOperation = bytes
    return result
}

@Suite("Targets and the table")
struct ReportTests {
    @Test func singletonTargetsFollowTheRatioAndTheAllocationCount() throws {
        let within = PerformanceTargets.assess([
            result(CaseName.singleton, SubjectName.direct, nanoseconds: 10),
            result(CaseName.singleton, SubjectName.registry, nanoseconds: 19),
        ])
        #expect(within.first { $0.target.contains("≤ 2× direct") }?.status == .met)
        #expect(within.first { $0.target.contains("0 allocations") }?.status == .met)

        let beyond = PerformanceTargets.assess([
            result(CaseName.singleton, SubjectName.direct, nanoseconds: 10),
            result(CaseName.singleton, SubjectName.registry, nanoseconds: 21, allocations: 1),
        ])
        #expect(beyond.first { $0.target.contains("≤ 2× direct") }?.status == .notMet)
        #expect(beyond.first { $0.target.contains("0 allocations") }?.status == .notMet)
    }

    @Test func ratioTargetsQuoteTheFloorsThatRan() {
        let withFloor = PerformanceTargets.assess([
            result(CaseName.singleton, SubjectName.direct, nanoseconds: 10),
            result(CaseName.singleton, SubjectName.directOwned, nanoseconds: 25),
            result(CaseName.singleton, SubjectName.registry, nanoseconds: 50),
            result(CaseName.singleton, SubjectName.frozenTable, nanoseconds: 30),
            result(CaseName.transient, SubjectName.direct, nanoseconds: 20),
            result(CaseName.transient, SubjectName.registry, nanoseconds: 50),
            result(CaseName.transient, SubjectName.frozenTable, nanoseconds: 24),
            result(CaseName.threads1, SubjectName.directOwned, nanoseconds: 10),
            result(CaseName.threads2, SubjectName.directOwned, nanoseconds: 40),
            result(CaseName.threads1, SubjectName.registry, nanoseconds: 10),
            result(CaseName.threads2, SubjectName.registry, nanoseconds: 20),
        ])
        #expect(
            withFloor.first { $0.target.contains("≤ 2× direct") }?.measured
                == "5.00× direct (medians 50.00 ns vs 10.00 ns; direct-owned, the floor: 2.50×; frozen-table, without the contract: 3.00×)")
        #expect(
            withFloor.first { $0.target.contains("transient resolve") }?.measured
                == "2.50× direct (medians 50.00 ns vs 20.00 ns; frozen-table, without the contract: 1.20×)")
        #expect(
            withFloor.first { $0.target.contains("one singleton") }?.measured
                == "0.50× the throughput of one thread; direct-owned, the floor: 0.25×")

        let withoutFloor = PerformanceTargets.assess([
            result(CaseName.singleton, SubjectName.direct, nanoseconds: 10),
            result(CaseName.singleton, SubjectName.registry, nanoseconds: 50),
        ])
        #expect(withoutFloor.first { $0.target.contains("≤ 2× direct") }?.measured == "5.00× direct (medians 50.00 ns vs 10.00 ns)")
    }

    /// The install targets are about 10,000 registrations: a smaller launch that ran while
    /// the 10,000 one failed (or did not run) must not pass for it.
    @Test func installTargetsJudgeOnlyTheTenThousandComponentLaunch() {
        func startup(_ components: Int, failed: Bool = false) -> BenchmarkResult {
            let benchmark = Benchmark(
                caseName: CaseName.startup(components: components), subject: SubjectName.registry,
                workload: .holdings(operations: components) { { _ in nil } })
            if failed { return BenchmarkResult(failed: benchmark, reason: "out of memory") }
            var result = BenchmarkResult(benchmark, timing: SampleStatistics(samples: [100]))
            result.fixedOperationsPerSample = components
            result.instancesBuiltPerSample = 0
            return result
        }
        let install = { (results: [BenchmarkResult]) in
            PerformanceTargets.assess(results).filter { $0.target.hasPrefix("installing") }.map(\.status)
        }
        #expect(install([startup(1_000), startup(10_000, failed: true)]) == [.notMeasured, .notMeasured])
        #expect(install([startup(1_000)]) == [.notMeasured, .notMeasured])
        #expect(install([startup(1_000), startup(10_000)]) == [.met, .met])  // 100 ns × 10,000 = 1 ms
    }

    /// The targets no other test reads each quote the registry's own figure of their case,
    /// and a ratio's two figures in order: the other subjects here have other figures, so a
    /// target that read one of them, another case, or its ratio upside down would say so.
    @Test func eachTargetQuotesTheRegistrysFiguresOfItsCases() {
        let naive = SubjectName.naiveDictionary
        var heldRegistrations = result(CaseName.register, SubjectName.registry, nanoseconds: 150, allocations: 1.01, bytes: 97)
        heldRegistrations.memoryFigure = .held
        let assessments = PerformanceTargets.assess([
            result(CaseName.singleton, SubjectName.direct, nanoseconds: 5),
            result(CaseName.singleton, SubjectName.registry, nanoseconds: 25),
            result(CaseName.singleton, naive, nanoseconds: 70, allocations: 2),
            result(CaseName.transient, SubjectName.direct, nanoseconds: 30, allocations: 1),
            result(CaseName.transient, SubjectName.registry, nanoseconds: 80, allocations: 2),
            result(CaseName.transient, naive, nanoseconds: 100, allocations: 1),
            result(CaseName.chain3, SubjectName.direct, nanoseconds: 90, allocations: 3),
            result(CaseName.chain3, SubjectName.registry, nanoseconds: 210, allocations: 3),
            result(CaseName.chain3, naive, nanoseconds: 300, allocations: 5),
            result(CaseName.lookup10, SubjectName.registry, nanoseconds: 25),
            result(CaseName.lookup10000, SubjectName.registry, nanoseconds: 27.5),
            result(CaseName.lookup10, naive, nanoseconds: 72),
            result(CaseName.lookup10000, naive, nanoseconds: 90),
            heldRegistrations,
            result(CaseName.register, naive, nanoseconds: 260, allocations: 0.01, bytes: 120),
            result(CaseName.overrideScope, SubjectName.direct, nanoseconds: 30),
            result(CaseName.overrideScope, SubjectName.registry, nanoseconds: 160),
        ])
        let measured = Dictionary(uniqueKeysWithValues: assessments.map { ($0.target, "\($0.measured) [\($0.status)]") })
        #expect(measured["cached singleton resolve: a few tens of ns at most (≤ 30 ns)"] == "25.00 ns [met]")
        #expect(measured["cached singleton resolve: 0 allocations"] == "0.000 allocations per resolve [met]")
        #expect(
            measured["transient: allocates only what the services allocate"]
                == "1.000 allocations per resolve beyond direct's [notMet]")
        #expect(
            measured["chain3: allocates only what the services allocate"]
                == "0.000 allocations per resolve beyond direct's [met]")
        #expect(
            measured["lookup flat: 10,000 registrations within 1.2× of 10"] == "1.10× (medians 27.50 ns vs 25.00 ns) [met]")
        #expect(measured["registration ≤ 200 ns each"] == "150 ns [met]")
        #expect(measured["registration ≤ 100 heap bytes each"] == "97 bytes held per registration [met]")
        #expect(
            measured["resolve inside withOverrides ≤ 3× the same resolve outside"]
                == "2.00× (medians 160 ns vs 80.00 ns) [met]")
    }

    @Test func threadScalingNeedsBothThreadCounts() {
        let scaled = PerformanceTargets.assess([
            result(CaseName.threads1, SubjectName.registry, nanoseconds: 10),
            result(CaseName.threads2, SubjectName.registry, nanoseconds: 6),
            result(CaseName.threads1Own, SubjectName.registry, nanoseconds: 10),
            result(CaseName.threads2Own, SubjectName.registry, nanoseconds: 7),
        ])
        #expect(scaled.first { $0.target.contains("one singleton") }?.status == .met)  // 10 / 6 = 1.67×
        #expect(scaled.first { $0.target.contains("a singleton each") }?.status == .notMet)  // 10 / 7 = 1.43×
        let missing = PerformanceTargets.assess([result(CaseName.threads1, SubjectName.registry, nanoseconds: 10)])
        #expect(missing.first { $0.target.contains("one singleton") }?.status == .notMeasured)
        #expect(missing.first { $0.target.contains("a singleton each") }?.status == .notMeasured)
    }

    @Test func tableShowsThreadScalingForOneSingletonAndForOnePerThread() {
        let table = TableReport.render(
            [
                result(CaseName.threads1, SubjectName.registry, nanoseconds: 10),
                result(CaseName.threads2, SubjectName.registry, nanoseconds: 20),
                result(CaseName.threads1Own, SubjectName.registry, nanoseconds: 10),
                result(CaseName.threads2Own, SubjectName.registry, nanoseconds: 5),
            ], options: .smoke)
        #expect(table.contains("  registry          0.50×           2.00×"))
    }

    /// Checked row by row: the targets below the table also name `transient` and quote its
    /// "2.50×", so the whole text would contain both with no ratio in the table at all.
    @Test func tableShowsEveryCaseWithItsRatioToDirect() {
        let results = [
            result(CaseName.transient, SubjectName.direct, nanoseconds: 10),
            result(CaseName.transient, SubjectName.registry, nanoseconds: 25),
            result(CaseName.named, SubjectName.registry, nanoseconds: 30),
        ]
        let table = TableReport.render(results, options: .standard)
        let lines = table.split(separator: "\n")
        #expect(lines.contains("transient       direct               10.00 ns    ±0.0%      1.00×       0.00          0 B"))
        #expect(lines.contains("                registry             25.00 ns    ±0.0%      2.50×       0.00          0 B"))
        #expect(lines.contains("named           registry             30.00 ns    ±0.0%          —       0.00          0 B"))
        #expect(table.contains("Targets (issue 5)"))
    }

    /// The table's ratios, the thread scaling and the targets all divide round by round. The
    /// third round here ran slower for every benchmark; round by round the transient reads
    /// 1.4×, 1.6×, 1.4×, the threads 1.7×, 1.33×, 1.7× and the lookup 1.24×, 1.08×, 1.1×,
    /// while the quotients of the medians (1.60×, 1.42×, 1.24×) would turn every verdict.
    @Test func everyRatioIsTakenRoundByRound() {
        let results = [
            result(CaseName.transient, SubjectName.direct, samples: [10, 10, 40]),
            result(CaseName.transient, SubjectName.registry, samples: [14, 16, 56]),
            result(CaseName.threads1, SubjectName.registry, samples: [8.5, 8, 34]),
            result(CaseName.threads2, SubjectName.registry, samples: [5, 6, 20]),
            result(CaseName.lookup10, SubjectName.registry, samples: [25, 25, 50]),
            result(CaseName.lookup10000, SubjectName.registry, samples: [31, 27, 55]),
        ]
        let lines = TableReport.render(results, options: .standard).split(separator: "\n")
        #expect(lines.contains("                registry             16.00 ns   ±65.6%      1.40×       0.00          0 B"))
        #expect(lines.contains("  (ratios round by round, as in the table; the medians beside them are each benchmark's own)"))
        #expect(lines.contains("  registry          1.70×           —"))
        let measured = Dictionary(
            uniqueKeysWithValues: PerformanceTargets.assess(results).map { ($0.target, "\($0.measured) [\($0.status)]") })
        #expect(measured["transient resolve ≤ 1.5× direct"] == "1.40× direct (medians 16.00 ns vs 10.00 ns) [met]")
        #expect(
            measured["2 threads on one singleton: ≥ 1.6× the throughput of 1"] == "1.70× the throughput of one thread [met]")
        #expect(
            measured["lookup flat: 10,000 registrations within 1.2× of 10"] == "1.10× (medians 31.00 ns vs 25.00 ns) [met]")
    }

    /// A launch of 1,000 components, as the start-up cases report it.
    private static func startupLaunch() -> BenchmarkResult {
        let benchmark = Benchmark(
            caseName: CaseName.startup(components: 1_000), subject: SubjectName.registry,
            workload: .holdings(operations: 1_000) { { _ in nil } })
        var launch = BenchmarkResult(benchmark, timing: SampleStatistics(samples: [250]))
        launch.fixedOperationsPerSample = 1_000
        launch.allocationsPerOperation = 4.25
        launch.bytesPerOperation = 167
        launch.instancesBuiltPerSample = 0
        return launch
    }

    /// Issue 5 asks for start-up's allocation counts beside its time and heap held; the
    /// counter measures them, so the start-up table shows them per component.
    @Test func startupTableShowsAllocationsPerComponent() throws {
        let lines = TableReport.render([Self.startupLaunch()], options: .smoke).split(separator: "\n")
        let header = try #require(lines.first { $0.hasPrefix("components") })
        let row = try #require(lines.first { $0.hasPrefix("1,000") })
        #expect(header.contains("allocs/component"))
        #expect(row.contains(" 4.25 "), "\(row)")
    }

    /// `--filter startup` runs only start-up cases, which have a table of their own.
    @Test func aRunOfOnlyStartupCasesPrintsNoEmptyMainTable() {
        let lines = TableReport.render([Self.startupLaunch()], options: .smoke).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("case ") })
        #expect(lines.contains { $0.hasPrefix("components ") })
    }

    /// The memory pass of a case that fixes its operation count (route-register's 10,000
    /// routes, a start-up's N components) is one sample of it, not the options' count.
    @Test func headerSaysHowManyOperationsTheMemoryFiguresCover() {
        let standard = TableReport.render([], options: .standard)
        #expect(standard.contains("over 2,000 operations, or one sample of a case\n  that fixes its count (route-register, start-up);"))
        #expect(TableReport.render([], options: .smoke).contains("over 8 operations, or one sample"))
    }

    /// A case that fixes its count is not calibrated: a sample of it is that count, and a
    /// launch of 1,000 components lasts well under the sample duration the header states.
    @Test func headerSaysACaseThatFixesItsCountTimesThatCountPerSample() {
        let header = TableReport.render([], options: .standard)
        #expect(
            header.contains(
                "samples of ≥ 20.00 ms, taken in rounds of one per benchmark,\n  after calibration and a warm-up sample;\n"
                    + "  a case that fixes its count (route-register, start-up) times that count per sample, back to back,\n"
                    + "  after one warm-up sample;\n"
            ))
        // The tests' preset fixes every count, so nothing is calibrated.
        #expect(
            TableReport.render([], options: .smoke).contains(
                "ns/op: median of 1 timed 8 operations per sample, taken in rounds of one per benchmark,\n"
                    + "  after a warm-up sample;\n"))
    }

    @Test func formatsDurationsAndCountsForReading() {
        #expect(formatNanoseconds(12.345) == "12.35 ns")
        #expect(formatNanoseconds(4_560) == "4560 ns")
        #expect(formatNanoseconds(45_600) == "45.6 µs")
        #expect(formatNanoseconds(7_890_000) == "7.89 ms")
        #expect(10_000.withThousandsSeparators == "10,000")
        #expect(999.withThousandsSeparators == "999")
    }
}
