#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ServiceRegistry

// A consumer's own protocol and implementation, wired through the registry.
protocol Greeting: Sendable {
    func greet(_ name: String) -> String
}

struct PoliteGreeting: Greeting {
    let punctuation: String
    func greet(_ name: String) -> String { "Hello, \(name)\(punctuation)" }
}

struct GreetingAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(String.self, name: "punctuation") { _ in "!" }
        registry.register(Greeting.self, scope: .singleton) { r in
            PoliteGreeting(punctuation: try r.resolve(String.self, name: "punctuation"))
        }
    }
}

let registry = ServiceRegistry()
registry.install(GreetingAssembly())
do {
    try registry.validate()
    let greeting = try registry.resolve(Greeting.self)
    print(greeting.greet("ServiceRegistry"))
} catch {
    print("ConsumerPackage could not use ServiceRegistry:\n\(error)")
    exit(1)
}
