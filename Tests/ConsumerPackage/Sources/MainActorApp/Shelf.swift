// Docs/Concurrency.md, "Default main-actor isolation": the section's code, in a target built
// as a new Xcode 26 app target is (default main-actor isolation and Approachable
// Concurrency; see the manifest), where it must compile without a warning. Documentation-
// ExamplesTests' ConcurrencyExamples checks that this target has every line of the
// section's blocks.
import MainActorAppInterfaces
import ServiceRegistry

nonisolated let appRegistry = ServiceRegistry()

nonisolated protocol TitleFormatter {
    func format(_ title: String) -> String
}

struct CachedReviews: ReviewService {   // conforms to a Sendable protocol: nonisolated already
    let cache: [Int: [String]]
    init() { cache = [42: ["Loved it"]] }
    func reviews(ofBookWithID id: Int) -> [String] { cache[id] ?? [] }
}

nonisolated struct UppercaseFormatter: TitleFormatter {
    func format(_ title: String) -> String { title.uppercased() }
}

struct ShelfAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(ReviewService.self, name: "cached") { _ in CachedReviews() }
        registry.register(TitleFormatter.self) { _ in UppercaseFormatter() }
    }
}

final class BookTitleViewModel {   // on the main actor, as every type here by default
    @Injected(registry: appRegistry) var formatter: any TitleFormatter
    var title = ""

    func show(_ book: String) { title = formatter.format(book) }
}

/// The app's launch, on the main actor.
func launch() {
    appRegistry.install(ShelfAssembly())   // main-actor code: the app's launch
}
