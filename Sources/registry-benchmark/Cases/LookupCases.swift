/// `lookup-10` and `lookup-10000`: resolving the cached singleton from a container that
/// holds 10 or 10,000 registrations in all, each of its own type. Flat lookup means the
/// two figures match.
enum LookupCases {
    /// The registration counts the two cases hold.
    static let sizes = [(CaseName.lookup10, 10), (CaseName.lookup10000, 10_000)]

    /// The lookup benchmarks for the subjects that have a table to look in (and `direct`,
    /// the floor the ratios are taken against).
    ///
    /// - Parameter options: Unused; the sizes are fixed by the case names.
    /// - Returns: Two cases × five subjects.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        sizes.flatMap { caseName, registrations -> [Benchmark] in
            let fillers = registrations - 1
            func benchmark<Source: ServiceSource>(_ subject: String, _ makeSource: @escaping () -> Source) -> Benchmark {
                Benchmark(
                    caseName: caseName, subject: subject, workload: .calls { ResolveCases.singleton(makeSource()) },
                    source: makeSource)
            }
            return [
                benchmark(SubjectName.direct) { DirectSource() },
                benchmark(SubjectName.registry) {
                    RegistrySource(registry: RegistrySubject.makeLookupRegistry(fillers: fillers))
                },
                benchmark(SubjectName.urlBlock) { URLBlockSource(router: makeLookupRouter(fillers: fillers)) },
                benchmark(SubjectName.naiveDictionary) {
                    NaiveSource(container: NaiveSubject.makeLookupContainer(fillers: fillers))
                },
                benchmark(SubjectName.frozenTable) {
                    FrozenTableSource(table: FrozenTableSubject.makeLookupTable(fillers: fillers))
                },
            ]
        }
    }

    /// A router with the shared-service component and `fillers` one-URL components.
    ///
    /// - Parameter fillers: How many filler components to launch.
    /// - Returns: The launched router.
    static func makeLookupRouter(fillers: Int) -> URLBlockRouter {
        URLBlockRouter(
            launching: URLBlockComponents.fillerComponents(count: fillers)
                + [{ URLBlockComponents.SharedComponent(registrar: &$0) }])
    }
}
