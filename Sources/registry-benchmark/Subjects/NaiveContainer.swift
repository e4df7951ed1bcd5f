import Synchronization

/// The obvious Swift container: `[ObjectIdentifier: () -> Any]` behind a lock.
///
/// The lock guards the dictionary only; factories run outside it so that a factory can
/// resolve its own dependencies (holding a non-reentrant lock across the call would
/// deadlock on the first chain). Every resolve takes the lock, calls a closure returning
/// `Any`, and casts that `Any` to the requested type, existential or not: the costs the
/// issue names. Names and arguments get a table each, keyed the same obvious way.
final class NaiveContainer: Sendable {
    /// A resolve that found nothing usable.
    struct Failure: Error, CustomStringConvertible {
        /// The requested type, formatted only now that the error is being built.
        let requested: String
        /// What went wrong.
        let problem: String

        var description: String { "naive-dictionary: \(problem) for \(requested)" }
    }

    private struct NamedKey: Hashable {
        let type: ObjectIdentifier
        let name: String
    }

    private struct Tables {
        var factories: [ObjectIdentifier: @Sendable () throws -> Any] = [:]
        var named: [NamedKey: @Sendable () throws -> Any] = [:]
        var withArgument: [ObjectIdentifier: @Sendable (Any) throws -> Any] = [:]
    }

    private let tables = Mutex(Tables())

    /// Creates an empty container.
    init() {}

    /// Registers a factory run on every resolve (or, with `name`, on every named resolve).
    ///
    /// - Parameters:
    ///   - type: The type callers resolve.
    ///   - name: An optional name telling several registrations of one type apart.
    ///   - factory: Builds an instance.
    func register<Service>(_ type: Service.Type, name: String? = nil, factory: @escaping @Sendable () throws -> Service) {
        tables.withLock { tables in
            if let name {
                tables.named[NamedKey(type: ObjectIdentifier(type), name: name)] = factory
            } else {
                tables.factories[ObjectIdentifier(type)] = factory
            }
        }
    }

    /// Registers a factory whose first result is kept and returned from then on.
    ///
    /// - Parameters:
    ///   - type: The type callers resolve.
    ///   - name: An optional name telling several registrations of one type apart.
    ///   - factory: Builds the one instance, on first resolve.
    func registerSingleton<Service: Sendable>(
        _ type: Service.Type, name: String? = nil, factory: @escaping @Sendable () -> Service
    ) {
        let cell = LazyCell(factory)
        register(type, name: name) { cell.value }
    }

    /// Registers a factory taking one argument.
    ///
    /// - Parameters:
    ///   - type: The type callers resolve.
    ///   - factory: Builds an instance from the argument.
    func register<Service, Argument>(
        _ type: Service.Type, factory: @escaping @Sendable (Argument) throws -> Service
    ) {
        tables.withLock { tables in
            tables.withArgument[ObjectIdentifier(type)] = { argument in
                guard let argument = argument as? Argument else {
                    throw Failure(requested: "\(Service.self)", problem: "argument is not \(Argument.self)")
                }
                return try factory(argument)
            }
        }
    }

    /// Builds or fetches an instance.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The name it was registered under, if any.
    /// - Returns: The instance.
    /// - Throws: ``Failure`` when nothing is registered or the factory's result has another type.
    func resolve<Service>(_ type: Service.Type, name: String? = nil) throws -> Service {
        let factory = tables.withLock { tables in
            name.map { tables.named[NamedKey(type: ObjectIdentifier(type), name: $0)] }
                ?? tables.factories[ObjectIdentifier(type)]
        }
        guard let factory else { throw Failure(requested: "\(Service.self)", problem: "nothing registered") }
        return try cast(try factory(), to: type)
    }

    /// Builds an instance from an argument.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - argument: Passed to the factory as `Any`.
    /// - Returns: The instance.
    /// - Throws: ``Failure`` when nothing is registered or a type does not match.
    func resolve<Service, Argument>(_ type: Service.Type, argument: Argument) throws -> Service {
        let factory = tables.withLock { $0.withArgument[ObjectIdentifier(type)] }
        guard let factory else { throw Failure(requested: "\(Service.self)", problem: "nothing registered") }
        return try cast(try factory(argument), to: type)
    }

    private func cast<Service>(_ instance: Any, to type: Service.Type) throws -> Service {
        guard let service = instance as? Service else {
            throw Failure(requested: "\(Service.self)", problem: "factory returned \(Swift.type(of: instance))")
        }
        return service
    }
}

/// A value built on first read, under its own lock, then shared: how the naive container
/// keeps singletons.
private final class LazyCell<Value: Sendable>: Sendable {
    private let state: Mutex<Value?> = Mutex(nil)
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    var value: Value {
        state.withLock { state in
            if let value = state { return value }
            let value = make()
            state = value
            return value
        }
    }
}
