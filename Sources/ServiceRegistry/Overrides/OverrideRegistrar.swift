/// Collects the registrations of an override scope; handed to the configure closure of
/// ``ServiceRegistry/withOverrides(_:operation:)``.
///
/// Offers the same `register` overloads as ``ServiceRegistry`` (names, scopes,
/// arguments). An override may replace a registration of the registry or supply a
/// service the registry lacks.
///
/// ```swift
/// try registry.withOverrides {
///     $0.register(ReviewService.self) { _ in MockReviews() }
/// } operation: {
///     let detail = try registry.resolve(BookDetailService.self)   // built with MockReviews
/// }
/// ```
public final class OverrideRegistrar {
    var registrations: [ServiceKey: AnyRegistration] = [:]

    init() {}

    /// Overrides (or adds) a factory for a service that takes no runtime argument.
    ///
    /// - Parameters:
    ///   - type: The service type callers resolve, usually a protocol.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - scope: The scope of the override; a `.singleton` is shared within the scope only.
    ///   - factory: Builds the replacement.
    public func register<Service>(
        _ type: Service.Type, name: String? = nil, scope: Scope = .transient,
        factory: @escaping @Sendable (borrowing Resolver) throws -> Service
    ) {
        let registration = FactoryRegistration(
            name: name, scope: scope, origin: Installing.overrideRegistration, factory: factory)
        registrations[registration.key] = registration
    }

    /// Overrides (or adds) a factory for a service built from a runtime argument.
    ///
    /// - Parameters:
    ///   - type: The service type callers resolve, usually a protocol.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - scope: The scope of the override; a `.singleton` is shared within the scope only.
    ///   - factory: Builds the replacement from its resolver and the argument.
    public func register<Service, Argument>(
        _ type: Service.Type, name: String? = nil, scope: Scope = .transient,
        factory: @escaping @Sendable (borrowing Resolver, Argument) throws -> Service
    ) {
        let registration = ArgumentFactoryRegistration(
            name: name, scope: scope, origin: Installing.overrideRegistration, factory: factory)
        registrations[registration.key] = registration
    }
}
