import ServiceRegistry
import ServiceRouter
import Synchronization
import Testing

/// A service the test routes run against.
protocol Greeter: Sendable {
    func greet(_ name: String) -> String
}

struct PoliteGreeter: Greeter {
    func greet(_ name: String) -> String { "Hello, \(name)" }
}

/// A service registered with a resolve-time argument.
protocol Profile: Sendable {
    var userID: Int { get }
}

struct UserProfile: Profile {
    let userID: Int
}

/// Counts how often a factory ran, to prove what registration and `canOpen` do not build.
final class BuildCounter: Sendable {
    private let count = Atomic(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// An error as many apps write them: an enum without a description.
enum ShareFailure: Error {
    case linkExpired
}

struct ExampleFailure: Error, CustomStringConvertible {
    var description: String { "example failure" }
}

/// A registry with a `Greeter` whose builds are counted, and a `Profile` taking an `Int`.
func makeRegistry(counter: BuildCounter = BuildCounter()) -> ServiceRegistry {
    let registry = ServiceRegistry()
    registry.register(Greeter.self) { _ in
        counter.increment()
        return PoliteGreeter()
    }
    registry.register(Profile.self) { (_, userID: Int) in UserProfile(userID: userID) }
    return registry
}

/// A router whose routes echo their pattern, for precedence and matching tests.
func makeEchoRouter(_ patterns: [String], configuration: ServiceRouter.Configuration = .init()) throws -> ServiceRouter {
    let router = ServiceRouter(registry: makeRegistry(), configuration: configuration)
    for pattern in patterns {
        try router.register(pattern) { (_: any Greeter, request) in request.pattern ?? "" }
    }
    return router
}

/// The reason of the `RouteError` thrown by `body`, or `nil` when it does not throw.
func routeErrorReason<T>(_ body: () throws(RouteError) -> T) -> RouteError.Reason? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.reason
    }
}

/// The case name of a reason, for comparing reasons whose payloads are not `Equatable`.
func caseName(_ reason: RouteError.Reason?) -> String {
    guard let reason else { return "none" }
    let text = String(describing: reason)
    return String(text.prefix { $0 != "(" })
}
