/// Runs benchmarks: prepares, calibrates and warms up each, takes their timed samples in
/// rounds after an untimed one, then makes one pass of each under the allocation counter.
///
/// The samples are taken in rounds, one sample of every benchmark per round, so that each
/// benchmark's samples spread over the same stretch of time as every other's. On a shared
/// machine a disturbance lasting a second or so (another tenant's burst) would otherwise
/// slow every sample of the one or two benchmarks it fell on, their medians with them, and
/// skew every ratio between them and the rest: a `direct` baseline measured slow made the
/// registry's `transient` read 1.37× instead of about 2×. In rounds, it slows one sample of
/// each benchmark, which the medians pass over, and the report divides two benchmarks'
/// samples round by round (``SampleStatistics/ratio(over:)``).
///
/// A workload that fixes its operation count (start-up, `route-register`) is the exception:
/// each of its samples is a whole launch, megabytes built and freed, and it takes them back
/// to back, after the rounds, so that each launch meets the caches and the allocator the
/// launch before it left rather than another case's.
struct Sampler {
    /// The run's settings (sample length, repetitions, fixed operation counts).
    let options: BenchmarkOptions

    private let clock = ContinuousClock()

    /// Creates a sampler for the given settings.
    ///
    /// - Parameter options: Sample length, repetitions and operation counts to use.
    init(options: BenchmarkOptions) {
        self.options = options
    }

    /// Measures one benchmark. A benchmark that throws is reported as failed, not fatal.
    ///
    /// - Parameter benchmark: The benchmark to run.
    /// - Returns: Its figures, or a result carrying the failure.
    func measure(_ benchmark: Benchmark) -> BenchmarkResult {
        measure([benchmark])[0]
    }

    /// Measures benchmarks, their timed samples taken in rounds (those of a workload that
    /// fixes its count, back to back). A benchmark that throws is reported as failed, not
    /// fatal: the others go on.
    ///
    /// - Parameters:
    ///   - benchmarks: The benchmarks, prepared in this order and sampled in it each round.
    ///   - progress: Told what starts, as a line for a person: each benchmark
    ///     (`"running case/subject"`), and each round of samples.
    /// - Returns: One result per benchmark, in the order given.
    func measure(_ benchmarks: [Benchmark], progress: ((String) -> Void)? = nil) -> [BenchmarkResult] {
        let fixesItsCount = { (benchmark: Benchmark) in benchmark.workload.operationsPerSample != nil }
        // Every round runs here, before the map below measures each fixed-count benchmark
        // alone as it meets it and puts all the results back in the order given.
        var inRounds = measureInRounds(benchmarks.filter { !fixesItsCount($0) }, progress: progress).makeIterator()
        return benchmarks.map { benchmark in
            fixesItsCount(benchmark) ? measureInRounds([benchmark], progress: progress)[0] : inRounds.next()!
        }
    }

    /// Prepares each benchmark in turn, then takes one sample of each per round.
    ///
    /// With several benchmarks, an untimed round comes first: each was warmed up when it was
    /// prepared, then sat idle while the others were, and without that round the first round
    /// read slower than the rest (in 10 of the 12 rows of two full runs printed on
    /// 2026-12-01, by up to 50%).
    private func measureInRounds(_ benchmarks: [Benchmark], progress: ((String) -> Void)?) -> [BenchmarkResult] {
        var runs = benchmarks.map { benchmark in
            progress?("running \(benchmark.caseName)/\(benchmark.subject)")
            return BenchmarkRun(benchmark) { try prepare(benchmark) }
        }
        if runs.count > 1 {
            progress?("untimed round")
            for index in runs.indices { runs[index].takeSample(keeping: false) }
        }
        for round in 0..<options.repetitions {
            if runs.count > 1 { progress?("timed samples, round \(round + 1) of \(options.repetitions)") }
            for index in runs.indices { runs[index].takeSample() }
        }
        return runs.map(finish)
    }

    /// A benchmark between its preparation and its result: ready to sample, with the
    /// samples taken so far, or failed.
    private struct BenchmarkRun {
        let benchmark: Benchmark
        var state: Result<Calibrated, BenchmarkFailure>

        init(_ benchmark: Benchmark, prepare: () throws -> Calibrated) {
            self.benchmark = benchmark
            state = Result { try prepare() }.mapError(BenchmarkFailure.init)
        }

        /// Takes a sample, kept among the timed ones or, for the untimed round, dropped.
        mutating func takeSample(keeping: Bool = true) {
            guard case .success(var calibrated) = state else { return }
            do {
                let sample = try calibrated.sample()
                guard keeping else { return }
                calibrated.samples.append(sample)
                state = .success(calibrated)
            } catch {
                state = .failure(BenchmarkFailure(error))
            }
        }
    }

    /// Why a benchmark failed: its error, described.
    private struct BenchmarkFailure: Error {
        let reason: String

        init(_ error: any Error) {
            reason = String(describing: error)
        }
    }

    /// A benchmark calibrated and warmed up: how to take one timed sample, and what its
    /// result needs besides the samples.
    private struct Calibrated {
        /// Takes one timed sample; returns its nanoseconds per operation.
        let sample: () throws -> Double
        /// The sequential body, for the pass under the allocation counter; `nil` for a
        /// parallel benchmark, which has none.
        let body: Workload.Body?
        let firstRun: BenchmarkResult.FirstRun?
        var samples: [Double] = []
    }

    /// Builds the benchmark's subject, times its first run if it asks for that, and
    /// calibrates and warms it up.
    private func prepare(_ benchmark: Benchmark) throws -> Calibrated {
        switch benchmark.workload.execution {
        case .sequential(let prepare):
            let body = try prepare()
            let workload = benchmark.workload
            let firstRun = try workload.measuresFirstRun ? measureFirstRun(body, operations: workload.operationsPerSample) : nil
            let (operations, warmedUp) = try operationsPerSample(workload.operationsPerSample) { try time(body, $0) }
            if !warmedUp { _ = try time(body, operations) }  // warm-up: caches, lazily built singletons, page faults
            return Calibrated(
                sample: { try time(body, operations).nanoseconds / Double(operations) }, body: body, firstRun: firstRun)
        case .parallel(let threads, let prepare):
            let runner = ParallelRunner(threads: threads, body: try prepare())
            let (operations, warmedUp) = try operationsPerSample(nil) { try runner.run(operationsPerThread: $0) }
            if !warmedUp { _ = try runner.run(operationsPerThread: operations) }
            return Calibrated(
                sample: { try runner.run(operationsPerThread: operations).nanoseconds / Double(operations * threads) },
                body: nil, firstRun: nil)
        }
    }

    /// The run's result: its samples' statistics, then, for a sequential benchmark, the
    /// figures of its pass under the allocation counter.
    private func finish(_ run: BenchmarkRun) -> BenchmarkResult {
        switch run.state {
        case .failure(let failure):
            return BenchmarkResult(failed: run.benchmark, reason: failure.reason)
        case .success(let calibrated):
            var result = BenchmarkResult(run.benchmark, timing: SampleStatistics(samples: calibrated.samples))
            guard let body = calibrated.body else { return result }
            result.fixedOperationsPerSample = run.benchmark.workload.operationsPerSample
            result.firstRun = calibrated.firstRun
            do {
                try countMemory(of: run.benchmark.workload, body: body, into: &result)
            } catch {
                return BenchmarkResult(failed: run.benchmark, reason: String(describing: error))
            }
            return result
        }
    }

    /// One pass of the body under the allocation counter, and around it the heap in use and
    /// the instances built: the result's memory figures.
    private func countMemory(of workload: Workload, body: Workload.Body, into result: inout BenchmarkResult) throws {
        let memoryOperations = workload.operationsPerSample ?? options.fixedOperations ?? options.memoryOperations
        let instancesBefore = workload.instancesBuilt?()
        let heapBefore = HeapUsage.bytesInUse()
        let (kept, tally) = try AllocationCounter.count { try body(memoryOperations) }
        let heapAfter = HeapUsage.bytesInUse()
        let instancesAfter = workload.instancesBuilt?()
        withExtendedLifetime(kept) {}

        let perOperation = { (total: Int) in Double(total) / Double(memoryOperations) }
        result.allocationsPerOperation = tally.map { perOperation($0.allocations) }
        switch workload.memoryFigure {
        case .allocated:
            result.bytesPerOperation = tally.map { perOperation($0.bytes) }
        case .held:
            if let heapBefore, let heapAfter { result.bytesPerOperation = perOperation(heapAfter - heapBefore) }
        case .none:
            result.allocationsPerOperation = nil
        }
        if let instancesBefore, let instancesAfter {
            // Scaled to one sample: for start-up the memory pass *is* one sample.
            result.instancesBuiltPerSample = instancesAfter - instancesBefore
        }
    }

    /// Times the body's first run and reads the heap it holds afterwards, before anything
    /// has warmed up; `nil` when the workload does not fix its operation count.
    private func measureFirstRun(_ body: Workload.Body, operations: Int?) throws -> BenchmarkResult.FirstRun? {
        guard let operations = operations ?? options.fixedOperations else { return nil }
        // A launch meets memory fresh from the kernel, not what the cases before it freed.
        FreedMemoryRetention.returnFreedMemory()
        let heapBefore = HeapUsage.bytesInUse()
        let start = clock.now
        let kept = try body(operations)
        let elapsed = start.duration(to: clock.now)
        let heapAfter = HeapUsage.bytesInUse()
        withExtendedLifetime(kept) {}
        let held = heapBefore.flatMap { before in heapAfter.map { Double($0 - before) / Double(operations) } }
        return BenchmarkResult.FirstRun(
            nanosecondsPerOperation: elapsed.nanoseconds / Double(operations), heldBytesPerOperation: held)
    }

    /// Runs the body once and returns how long it took; whatever it returns is released
    /// only after the clock has stopped.
    private func time(_ body: Workload.Body, _ operations: Int) throws -> Duration {
        let start = clock.now
        let kept = try body(operations)
        let elapsed = start.duration(to: clock.now)
        withExtendedLifetime(kept) {}
        return elapsed
    }

    /// Spins for `duration`, so that the core is awake and at speed when timing starts.
    ///
    /// - Parameter duration: How long to spin.
    func keepBusy(for duration: Duration) {
        let deadline = clock.now.advanced(by: duration)
        while clock.now < deadline {
            for spin in 0..<1_000 { blackHole(spin) }
        }
    }

    // MARK: Calibration

    /// The operation count per sample: fixed by the workload or the options, or grown
    /// until one run lasts ``BenchmarkOptions/sampleDuration``. The growing runs double as
    /// warm-up.
    ///
    /// A count estimated from a shorter run is run once more before it is used: the
    /// shorter run may have been slower per operation than the samples will be (cold
    /// caches, a busy core), and a count taken from it unchecked would make every sample
    /// shorter than the duration the report states. That last run is a whole sample at
    /// the returned count, so it is the warm-up sample as well.
    ///
    /// A run that reaches the duration though nothing predicted it would (the first run,
    /// or one grown tenfold from a run under a twentieth of it) is run once more too: on a
    /// busy machine a thread held up for the whole duration stretches a run of a few
    /// microseconds' work past it, and its count would make every sample that short.
    ///
    /// - Returns: The count, and whether a run of exactly that count has just been made
    ///   (`false` for a fixed count, which still needs its warm-up sample).
    private func operationsPerSample(
        _ fixedByWorkload: Int?, run: (Int) throws -> Duration
    ) throws -> (operations: Int, warmedUp: Bool) {
        if let fixed = fixedByWorkload ?? options.fixedOperations { return (fixed, false) }
        let target = options.sampleDuration.nanoseconds
        var operations = 1
        // Whether a run of `operations` is expected to last the whole duration: true for
        // an estimate, and for a count run again because it did so unexpectedly.
        var predicted = false
        while true {
            let elapsed = max(try run(operations).nanoseconds, 1)
            if operations >= 1 << 40 { return (operations, true) }
            if elapsed >= target {
                if predicted { return (operations, true) }
                predicted = true
                continue
            }
            // Jump straight to the estimate once a run is long enough to trust, else grow 10×.
            if elapsed >= target / 20 {
                operations = max(operations + 1, Int(Double(operations) * target / elapsed * 1.05))
                predicted = true
            } else {
                operations *= 10
                predicted = false
            }
        }
    }
}

extension Duration {
    /// The duration in nanoseconds, as a `Double`.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
