/// `threads-1` and `threads-2`: one or two OS threads resolving the cached singleton as
/// fast as they can. The figure is wall time per operation across all threads (the
/// inverse of throughput), so `threads-1 ns / threads-2 ns` is the throughput gained by
/// the second thread: 2.0 is perfect scaling, 1.0 means the threads serialise.
enum ThreadCases {
    /// The thread counts and their case names.
    static let threadCounts = [(CaseName.threads1, 1), (CaseName.threads2, 2)]

    /// The thread benchmarks for every subject.
    ///
    /// - Parameter options: Unused.
    /// - Returns: Two cases × five subjects.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        threadCounts.flatMap { caseName, threads -> [Benchmark] in
            [
                Benchmark(caseName: caseName, subject: SubjectName.direct, workload: .threads(threads) {
                    body(DirectSource())
                }),
                Benchmark(caseName: caseName, subject: SubjectName.registry, workload: .threads(threads) {
                    body(RegistrySource(registry: RegistrySubject.makeRegistry()))
                }),
                Benchmark(caseName: caseName, subject: SubjectName.urlBlock, workload: .threads(threads) {
                    body(URLBlockSource(router: URLBlockRouter(launching: URLBlockComponents.serviceComponents)))
                }),
                Benchmark(caseName: caseName, subject: SubjectName.mediator, workload: .threads(threads) {
                    body(MediatorSource(mediator: .shared))
                }),
                Benchmark(caseName: caseName, subject: SubjectName.naiveDictionary, workload: .threads(threads) {
                    body(NaiveSource(container: NaiveSubject.makeContainer()))
                }),
            ]
        }
    }

    /// What every thread runs: resolve the singleton `operations` times.
    static func body<Source: ServiceSource>(_ source: Source) -> Workload.ThreadBody {
        { operations in
            for _ in 0..<operations { blackHole(try source.sharedService()) }
        }
    }
}
