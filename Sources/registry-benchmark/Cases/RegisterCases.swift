import ServiceRegistry

/// `register`: one registration per operation into a fresh container every
/// ``registrationsPerContainer`` operations, so the table's growth is part of the cost.
/// Reports time and the heap bytes each registration keeps.
///
/// Every registration is of one concrete service type under a name of its own, with a
/// factory that captures nothing, as an app's `register(Service.self) { _ in Impl() }`
/// is. The names are built before timing and are short enough (≤ 15 bytes) to be stored
/// inline, so they cost no heap; they add the hashing of a short string. (Registering
/// thousands of distinct *types* would need generic code, whose closures capture their
/// type's metadata: an allocation per registration no app makes. The start-up cases use
/// distinct types and say so.) `url-block` registers pre-built URL strings, as an app's
/// literal URLs cost no allocation either.
enum RegisterCases {
    /// How many registrations go into one container before the next is started: the size
    /// of a large app's registry.
    static let registrationsPerContainer = 1_000

    /// The names the registrations use, one per registration in a container.
    static let names = (0..<registrationsPerContainer).map { "service\($0)" }

    /// The registration benchmarks for the subjects that register anything.
    ///
    /// - Parameter options: Unused.
    /// - Returns: One case × three subjects.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        [
            Benchmark(caseName: CaseName.register, subject: SubjectName.registry, workload: .holdings {
                let names = names
                return { operations in
                    inContainers(operations, make: ServiceRegistry.init) { registry, count in
                        for name in names[..<count] {
                            registry.register(TrivialService.self, name: name) { _ in TrivialServiceImpl() }
                        }
                    }
                }
            }),
            Benchmark(caseName: CaseName.register, subject: SubjectName.urlBlock, workload: .holdings {
                let urls = (0..<registrationsPerContainer).map(URLBlockComponents.URL.filler)
                return { operations in
                    inContainers(operations, make: { URLBlockRouter.Registrar() }) { registrar, count in
                        for url in urls[..<count] { registrar.register(url) { _, _ in TrivialServiceImpl() } }
                    }
                }
            }),
            Benchmark(caseName: CaseName.register, subject: SubjectName.naiveDictionary, workload: .holdings {
                let names = names
                return { operations in
                    inContainers(operations, make: NaiveContainer.init) { container, count in
                        for name in names[..<count] {
                            container.register(TrivialService.self, name: name) { TrivialServiceImpl() }
                        }
                    }
                }
            }),
        ]
    }

    /// Splits `operations` registrations over fresh containers and returns them all, so
    /// the heap they hold can be read before they go.
    private static func inContainers<Container>(
        _ operations: Int, make: () -> Container, fill: (inout Container, Int) -> Void
    ) -> [Container] {
        var containers: [Container] = []
        containers.reserveCapacity(operations / registrationsPerContainer + 1)
        var remaining = operations
        while remaining > 0 {
            let count = min(remaining, registrationsPerContainer)
            var container = make()
            fill(&container, count)
            containers.append(container)
            remaining -= count
        }
        return containers
    }
}
