// Docs/GettingStarted.md, step 3, as its own module (see Sources/Interfaces).

// Module Reviews
import ServiceRegistry
import Interfaces

struct InMemoryReviews: ReviewService {
    func reviews(ofBookWithID id: Int) -> [String] {
        id == 42 ? ["Don't panic.", "Mostly harmless."] : []
    }
}

public struct ReviewAssembly: ServiceAssembly {
    public init() {}
    public func assemble(into registry: ServiceRegistry) {
        registry.register(ReviewService.self, scope: .singleton) { _ in InMemoryReviews() }
    }
}
