/// `singleton`, `transient`, `chain3`, `named`, `argument` and `graph`: one resolve per
/// operation, for every subject.
enum ResolveCases {
    /// The resolve benchmarks, case by case, each case with every subject.
    ///
    /// - Parameter options: Unused; resolve cases need no sizing.
    /// - Returns: Six cases × seven subjects.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        let bySubject = [
            cases(SubjectName.direct) { DirectSource() },
            cases(SubjectName.directOwned) { DirectOwnedSource() },
            cases(SubjectName.registry) { RegistrySource(registry: RegistrySubject.makeRegistry()) },
            cases(SubjectName.urlBlock) {
                URLBlockSource(router: URLBlockRouter(launching: URLBlockComponents.serviceComponents))
            },
            cases(SubjectName.mediator) { MediatorSource(mediator: .shared) },
            cases(SubjectName.naiveDictionary) { NaiveSource(container: NaiveSubject.makeContainer()) },
            cases(SubjectName.frozenTable) { FrozenTableSource(table: FrozenTableSubject.makeTable()) },
        ]
        // Case-major order, so the run and the table read case by case.
        return bySubject[0].indices.flatMap { index in bySubject.map { $0[index] } }
    }

    /// The six resolve cases for one subject, each running its body on a source from
    /// `makeSource`.
    static func cases<Source: ServiceSource>(
        _ subject: String, _ makeSource: @escaping () throws -> Source
    ) -> [Benchmark] {
        func benchmark(_ caseName: String, _ body: @escaping (Source) -> Workload.Body) -> Benchmark {
            Benchmark(
                caseName: caseName, subject: subject, workload: .calls { body(try makeSource()) },
                source: makeSource)
        }
        return [
            benchmark(CaseName.singleton, singleton), benchmark(CaseName.transient, transient),
            benchmark(CaseName.chain3, chain3), benchmark(CaseName.named, named),
            benchmark(CaseName.argument, argument), benchmark(CaseName.graph, graph),
        ]
    }

    // One function per case, generic over the source, so each loop is specialised for its
    // subject and the call inside it is direct.

    static func singleton<Source: ServiceSource>(_ source: Source) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(try source.sharedService()) }
            return nil
        }
    }

    static func transient<Source: ServiceSource>(_ source: Source) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(try source.trivialService()) }
            return nil
        }
    }

    static func chain3<Source: ServiceSource>(_ source: Source) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(try source.chainHead()) }
            return nil
        }
    }

    static func named<Source: ServiceSource>(_ source: Source) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(try source.secondaryTrivialService()) }
            return nil
        }
    }

    static func argument<Source: ServiceSource>(_ source: Source) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(try source.bookScreen(bookID: BookScreenImpl.sampleBookID)) }
            return nil
        }
    }

    static func graph<Source: ServiceSource>(_ source: Source) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(try source.graphRoot()) }
            return nil
        }
    }
}
