import ServiceRegistry

/// Built by every factory: says which registration built it, from which argument, which
/// build it was (a serial number, unique across a sequence), and what it resolved.
final class ModelProduct: ModelClassBoundService, ModelValueService, CustomStringConvertible {
    let registration: Int
    let argument: Int?
    let serial: Int
    /// The services its factory resolved through its resolver, in order.
    let dependencies: [ModelProduct]

    init(registration: Int, argument: Int?, serial: Int, dependencies: [ModelProduct] = []) {
        self.registration = registration
        self.argument = argument
        self.serial = serial
        self.dependencies = dependencies
    }

    var description: String {
        "serial \(serial) from #\(registration)" + (argument.map { " built with \($0)" } ?? "")
            + (dependencies.isEmpty ? "" : " [\(dependencies.map(\.description).joined(separator: ", "))]")
    }

    /// Resolves `dependencies` through `resolver` (or, where `direct` has one, through
    /// that registry), then makes the product of registration `id`, counting the build.
    static func build(
        registration id: Int, argument: Int?, dependencies: [ModelRequest], direct: [ModelRegistryReference?],
        resolver: borrowing Resolver, builds: Counter
    ) throws -> ModelProduct {
        var resolved: [ModelProduct] = []
        for (dependency, direct) in zip(dependencies, direct) {
            let dependencyProduct: ModelProduct?
            if let direct {
                guard let registry = direct.registry else { throw FactoryError(message: "registry gone") }
                dependencyProduct = try registry.resolve(dependency)
            } else {
                dependencyProduct = try resolver.resolve(dependency)
            }
            guard let product = dependencyProduct else {
                throw FactoryError(message: "\(dependency) resolved something other than a ModelProduct")
            }
            resolved.append(product)
        }
        return ModelProduct(registration: id, argument: argument, serial: builds.increment(), dependencies: resolved)
    }
}

/// A service protocol whose existential holds an object.
protocol ModelClassBoundService: AnyObject, Sendable {}

/// A service protocol that a value could conform to (here always an object does).
protocol ModelValueService: Sendable {}

/// The three service types: a class, a class-bound protocol, and a protocol that is not.
enum ModelServiceType: CaseIterable, CustomStringConvertible {
    case product, classBound, value

    var description: String {
        switch self {
        case .product: "ModelProduct"
        case .classBound: "ModelClassBoundService"
        case .value: "ModelValueService"
        }
    }
}

/// The argument a registration's factory takes: none or an `Int`.
enum ModelArgumentType: CaseIterable, CustomStringConvertible {
    case noArgument, int

    var description: String {
        switch self {
        case .noArgument: "none"
        case .int: "Int"
        }
    }
}

/// The argument a resolve passes: none, an `Int`, or a `String` (registered for nothing).
enum ModelArgument: CustomStringConvertible {
    case none
    case int(Int)
    case string(String)

    var type: ModelArgumentType? {
        switch self {
        case .none: .noArgument
        case .int: .int
        case .string: nil
        }
    }

    var intValue: Int? {
        if case .int(let value) = self { value } else { nil }
    }

    var description: String {
        switch self {
        case .none: "no argument"
        case .int(let value): "argument: \(value)"
        case .string(let value): "argument: \"\(value)\""
        }
    }
}

/// One registration key: service type, name and argument type.
struct ModelKey: Hashable, CustomStringConvertible {
    var service: ModelServiceType
    var name: String?
    var argument: ModelArgumentType

    var description: String {
        "\(service)" + (name.map { ", name: \"\($0)\"" } ?? "") + (argument == .int ? ", argument: Int" : "")
    }
}

/// What a resolve asks for: service type, name and the argument it passes.
struct ModelRequest: CustomStringConvertible {
    var service: ModelServiceType
    var name: String?
    var argument: ModelArgument
    /// For a factory's dependency: the registry it resolves through directly, by index,
    /// rather than through its resolver.
    var throughRegistry: Int? = nil
    /// Asks for `Optional<ModelProduct>`, registered for nothing, in place of `ModelProduct`.
    var isOptional = false

    var description: String {
        (throughRegistry.map { "through r\($0): " } ?? "")
            + "\(service)\(isOptional ? "?" : "")\(name.map { ", name: \"\($0)\"" } ?? ""), \(argument)"
    }
}

/// A registry a factory resolves through directly, kept weakly: the factory is kept by
/// that registry (or one of its children), which the sequence keeps anyway.
final class ModelRegistryReference: Sendable {
    weak let registry: ServiceRegistry?

    init(_ registry: ServiceRegistry) {
        self.registry = registry
    }
}
