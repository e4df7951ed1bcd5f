/// The speed and memory targets of issue 5, checked against a run's results.
enum PerformanceTargets {
    /// Whether a target was met.
    enum Status: Equatable, Sendable {
        case met
        case notMet
        /// A figure the target needs was not produced (case filtered out, or failed).
        case notMeasured
    }

    /// One target and how the run fared.
    struct Assessment: Equatable, Sendable {
        /// The target, as the issue states it.
        let target: String
        /// The figure measured, with what it was compared against.
        let measured: String
        /// Met, not met, or not measured.
        let status: Status
    }

    /// Thresholds the issue gives in words, made numbers here (and in the docs).
    static let fewTensOfNanoseconds = 30.0
    static let fewMilliseconds = 5.0

    /// Checks every target.
    ///
    /// - Parameter results: A run's results.
    /// - Returns: One assessment per target, in the order.
    static func assess(_ results: [BenchmarkResult]) -> [Assessment] {
        let figures = Figures(results)
        let registry = SubjectName.registry
        var assessments: [Assessment] = []

        /// What `direct-owned` reached in the same measure, when it ran: the floor no
        /// container can go below.
        func floor(_ value: Double?) -> String {
            value.map { "; \(SubjectName.directOwned), the floor: \(format($0))×" } ?? ""
        }

        /// What `frozen-table` reached in the same case, when it ran: a container that
        /// finds services at run time, without the registry's contract.
        func withoutContract(_ value: Double?) -> String {
            value.map { "; \(SubjectName.frozenTable), without the contract: \(format($0))×" } ?? ""
        }

        func ratio(_ caseName: String, _ limit: Double, _ target: String) {
            assessments.append(
                check(target, figures.ratioToDirect(caseName, registry), limit: limit) {
                    "\(format($0))× direct (medians \(formatNanoseconds(figures.nanoseconds(caseName, registry))) vs \(formatNanoseconds(figures.nanoseconds(caseName, SubjectName.direct)))"
                        + floor(figures.ratioToDirect(caseName, SubjectName.directOwned))
                        + withoutContract(figures.ratioToDirect(caseName, SubjectName.frozenTable)) + ")"
                })
        }

        /// The registry in one case against the registry in another, such as 10,000
        /// registrations against 10.
        func ratio(of caseName: String, over baseline: String, limit: Double, _ target: String) {
            assessments.append(
                check(target, figures.ratio(caseName, registry, over: baseline, registry), limit: limit) {
                    "\(format($0))× (medians \(formatNanoseconds(figures.nanoseconds(caseName, registry))) vs \(formatNanoseconds(figures.nanoseconds(baseline, registry))))"
                })
        }

        ratio(CaseName.singleton, 2, "cached singleton resolve ≤ 2× direct")
        assessments.append(
            check(
                "cached singleton resolve: a few tens of ns at most (≤ \(Int(fewTensOfNanoseconds)) ns)",
                figures.nanoseconds(CaseName.singleton, registry), limit: fewTensOfNanoseconds
            ) { "\(formatNanoseconds($0))" })
        assessments.append(
            check("cached singleton resolve: 0 allocations", figures.allocations(CaseName.singleton, registry), limit: 0.0005) {
                "\(format($0, places: 3)) allocations per resolve"
            })
        ratio(CaseName.transient, 1.5, "transient resolve ≤ 1.5× direct")
        ratio(CaseName.chain3, 1.5, "chain of 3 resolve ≤ 1.5× direct")
        for caseName in [CaseName.transient, CaseName.chain3] {
            let extra = figures.allocations(caseName, registry).flatMap { mine in
                figures.allocations(caseName, SubjectName.direct).map { mine - $0 }
            }
            assessments.append(
                check("\(caseName): allocates only what the services allocate", extra, limit: 0.0005) {
                    "\(format($0, places: 3)) allocations per resolve beyond direct's"
                })
        }
        ratio(of: CaseName.lookup10000, over: CaseName.lookup10, limit: 1.2, "lookup flat: 10,000 registrations within 1.2× of 10")
        assessments.append(
            check("registration ≤ 200 ns each", figures.nanoseconds(CaseName.register, registry), limit: 200) {
                formatNanoseconds($0)
            })
        assessments.append(
            check("registration ≤ 100 heap bytes each", figures.bytes(CaseName.register, registry), limit: 100) {
                "\(format($0, places: 0)) bytes held per registration"
            })
        // Exactly the 10,000-component launch: a smaller one would pass for it.
        let install = figures.result(CaseName.startup(components: 10_000), registry)
        assessments.append(
            check(
                "installing 10,000 registrations takes a few ms (≤ \(Int(fewMilliseconds)) ms)",
                install?.nanosecondsPerOperation.map { $0.median * 10_000 / 1e6 },
                limit: fewMilliseconds
            ) { "\(format($0)) ms" })
        assessments.append(
            check(
                "installing 10,000 registrations builds zero instances",
                install?.instancesBuiltPerSample.map(Double.init), limit: 0
            ) { "\(Int($0)) instances built" })
        assessments.append(
            check(
                "2 threads on one singleton: ≥ 1.6× the throughput of 1",
                figures.threadScaling(CaseName.threads1, CaseName.threads2, registry), atLeast: 1.6
            ) {
                "\(format($0))× the throughput of one thread"
                    + floor(figures.threadScaling(CaseName.threads1, CaseName.threads2, SubjectName.directOwned))
            })
        assessments.append(
            check(
                "2 threads, a singleton each: ≥ 1.6× the throughput of 1",
                figures.threadScaling(CaseName.threads1Own, CaseName.threads2Own, registry), atLeast: 1.6
            ) { "\(format($0))× the throughput of one thread" })
        ratio(
            of: CaseName.overrideScope, over: CaseName.transient, limit: 3,
            "resolve inside withOverrides ≤ 3× the same resolve outside")
        return assessments
    }

    private static func check(
        _ target: String, _ value: Double?, limit: Double, describe: (Double) -> String
    ) -> Assessment {
        guard let value else { return Assessment(target: target, measured: "not measured", status: .notMeasured) }
        return Assessment(target: target, measured: describe(value), status: value <= limit ? .met : .notMet)
    }

    private static func check(
        _ target: String, _ value: Double?, atLeast minimum: Double, describe: (Double) -> String
    ) -> Assessment {
        guard let value else { return Assessment(target: target, measured: "not measured", status: .notMeasured) }
        return Assessment(target: target, measured: describe(value), status: value >= minimum ? .met : .notMet)
    }
}

/// Lookups into a run's results by case and subject.
struct Figures {
    private let results: [String: BenchmarkResult]

    init(_ results: [BenchmarkResult]) {
        self.results = Dictionary(results.map { ("\($0.caseName)/\($0.subject)", $0) }, uniquingKeysWith: { $1 })
    }

    func result(_ caseName: String, _ subject: String) -> BenchmarkResult? {
        results["\(caseName)/\(subject)"]
    }

    func nanoseconds(_ caseName: String, _ subject: String) -> Double? {
        result(caseName, subject)?.nanosecondsPerOperation?.median
    }

    func allocations(_ caseName: String, _ subject: String) -> Double? {
        result(caseName, subject)?.allocationsPerOperation
    }

    func bytes(_ caseName: String, _ subject: String) -> Double? {
        result(caseName, subject)?.bytesPerOperation
    }

    /// The subject's time per operation in one case over a baseline's, round by round
    /// (``SampleStatistics/ratio(over:)``); `nil` unless both were timed.
    func ratio(_ caseName: String, _ subject: String, over baselineCase: String, _ baselineSubject: String) -> Double? {
        guard let mine = result(caseName, subject)?.nanosecondsPerOperation,
            let baseline = result(baselineCase, baselineSubject)?.nanosecondsPerOperation
        else { return nil }
        return mine.ratio(over: baseline)
    }

    /// The throughput of the subject's run on two threads over its run on one: the one's
    /// time per operation over the two's.
    func threadScaling(_ oneThread: String, _ twoThreads: String, _ subject: String) -> Double? {
        ratio(oneThread, subject, over: twoThreads, subject)
    }

    /// The subject's time over `direct`'s in the same case.
    func ratioToDirect(_ caseName: String, _ subject: String) -> Double? {
        ratio(caseName, subject, over: caseName, SubjectName.direct)
    }
}
