import Foundation
import ServiceRegistry
import Testing
import WeReadBookDetail
import WeReadBookshelf
import WeReadInterfaces
import WeReadReading
import WeReadReview

@testable import weread

/// The composition root's wiring, checked before the app runs.
@Suite struct AppWiringTests {
    @Test func theAppRegistryPassesValidation() throws {
        let report = try WeReadApp.makeRegistry().validate(sampleArguments: WeReadApp.sampleArguments)
        #expect(report.notChecked.isEmpty)
        #expect(report.built.contains("BookDetailService (argument: BookID)"))
    }

    @Test func validationCatchesAMissingComponent() {
        // Everything but the catalog: every component that reads the catalog must fail,
        // the detail screen too, which the sample book id lets validation build.
        let registry = ServiceRegistry()
        registry.install(ReviewAssembly(), BookDetailAssembly(), BookshelfAssembly(), ReadingAssembly())
        let error = #expect(throws: ValidationError.self) {
            try registry.validate(sampleArguments: WeReadApp.sampleArguments)
        }
        #expect(
            error?.failures.map(\.registration).sorted() == [
                "BookDetailService (argument: BookID)", "BookshelfService", "ReadingService", "ReviewService",
            ])
        #expect(error?.failures.allSatisfy { $0.error.reason == .notRegistered } == true)
    }

    @Test func everyInterfaceIsRegisteredByExactlyTheAppsComponents() {
        let registry = WeReadApp.makeRegistry()
        #expect(registry.isRegistered(CatalogService.self))
        #expect(registry.isRegistered(ReviewService.self))
        #expect(registry.isRegistered(BookshelfService.self))
        #expect(registry.isRegistered(ReadingService.self))
        #expect(registry.isRegistered(BookDetailService.self, argumentType: BookID.self))
        #expect(WeReadApp.registrationSummary(of: registry) == (registrations: 5, components: 5))
    }

    /// The launch line's "from N components" counts the assemblies that registered, not the
    /// registrations: in WeRead both are 5, one service per component, so only a component
    /// registering two services tells them apart.
    @Test func theSummaryCountsAComponentWithTwoRegistrationsOnce() {
        struct TwoServices: ServiceAssembly {
            func assemble(into registry: ServiceRegistry) {
                registry.register(CatalogService.self, scope: .singleton) { _ in StubCatalog() }
                registry.register(ReviewService.self) { _ in StubReviews(reviews: [], knownBooks: []) }
            }
        }
        let registry = ServiceRegistry()
        registry.install(TwoServices(), BookshelfAssembly())
        #expect(WeReadApp.registrationSummary(of: registry) == (registrations: 3, components: 2))
    }

    @Test func theDependencyGraphShowsWhoDependsOnWhom() {
        let graph = WeReadApp.makeRegistry().dependencyGraph(sampleArguments: WeReadApp.sampleArguments)
        let edges = Set(graph.edges.map { "\($0.from) -> \($0.to)" })
        #expect(
            edges == [
                "BookDetailService <BookID> -> CatalogService",
                "BookDetailService <BookID> -> ReviewService",
                "ReviewService -> CatalogService",
                "BookshelfService -> CatalogService",
                "ReadingService -> CatalogService",
                "ReadingService -> BookshelfService",
            ])
        let scopes = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.serviceType, $0.scope) })
        #expect(scopes["CatalogService"] == .singleton)
        #expect(scopes["ReadingService"] == .weak)
        #expect(scopes["BookDetailService"] == .transient)
    }

    /// Docs/Scopes.md's table of WeRead's choices ("| `ReadingService` | `.weak` | ..."),
    /// read from the page: each row's service, scope and argument type are the app's.
    @Test func theScopesPagesTableOfWeReadsChoicesIsTheAppsWiring() throws {
        let page = try String(
            contentsOf: ArchitectureTests.packageRoot.appendingPathComponent("Docs/Scopes.md"), encoding: .utf8)
        let lines = page.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("WeRead's choices") })
        let rows = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
            .filter { $0.hasPrefix("| `") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        let documented = rows.map { columns in
            // "`BookDetailService`", "`.transient`, argument `BookID`"
            let words = columns[1].split(separator: "`").filter { !$0.hasPrefix(",") }
            return "\(columns[0].trimmingCharacters(in: ["`"])) \(words.joined(separator: " "))"
        }
        let graph = WeReadApp.makeRegistry().dependencyGraph(sampleArguments: WeReadApp.sampleArguments)
        let wired = graph.nodes.map { node in
            "\(node.serviceType) .\(node.scope.map { "\($0)" } ?? "-")" + (node.argumentType.map { " \($0)" } ?? "")
        }
        #expect(documented.count == 5, "found the table")
        #expect(documented.sorted() == wired.sorted())
    }

    @Test func installingBuildsNothing() throws {
        // Watch the registry while installing: no factory runs, nothing is alive.
        let registry = ServiceRegistry()
        let observer = BuildObserver()
        let watching = observer.watch(registry)
        defer { registry.removeResolutionObserver(watching) }
        WeReadApp.install(into: registry)
        #expect(observer.liveServices.isEmpty)
        #expect(observer.takeEvents().isEmpty)
        // The same observer does see a build once something is resolved.
        _ = try registry.resolve(CatalogService.self)
        #expect(observer.takeEvents() == [.init(service: "CatalogService", isNewInstance: true, depth: 0)])
        #expect(observer.liveServices == ["CatalogService"])
    }
}
