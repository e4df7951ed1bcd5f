import ServiceRegistry

/// `startup-N`: installing N components, the seed's own complaint. One operation is one
/// component, one sample is a whole launch; the held-bytes figure is what each component
/// leaves in memory afterwards, and the instance count says what launch built.
///
/// - `registry`: each component is an assembly registering one lazy factory of its own
///   type, installed with ``ServiceRegistry/install(_:)``; nothing is built.
/// - `url-block`: each component's `init` runs and registers one URL whose closure
///   captures it; every component is built.
///
/// Besides the warm figures (median of repeated launches), the first launch in the process
/// is reported on its own, since an app launches once: it includes one-time work such as
/// the runtime instantiating each service type's generic registration metadata. Each
/// start-up case therefore uses a range of generated types no other case has registered.
/// Registering generated types goes through generic code, so each factory closure
/// captures its type's metadata: one 24-byte allocation per component that an app
/// registering concrete types does not make.
enum StartupCases {
    /// The first generated key the start-up cases use; the lookup and register cases stay below it.
    static let firstKey = 10_000

    /// A start-up case asked for more components than there are generated types left.
    struct TooManyComponents: Error, CustomStringConvertible {
        let components: Int
        var description: String {
            "startup: \(components) components need more than the \(GeneratedKeys.capacity) generated types; use fewer"
        }
    }

    /// One start-up case per component count in the options, registry against url-block.
    ///
    /// - Parameter options: Supplies ``BenchmarkOptions/startupComponentCounts``.
    /// - Returns: Two subjects per component count.
    static func benchmarks(_ options: BenchmarkOptions) -> [Benchmark] {
        var nextKey = firstKey
        return options.startupComponentCounts.flatMap { components -> [Benchmark] in
            let keys = nextKey..<(nextKey + components)
            nextKey = keys.upperBound
            let caseName = CaseName.startup(components: components)
            return [
                Benchmark(caseName: caseName, subject: SubjectName.registry, workload: .holdings(
                    operations: components, instancesBuilt: { GeneratedKeys.instancesBuilt }, measuresFirstRun: true
                ) {
                    guard keys.upperBound <= GeneratedKeys.capacity else { throw TooManyComponents(components: components) }
                    let assemblies = GeneratedKeys.types[keys].map(ComponentAssembly.init(keyType:))
                    return { _ in launchRegistry(assemblies) }
                }),
                Benchmark(caseName: caseName, subject: SubjectName.urlBlock, workload: .holdings(
                    operations: components, instancesBuilt: { URLBlockComponents.fillerComponentsInitialised },
                    measuresFirstRun: true
                ) {
                    let launchers = URLBlockComponents.fillerComponents(count: components)
                    return { _ in URLBlockRouter(launching: launchers) }
                }),
            ]
        }
    }

    /// A fresh registry with every assembly installed.
    ///
    /// - Parameter assemblies: One per component.
    /// - Returns: The registry, holding one lazy registration per component.
    static func launchRegistry(_ assemblies: [ComponentAssembly]) -> ServiceRegistry {
        let registry = ServiceRegistry()
        for assembly in assemblies { registry.install(assembly) }
        return registry
    }
}
