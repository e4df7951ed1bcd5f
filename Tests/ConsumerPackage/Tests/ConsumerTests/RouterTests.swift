// The ServiceRouter product from a consumer's package: a route opens onto a service
// resolved from the consumer's registry, and only when a URL is opened.
import ServiceRegistry
import ServiceRouter
import Testing

protocol ProfileScreen: Sendable {
    func render() -> String
}

struct Profile: ProfileScreen {
    let userID: Int
    func render() -> String { "Profile \(userID)" }
}

@Test func aRouteOpensOntoARegisteredService() throws {
    let registry = ServiceRegistry()
    registry.register(ProfileScreen.self) { (_, userID: Int) in Profile(userID: userID) }
    let router = ServiceRouter(registry: registry)
    try router.register("consumer://profile/:id(int)", argument: { try $0.parameters.int("id") }) {
        (screen: any ProfileScreen, _) in screen.render()
    }
    #expect(try router.open("consumer://profile/7", as: String.self) == "Profile 7")
    #expect(!router.canOpen("consumer://profile/seven"))
}
