/// Runs one benchmark: prepares it, calibrates, warms up, takes the timed samples, then
/// one pass under the allocation counter.
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

    /// Measures one benchmark. A benchmark that throws is reported as failed, not fatal:
    /// the rest of the run goes on.
    ///
    /// - Parameter benchmark: The benchmark to run.
    /// - Returns: Its figures, or a result carrying the failure.
    func measure(_ benchmark: Benchmark) -> BenchmarkResult {
        do {
            switch benchmark.workload.execution {
            case .sequential(let prepare):
                return try measureSequential(benchmark, body: try prepare())
            case .parallel(let threads, let prepare):
                return try measureParallel(benchmark, threads: threads, body: try prepare())
            }
        } catch {
            return BenchmarkResult(failed: benchmark, reason: String(describing: error))
        }
    }

    // MARK: Sequential

    private func measureSequential(_ benchmark: Benchmark, body: Workload.Body) throws -> BenchmarkResult {
        let workload = benchmark.workload
        let firstRun = try workload.measuresFirstRun ? measureFirstRun(body, operations: workload.operationsPerSample) : nil
        let (operations, warmedUp) = try operationsPerSample(workload.operationsPerSample) { try time(body, $0) }
        if !warmedUp { _ = try time(body, operations) }  // warm-up: caches, lazily built singletons, page faults
        var samples: [Double] = []
        for _ in 0..<options.repetitions {
            samples.append(try time(body, operations).nanoseconds / Double(operations))
        }
        var result = BenchmarkResult(benchmark, timing: SampleStatistics(samples: samples))
        result.fixedOperationsPerSample = workload.operationsPerSample
        result.firstRun = firstRun

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
        return result
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

    // MARK: Parallel

    private func measureParallel(
        _ benchmark: Benchmark, threads: Int, body: @escaping Workload.ThreadBody
    ) throws -> BenchmarkResult {
        let runner = ParallelRunner(threads: threads, body: body)
        let (operations, warmedUp) = try operationsPerSample(nil) { try runner.run(operationsPerThread: $0) }
        if !warmedUp { _ = try runner.run(operationsPerThread: operations) }
        var samples: [Double] = []
        for _ in 0..<options.repetitions {
            let elapsed = try runner.run(operationsPerThread: operations)
            samples.append(elapsed.nanoseconds / Double(operations * threads))
        }
        return BenchmarkResult(benchmark, timing: SampleStatistics(samples: samples))
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
