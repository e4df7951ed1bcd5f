import ServiceRegistry

/// What registers a model registration: the registry, or an override scope's registrar,
/// which offers the same `register` overloads.
protocol ModelRegistrar {
    func register<Service>(
        _ type: Service.Type, name: String?, scope: Scope,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service)
    func register<Service, Argument>(
        _ type: Service.Type, name: String?, scope: Scope,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service)
}

extension ServiceRegistry: ModelRegistrar {}
extension OverrideRegistrar: ModelRegistrar {}

extension ModelRegistrar {
    /// Registers `registration` for `key`; `registries` are the sequence's, for the
    /// dependencies resolved through one directly.
    func register(_ key: ModelKey, _ registration: ModelRegistration, builds: Counter, registries: [ServiceRegistry]) {
        let direct = registration.dependencies.map { $0.throughRegistry.map { ModelRegistryReference(registries[$0]) } }
        switch key.service {
        case .product: register(ModelProduct.self, key, registration, direct, builds: builds) { $0 }
        case .classBound: register((any ModelClassBoundService).self, key, registration, direct, builds: builds) { $0 }
        case .value: register((any ModelValueService).self, key, registration, direct, builds: builds) { $0 }
        }
    }

    private func register<Service>(
        _ type: Service.Type, _ key: ModelKey, _ registration: ModelRegistration, _ direct: [ModelRegistryReference?],
        builds: Counter, as service: @escaping @Sendable (ModelProduct) -> Service
    ) {
        let id = registration.id
        let dependencies = registration.dependencies
        switch key.argument {
        case .noArgument:
            register(Service.self, name: key.name, scope: registration.scope) { r in
                service(
                    try ModelProduct.build(
                        registration: id, argument: nil, dependencies: dependencies, direct: direct, resolver: r,
                        builds: builds))
            }
        case .int:
            register(Service.self, name: key.name, scope: registration.scope) { (r, argument: Int) in
                service(
                    try ModelProduct.build(
                        registration: id, argument: argument, dependencies: dependencies, direct: direct, resolver: r,
                        builds: builds))
            }
        }
    }
}

/// What resolves a model request: the registry, or a factory's resolver, which offers the
/// same `resolve` overloads.
protocol ModelResolving: ~Copyable {
    func resolve<Service>(_ type: Service.Type, name: String?) throws(ResolutionError) -> Service
    func resolve<Service, Argument>(
        _ type: Service.Type, name: String?, argument: Argument
    ) throws(ResolutionError) -> Service
}

extension ServiceRegistry: ModelResolving {}
extension Resolver: ModelResolving {}

extension ModelResolving where Self: ~Copyable {
    /// The product a resolve returns; `nil` if the instance is not a ``ModelProduct``.
    func resolve(_ request: ModelRequest) throws(ResolutionError) -> ModelProduct? {
        switch request.service {
        case .product where request.isOptional: try resolve(ModelProduct?.self, request)
        case .product: try resolve(ModelProduct.self, request)
        case .classBound: try resolve((any ModelClassBoundService).self, request)
        case .value: try resolve((any ModelValueService).self, request)
        }
    }

    private func resolve<Service>(
        _ type: Service.Type, _ request: ModelRequest
    ) throws(ResolutionError) -> ModelProduct? {
        let instance: Service
        switch request.argument {
        case .none: instance = try resolve(Service.self, name: request.name)
        case .int(let value): instance = try resolve(Service.self, name: request.name, argument: value)
        case .string(let value): instance = try resolve(Service.self, name: request.name, argument: value)
        }
        return instance as? ModelProduct
    }
}

extension ServiceRegistry {
    func isRegistered(_ request: ModelRequest) -> Bool {
        switch request.service {
        case .product where request.isOptional: isRegistered(ModelProduct?.self, request)
        case .product: isRegistered(ModelProduct.self, request)
        case .classBound: isRegistered((any ModelClassBoundService).self, request)
        case .value: isRegistered((any ModelValueService).self, request)
        }
    }

    private func isRegistered<Service>(_ type: Service.Type, _ request: ModelRequest) -> Bool {
        switch request.argument {
        case .none: isRegistered(Service.self, name: request.name)
        case .int: isRegistered(Service.self, name: request.name, argumentType: Int.self)
        case .string: isRegistered(Service.self, name: request.name, argumentType: String.self)
        }
    }
}
