// MainActorApp's code at work, in a test target built with the same settings (default
// main-actor isolation, Approachable Concurrency): each test is on the main actor unless
// it says otherwise, as in an Xcode 26 app's test target.
import Foundation
@testable import MainActorApp
import MainActorAppInterfaces
import ServiceRegistry
import ServiceRegistryTesting
import ServiceRouter
import Testing

nonisolated struct BracketFormatter: TitleFormatter {
    func format(_ title: String) -> String { "[\(title)]" }
}

/// The thread the caller runs on. (Compared by identity: under `swift test` on Linux the
/// main actor's jobs need not run on the process's main thread.)
nonisolated func currentThread() -> UInt {
    UInt(bitPattern: Int(bitPattern: pthread_self()))
}

/// A `nonisolated` async function: under `NonisolatedNonsendingByDefault` it runs on its
/// caller's actor, but the operation of the `withOverrides` it calls runs on no actor.
nonisolated func threadsOfANonisolatedCaller() async throws -> (function: UInt, operation: UInt, title: String) {
    let function = currentThread()
    let (operation, title) = try await appRegistry.withOverrides {
        $0.register(TitleFormatter.self) { _ in BracketFormatter() }
    } operation: {
        await Task.yield()
        return (currentThread(), try appRegistry.resolve(TitleFormatter.self).format("dune"))
    }
    return (function, operation, title)
}

/// Main-actor state, as a screen's.
final class Navigator {
    var stack: [String] = []
}

@Suite(.serialized) struct MainActorAppTests {
    init() {
        if !appRegistry.isRegistered(TitleFormatter.self) { launch() }
    }

    @Test func servicesResolveOnTheMainActorAndOffIt() async throws {
        let model = BookTitleViewModel()
        model.show("dune")
        #expect(model.title == "DUNE")
        // The registry is a `nonisolated let`, so a task off the main actor reaches it, and
        // a nonisolated protocol's requirements are called there without `await`.
        let fromBackground = try await Task.detached {
            try appRegistry.resolve(ReviewService.self, name: "cached").reviews(ofBookWithID: 42)
        }.value
        #expect(fromBackground == ["Loved it"])
        #expect(try appRegistry.validate().notChecked.isEmpty)
    }

    @Test(.overriding(appRegistry) { $0.register(TitleFormatter.self) { _ in BracketFormatter() } })
    func theTraitOverridesForAMainActorTest() {
        let model = BookTitleViewModel()
        model.show("dune")
        #expect(model.title == "[dune]")
    }

    @Test func anAsyncScopeRunsItsOperationOnTheMainActor() async throws {
        let navigator = Navigator()
        try await appRegistry.withOverrides {
            $0.register(TitleFormatter.self) { _ in BracketFormatter() }
        } operation: {
            await Task.yield()
            // Main-actor state, without `await`: the operation runs on the caller's actor.
            navigator.stack.append(try appRegistry.resolve(TitleFormatter.self).format("dune"))
        }
        #expect(navigator.stack == ["[dune]"])
    }

    @Test func aNonisolatedFunctionsScopeRunsItsOperationOnNoActor() async throws {
        let mainActorThread = currentThread()
        let threads = try await threadsOfANonisolatedCaller()
        #expect(threads.function == mainActorThread)
        #expect(threads.operation != mainActorThread)
        #expect(threads.title == "[dune]")
    }

    @Test func aRouteHandlerOpenedOnTheMainActorMayAssumeIt() throws {
        let router = ServiceRouter(registry: appRegistry)
        let navigator = Navigator()
        try router.register("shelf://book/:title") { (formatter: any TitleFormatter, request) in
            let title = formatter.format(try request.parameters.string("title"))
            MainActor.assumeIsolated { navigator.stack.append(title) }
        }
        try router.open("shelf://book/dune")
        #expect(navigator.stack == ["DUNE"])
    }
}
