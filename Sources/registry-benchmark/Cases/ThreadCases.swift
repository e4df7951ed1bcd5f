import Synchronization

/// `threads-1` and `threads-2`: one or two OS threads resolving the cached singleton as
/// fast as they can. The figure is wall time per operation across all threads (the
/// inverse of throughput), so `threads-1 ns / threads-2 ns` is the throughput gained by
/// the second thread: 2.0 is perfect scaling, 1.0 means the threads serialise.
///
/// `threads-1-own` and `threads-2-own` are the same with a singleton per thread (two
/// services of one container; a thread alone uses one of them in each run). Fetching one shared
/// object makes every thread write its reference count, a cache line the threads then
/// pass back and forth whatever the container does; with an object each, what is left
/// to share is the container's own read path.
enum ThreadCases {
    /// The cases: name, thread count, and whether each thread has its own singleton.
    static let cases = [
        (CaseName.threads1, 1, false), (CaseName.threads2, 2, false),
        (CaseName.threads1Own, 1, true), (CaseName.threads2Own, 2, true),
    ]

    /// The thread benchmarks for every subject.
    ///
    /// - Parameter options: Unused.
    /// - Returns: Four cases × seven subjects.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        cases.flatMap { caseName, threads, ownService -> [Benchmark] in
            func benchmark<Source: ServiceSource>(_ subject: String, _ makeSource: @escaping () -> Source) -> Benchmark {
                Benchmark(
                    caseName: caseName, subject: subject,
                    workload: .threads(threads) {
                        ownService ? ownServiceBody(makeSource()) : sharedServiceBody(makeSource())
                    },
                    source: makeSource)
            }
            return [
                benchmark(SubjectName.direct) { DirectSource() },
                benchmark(SubjectName.directOwned) { DirectOwnedSource() },
                benchmark(SubjectName.registry) { RegistrySource(registry: RegistrySubject.makeRegistry()) },
                benchmark(SubjectName.urlBlock) {
                    URLBlockSource(router: URLBlockRouter(launching: URLBlockComponents.serviceComponents))
                },
                benchmark(SubjectName.mediator) { MediatorSource(mediator: .shared) },
                benchmark(SubjectName.naiveDictionary) { NaiveSource(container: NaiveSubject.makeContainer()) },
                benchmark(SubjectName.frozenTable) { FrozenTableSource(table: FrozenTableSubject.makeTable()) },
            ]
        }
    }

    /// What every thread runs: resolve the one singleton `operations` times.
    static func sharedServiceBody<Source: ServiceSource>(_ source: Source) -> Workload.ThreadBody {
        { operations in
            for _ in 0..<operations { blackHole(try source.sharedService()) }
        }
    }

    /// What every thread runs: resolve a singleton of its own `operations` times.
    ///
    /// Threads take turns at a ticket as they start, and the threads of one run start
    /// together and finish before the next run, so two threads running at once always
    /// hold one odd and one even ticket: thread 0's service and thread 1's.
    static func ownServiceBody<Source: ServiceSource>(_ source: Source) -> Workload.ThreadBody {
        let tickets = Atomic<Int>(0)
        return { operations in
            let thread = tickets.wrappingAdd(1, ordering: .relaxed).oldValue % ThreadSharedServiceImpl.names.count
            for _ in 0..<operations { blackHole(try source.threadService(thread)) }
        }
    }
}
