import ServiceRegistry

/// `injected`: reading an `@Injected` property whose service is resolved already, as an
/// object that declares one does each time it uses it; `direct` reads a `let` property that
/// holds the same kind of instance. Not one of the cases.
enum InjectedCases {
    /// The `@Injected` benchmarks: the registry, and `direct` as the floor.
    ///
    /// - Parameter options: Unused.
    /// - Returns: One case × two subjects; the baselines have no property wrapper.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        [
            Benchmark(caseName: CaseName.injected, subject: SubjectName.direct, workload: .calls {
                reads(DirectHolder())
            }),
            Benchmark(caseName: CaseName.injected, subject: SubjectName.registry, workload: .calls {
                reads(InjectedHolder(registry: RegistrySubject.makeRegistry()))
            }),
        ]
    }

    /// Reads the holder's service once per operation; generic, so each loop is specialized
    /// for its holder and the read inside it is direct.
    static func reads<Holder: SharedServiceHolder>(_ holder: Holder) -> Workload.Body {
        { operations in
            for _ in 0..<operations { blackHole(holder.service) }
            return holder
        }
    }
}

/// An object that uses the shared service through a property.
protocol SharedServiceHolder {
    /// The shared service.
    var service: any SharedService { get }
}

/// `direct`: the service in a `let` property.
final class DirectHolder: SharedServiceHolder {
    let service: any SharedService = SharedServiceImpl(serial: 0)
}

/// `registry`: the service in an `@Injected` property, resolved on first read.
final class InjectedHolder: SharedServiceHolder {
    @Injected var service: any SharedService

    /// - Parameter registry: A registry from ``RegistrySubject/makeRegistry()``.
    init(registry: ServiceRegistry) {
        _service = Injected(registry: registry)
    }
}
