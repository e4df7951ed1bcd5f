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
///
/// An override replaces its service for every resolve in the scope, its own factory's
/// too, so one that resolves the service it overrides meets itself (a cycle). To wrap the
/// real service, resolve it in the configure closure, before the scope starts, and capture
/// it:
///
/// ```swift
/// try registry.withOverrides {
///     let real = try registry.resolve(ReviewService.self)
///     $0.register(ReviewService.self) { _ in CountingReviews(wrapping: real) }
/// } operation: { ... }
/// ```
///
/// Register inside the configure closure only: the scope's overrides are fixed when it
/// returns, and a registrar kept and used after that stops the program with a message
/// saying so (the override would otherwise be lost without a word). A registrar kept after
/// its scope holds none of the scope's overrides, nor what their factories capture.
public final class OverrideRegistrar {
    private var registrations: [ServiceKey: AnyRegistration] = [:]
    private var isClosed = false

    init() {}

    /// Runs `configure` with a new registrar and returns what it registered; the registrar
    /// takes no more after that.
    static func registrations(
        from configure: (OverrideRegistrar) throws -> Void
    ) rethrows -> [ServiceKey: AnyRegistration] {
        let registrar = OverrideRegistrar()
        defer {
            registrar.isClosed = true
            // A registrar the configure closure kept (in a test's property, say) would keep
            // every override's factory, and what it captured, after the scope has ended.
            registrar.registrations = [:]
        }
        try configure(registrar)
        return registrar.registrations
    }

    private func add(_ registration: AnyRegistration) {
        guard !isClosed else {
            fatalError(
                "OverrideRegistrar: `\(registration.displayName)` was registered after the configure closure of "
                    + "withOverrides (or of an .overriding trait) returned, when the scope's overrides were already "
                    + "fixed. Register every override inside the configure closure.")
        }
        registrations[registration.key] = registration
    }

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
        add(FactoryRegistration(name: name, scope: scope, origin: Installing.overrideRegistration, factory: factory))
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
        add(
            ArgumentFactoryRegistration(
                name: name, scope: scope, origin: Installing.overrideRegistration, factory: factory))
    }
}
