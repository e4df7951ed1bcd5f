import ServiceRegistry
import Synchronization
import Testing
import ThreadTestSupport

// Fixtures are private to this file so they never clash with other test files' types.

private protocol Shelf: AnyObject, Sendable {
    var label: String { get }
}

private final class LabelledShelf: Shelf {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class BuildCount: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func record() { value.wrappingAdd(1, ordering: .relaxed) }
}

/// Reads its shelf from `ServiceRegistry.shared`, the way app code declares it.
private final class SharedShelfReader {
    @Injected var shelf: any Shelf
}

/// Reads a named shelf from `ServiceRegistry.shared`.
private final class NamedSharedShelfReader {
    @Injected(name: "archive") var shelf: any Shelf
}

/// Reads from a registry it is given, optionally by name.
private final class ShelfReader {
    @Injected var shelf: any Shelf

    init(registry: ServiceRegistry, name: String? = nil) {
        _shelf = Injected(registry: registry, name: name)
    }
}

/// Declares a property whose service nothing registers, on the line it records.
private final class UnwiredShelfReader {
    static let declarationLine: UInt = #line + 1
    @Injected(registry: ServiceRegistry(), name: "missing") var shelf: any Shelf
}

/// A registry whose transient shelf factory counts its runs.
private func makeRegistry(counting builds: BuildCount) -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(Shelf.self) { _ in
        builds.record()
        return LabelledShelf("real")
    }
    registry.register(Shelf.self, name: "archive") { _ in LabelledShelf("real archive") }
    return registry
}

@Suite("@Injected")
struct InjectedTests {
    @Test func resolvesFromTheSharedRegistryOnFirstAccess() throws {
        let builds = BuildCount()
        // Inside a scope, so this test never changes `shared` for tests running beside it.
        ServiceRegistry.shared.withOverrides {
            $0.register(Shelf.self) { _ in
                builds.record()
                return LabelledShelf("from shared")
            }
        } operation: {
            let reader = SharedShelfReader()
            #expect(builds.count == 0)
            #expect(reader.shelf.label == "from shared")
            #expect(builds.count == 1)
        }
    }

    @Test func resolvesANamedServiceFromTheSharedRegistry() {
        ServiceRegistry.shared.withOverrides {
            $0.register(Shelf.self) { _ in LabelledShelf("unnamed") }
            $0.register(Shelf.self, name: "archive") { _ in LabelledShelf("archive") }
        } operation: {
            #expect(NamedSharedShelfReader().shelf.label == "archive")
        }
    }

    @Test func resolvesFromTheRegistryAndNameItIsGiven() {
        let builds = BuildCount()
        let registry = makeRegistry(counting: builds)
        #expect(ShelfReader(registry: registry).shelf.label == "real")
        #expect(ShelfReader(registry: registry, name: "archive").shelf.label == "real archive")
    }

    @Test func buildsNothingUntilFirstAccess() {
        let builds = BuildCount()
        let registry = makeRegistry(counting: builds)
        let reader = ShelfReader(registry: registry)
        #expect(builds.count == 0)
        _ = reader.shelf
        #expect(builds.count == 1)
    }

    @Test func keepsWhatItResolved() {
        let builds = BuildCount()
        let registry = makeRegistry(counting: builds)
        let reader = ShelfReader(registry: registry)
        let first = reader.shelf
        // The registration is transient, so only keeping the first answer explains one build.
        for _ in 0..<5 {
            #expect(reader.shelf === first)
        }
        #expect(builds.count == 1)
        // Another property resolves for itself.
        #expect(ShelfReader(registry: registry).shelf !== first)
        #expect(builds.count == 2)
    }

    /// Every read of the property copies the wrapper out of the object that declares it, in
    /// the app's code: one reference to retain and release, not five fields, keeps each
    /// read small (the storage's comment in `Injected` says why).
    @Test func anInjectedPropertyIsOneReferenceWide() {
        #expect(MemoryLayout<Injected<any Shelf>>.size == MemoryLayout<AnyObject>.size)
    }

    @Test func honoursTheScopeActiveAtFirstAccess() {
        let registry = makeRegistry(counting: BuildCount())
        let reader = ShelfReader(registry: registry)
        registry.withOverrides {
            $0.register(Shelf.self) { _ in LabelledShelf("mock") }
        } operation: {
            #expect(reader.shelf.label == "mock")
        }
        // Kept after the scope, like anything else the scope handed out.
        #expect(reader.shelf.label == "mock")
    }

    @Test func readsTheScopeAtFirstAccessNotAtInit() {
        let registry = makeRegistry(counting: BuildCount())
        let reader = registry.withOverrides {
            $0.register(Shelf.self) { _ in LabelledShelf("mock") }
        } operation: {
            ShelfReader(registry: registry)
        }
        #expect(reader.shelf.label == "real")
    }

    @Test func concurrentTasksWithTheirOwnScopesEachGetTheirOwnService() async {
        let registry = makeRegistry(counting: BuildCount())
        let labels = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<32 {
                group.addTask {
                    await registry.withOverrides {
                        $0.register(Shelf.self) { _ in LabelledShelf("mock \(index)") }
                    } operation: {
                        let reader = ShelfReader(registry: registry)
                        await Task.yield()
                        return (index, reader.shelf.label)
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(labels.count == 32)
        #expect(labels.allSatisfy { $0.value == "mock \($0.key)" })
    }

    @Test func concurrentFirstAccessesAllGetTheSameInstance() async {
        let registry = makeRegistry(counting: BuildCount())
        for _ in 0..<20 {
            // The wrapper itself is Sendable when its service is, so tasks can share it.
            let shelf = Injected<any Shelf>(registry: registry)
            let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<16 {
                    group.addTask { ObjectIdentifier(shelf.wrappedValue) }
                }
                return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(identities == [ObjectIdentifier(shelf.wrappedValue)])
        }
    }

    /// The first resolve to finish is kept, not the first to start: a first access that
    /// finishes while an earlier one is still building gets what the later one kept, as
    /// every later read does. Deterministic: the earlier build waits for the other thread.
    @Test func aFirstAccessFinishingSecondGetsWhatTheOneFinishingFirstKept() {
        let builds = BuildCount()
        let registry = ServiceRegistry()
        let shelf = Injected<any Shelf>(registry: registry)
        let readElsewhere = Guarded<String?>(nil)
        registry.register(Shelf.self) { _ in
            builds.record()
            let build = builds.count
            if build == 1 {
                let finished = onThreads(1) { _ in
                    let label = shelf.wrappedValue.label
                    readElsewhere.withLock { $0 = label }
                }
                #expect(finished)
            }
            return LabelledShelf("build \(build)")
        }
        #expect(shelf.wrappedValue.label == "build 2")
        #expect(readElsewhere.withLock { $0 } == "build 2")
        #expect(shelf.wrappedValue.label == "build 2")
        #expect(builds.count == 2)
    }

    @Test func stopsTheProgramWithTheFullErrorWhenItCannotResolve() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let reader = ShelfReader(registry: ServiceRegistry(), name: "missing")
            _ = reader.shelf
        }
        guard let result else { return }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains("@Injected ServiceRegistry could not resolve `Shelf (name: \"missing\")`"))
        #expect(output.contains("Resolution path: Shelf (name: \"missing\")"))
        #expect(output.contains("Fix: register `Shelf`"))
    }

    /// A getter cannot throw, so the program stops; it stops where the property is
    /// declared, not inside this library, so the crash names the property that lacks its
    /// service among the many that may resolve the same type.
    @Test func stopsTheProgramAtThePropertysDeclaration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = UnwiredShelfReader().shelf
        }
        guard let result else { return }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        let declaration = "ServiceRegistryTests/InjectedTests.swift:\(UnwiredShelfReader.declarationLine)"
        #expect(output.contains("\(declaration): Fatal error: @Injected ServiceRegistry could not resolve"))
    }

    /// The usual fix, "register it or override it in the test", does not say where: a test
    /// that overrides its app's registry while the property reads `ServiceRegistry.shared`
    /// needs to be told which registry the property asked.
    @Test(arguments: [true, false])
    func saysWhichRegistryThePropertyResolvesFromWhenItStops(fromShared: Bool) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [fromShared] in
            if fromShared {
                _ = NamedSharedShelfReader().shelf  // nothing is registered on `shared` here
            } else {
                _ = UnwiredShelfReader().shelf
            }
        }
        guard let result else { return }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        let registry = fromShared ? "ServiceRegistry.shared" : "the registry given to @Injected(registry:)"
        #expect(output.contains("Fix: register `Shelf`"))
        #expect(output.contains("The property resolves from \(registry)."))
    }

    /// As Testing.md says: validation cannot turn what an `@Injected` property meets into a
    /// failure it lists. A getter cannot throw, so a property read in a factory that
    /// validation runs stops the program there too, with the property's message.
    @Test func validationRunningAFactoryThatReadsAnInjectedPropertyOfAMissingServiceStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let registry = ServiceRegistry()
            registry.register(Shelf.self) { [registry] _ in
                LabelledShelf("beside " + ShelfReader(registry: registry, name: "missing").shelf.label)
            }
            _ = try? registry.validate()
        }
        guard let result else { return }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains("@Injected ServiceRegistry could not resolve `Shelf (name: \"missing\")`"))
    }

    @Test func aFactoryReadingItsOwnServiceThroughInjectedStopsWithTheCycleNotAStackOverflow() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let registry = ServiceRegistry()
            registry.register(Shelf.self) { [registry] _ in
                LabelledShelf("copy of " + ShelfReader(registry: registry).shelf.label)
            }
            _ = try? registry.resolve(Shelf.self)
        }
        guard let result else { return }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains("@Injected ServiceRegistry could not resolve `Shelf`: it depends on itself"))
        #expect(output.contains("Resolution path: Shelf → Shelf"))
    }
}
