// The interfaces module of the app in MainActorApp, built without default isolation, as
// Docs/Concurrency.md ("Default main-actor isolation") advises: its protocols' requirements
// stay nonisolated, so factories, route handlers and background code may call them.
public protocol ReviewService: Sendable {
    func reviews(ofBookWithID id: Int) -> [String]
}
