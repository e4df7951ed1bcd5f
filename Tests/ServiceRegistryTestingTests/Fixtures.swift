import Foundation
import ServiceRegistry
import Synchronization

/// A service the tests override: says which implementation answered.
protocol Greeter: Sendable {
    var greeting: String { get }
}

/// A second service, so a test can tell which trait supplied which service.
protocol Farewell: Sendable {
    var farewell: String { get }
}

/// Depends on ``Greeter``; shows an override reaching a service built from the real factory.
protocol WelcomeScreen: Sendable {
    var title: String { get }
}

struct FixedGreeter: Greeter {
    let greeting: String
    init(_ greeting: String) { self.greeting = greeting }
}

struct FixedFarewell: Farewell {
    let farewell: String
    init(_ farewell: String) { self.farewell = farewell }
}

struct GreetingWelcomeScreen: WelcomeScreen {
    let greeter: any Greeter
    var title: String { "Welcome: \(greeter.greeting)" }
}

/// A class, so tests can compare identities of shared instances.
final class CountedGreeter: Greeter {
    let greeting: String
    init(_ greeting: String) { self.greeting = greeting }
}

/// Registries the trait tests name in their attributes; built once, never changed by a test.
enum TestRegistries {
    /// The real wiring: a real greeter, and a screen that depends on it.
    static let app: ServiceRegistry = {
        let registry = ServiceRegistry()
        registry.register(Greeter.self) { _ in FixedGreeter("real") }
        registry.register(WelcomeScreen.self) { r in GreetingWelcomeScreen(greeter: try r.resolve(Greeter.self)) }
        return registry
    }()

    /// A child of ``app`` with nothing of its own: resolves through it reach `app`.
    static let appChild: ServiceRegistry = app.makeChild()
}

/// Counts calls across threads.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .relaxed) }

    @discardableResult
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

/// Collects values across threads, in the order they arrive.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched while holding `lock`. An NSLock rather than a
    // `Mutex`, because the thread sanitizer sees its hand-offs on Linux.
    private let lock = NSLock()
    private var values: [Value] = []

    var all: [Value] {
        lock.withLock { values }
    }

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }
}
