import Foundation
import ServiceRegistry
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs one body on several OS threads that start together, and measures the wall time
/// from the first thread's start to the last thread's end.
///
/// Each run creates its threads afresh (`Thread`, one per worker); they gather at a start
/// line and are released at once, so thread creation is never part of the timed span.
/// The calling thread blocks (it does not spin) while the workers run, leaving every core
/// to them.
struct ParallelRunner {
    /// How many threads run the body.
    let threads: Int
    /// What each thread runs.
    let body: Workload.ThreadBody

    /// Runs the body `operationsPerThread` times on each thread.
    ///
    /// - Parameter operationsPerThread: The count passed to every thread's body.
    /// - Returns: Wall time from the earliest start to the latest end.
    /// - Throws: ``ParallelRunFailure`` carrying the first error a thread threw.
    func run(operationsPerThread: Int) throws -> Duration {
        let startLine = StartLine(threads: threads)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            let body = body
            let thread = Thread {
                startLine.arriveAndWait()
                let clock = ContinuousClock()
                let start = clock.now
                do {
                    try body(operationsPerThread)
                } catch {
                    startLine.fail(with: error)
                }
                startLine.record(start: start, end: clock.now)
                finished.signal()
            }
            thread.start()
        }
        startLine.waitForArrivals()
        startLine.release()
        for _ in 0..<threads { finished.wait() }
        return try startLine.span()
    }
}

/// A thread threw while running a parallel benchmark.
struct ParallelRunFailure: Error, CustomStringConvertible {
    /// The first error thrown, described.
    let underlying: String

    /// Says that a worker thread failed, and with what.
    var description: String { "a benchmark thread failed: \(underlying)" }
}

/// The workers' meeting point: they announce themselves, spin until released, and record
/// when they started and finished.
private final class StartLine: Sendable {
    private let expected: Int
    private let arrivals = DispatchSemaphore(value: 0)
    private let released = Atomic<Bool>(false)
    // The package's `Lock`, not a bare `Mutex`: on Linux the thread sanitizer cannot see a
    // `Mutex` hand a contended lock over, and reported the workers' accesses to `spans` as
    // races whenever two of them recorded at once (every worker fails at the same moment in
    // `parallelRunnerKeepsOneErrorWhenEveryThreadFailsAtOnce`).
    private let spans = Lock<(start: ContinuousClock.Instant?, end: ContinuousClock.Instant?, failure: String?)>(
        (nil, nil, nil))

    init(threads: Int) {
        expected = threads
    }

    func arriveAndWait() {
        arrivals.signal()
        // Spinning, not blocking, so every worker starts the moment it is released; the
        // yield lets the releasing thread have a core meanwhile.
        while !released.load(ordering: .acquiring) {
            #if canImport(Glibc)
            sched_yield()
            #endif
        }
    }

    func waitForArrivals() {
        for _ in 0..<expected { arrivals.wait() }
    }

    func release() {
        released.store(true, ordering: .releasing)
    }

    func record(start: ContinuousClock.Instant, end: ContinuousClock.Instant) {
        spans.withLock { spans in
            spans.start = min(spans.start ?? start, start)
            spans.end = max(spans.end ?? end, end)
        }
    }

    func fail(with error: any Error) {
        spans.withLock { spans in
            if spans.failure == nil { spans.failure = String(describing: error) }
        }
    }

    func span() throws -> Duration {
        let (start, end, failure) = spans.withLock { $0 }
        if let failure { throw ParallelRunFailure(underlying: failure) }
        guard let start, let end else { return .zero }
        return start.duration(to: end)
    }
}
