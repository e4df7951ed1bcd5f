import Synchronization

/// A registry of lazy service factories, keyed by service type, name and argument type.
///
/// Components publish protocols in a thin interfaces module and register factories here;
/// callers resolve a service by its protocol type without importing the component that
/// implements it. Registering builds nothing: a factory runs on the first `resolve` that
/// needs it.
///
/// ```swift
/// let registry = ServiceRegistry()
/// registry.register(ReviewService.self, scope: .singleton) { _ in ReviewServiceImpl() }
/// registry.register(BookDetailService.self) { r in
///     BookDetailServiceImpl(reviews: try r.resolve(ReviewService.self))
/// }
///
/// let detail = try registry.resolve(BookDetailService.self)
/// ```
///
/// The registry is `Sendable`: register and resolve from any thread. Resolving never
/// deadlocks, also when factories resolve other services, and a dependency cycle is a
/// thrown ``ResolutionError`` with reason ``ResolutionError/Reason/circularDependency``.
public final class ServiceRegistry: Sendable {
    /// The process-wide default registry, used by ``Injected``.
    ///
    /// Tests that touch it should do so inside ``withOverrides(_:operation:)``,
    /// so tests running in parallel never see each other's registrations.
    public static let shared = ServiceRegistry()

    let table = RegistrationTable()
    /// The registry this one falls back to; `nil` for a root registry.
    let parent: ServiceRegistry?
    /// Types of the assemblies installed here; a registration's `origin` indexes this.
    /// Their names are formatted only when a graph or an error shows them.
    let origins = Lock<[UncheckedSendable<any ServiceAssembly.Type>]>([])
    /// Resolution observers, in the order they were added.
    let observers = Lock<[ResolutionObserver]>([])

    /// Creates an empty registry.
    public convenience init() {
        self.init(parent: nil)
    }

    init(parent: ServiceRegistry?) {
        self.parent = parent
    }

    deinit {
        // Observers nobody removed would otherwise keep every resolve in the process off
        // the fast path for good.
        let forgotten = observers.withLock { $0.count }
        if forgotten > 0 {
            ResolutionObservers.count.wrappingSubtract(forgotten, ordering: .relaxed)
            FastPath.unblock(forgotten)
        }
    }

    /// Creates a registry that sees this one's registrations and may shadow them.
    ///
    /// The child resolves from its own registrations first, then from this registry (and
    /// its parents). This registry never sees the child's registrations. A `.singleton`
    /// or `.weak` registration of this registry resolved through the child is this
    /// registry's one instance, built from this registry's registrations, so a shared
    /// instance never captures a child's dependencies. Other registrations of this
    /// registry resolved through the child resolve their dependencies through the child;
    /// met again inside their own build, through this registry or another child, they are
    /// still a ``ResolutionError/Reason/circularDependency``: registrations are compared,
    /// not the registries resolving them.
    ///
    /// ```swift
    /// let screen = registry.makeChild()
    /// screen.register(ReviewService.self) { _ in OfflineReviews() }   // only in `screen`
    /// ```
    ///
    /// The child keeps this registry alive; this registry keeps no reference to the child,
    /// which goes away with its last reference, with the instances it cached. A factory
    /// registered in the child that captures the child itself (rather than resolving
    /// through its resolver `r`), or a singleton that holds it, keeps it alive for good.
    ///
    /// - Returns: A new, empty child registry.
    public func makeChild() -> ServiceRegistry {
        ServiceRegistry(parent: self)
    }

    /// Installs the registrations of each assembly, in order.
    ///
    /// Registrations remember the assembly that made them, for ``dependencyGraph()`` and
    /// the failures ``validate()`` lists (a ``ResolutionError`` does not name it).
    /// Installing builds nothing. The registry records each assembly's type (16 bytes) on
    /// every install, also of an assembly installed before, for as long as it lives: an app
    /// that installs the same assembly again and again (at every sign-in) grows by that much
    /// each time, and should install it once, or into a child made for the session.
    ///
    /// - Parameter assemblies: The assemblies to install.
    public func install(_ assemblies: any ServiceAssembly...) {
        for assembly in assemblies {
            // A metatype is immutable, so sharing it between threads is safe.
            let assemblyType = UncheckedSendable<any ServiceAssembly.Type>(type(of: assembly))
            let index = origins.withLock { origins -> Int32 in
                origins.append(assemblyType)
                return Int32(origins.count - 1)
            }
            Installing.$current.withValue(Installing(registry: ObjectIdentifier(self), origin: index)) {
                assembly.assemble(into: self)
            }
        }
    }

    /// Whether a factory that takes no argument is registered for `type` and `name`,
    /// here, in a parent, or in an active override scope.
    ///
    /// For an optional `type` with nothing registered for it, whether its wrapped type is
    /// registered: that is what ``resolve(_:name:)`` resolves for it.
    ///
    /// - Parameters:
    ///   - type: The service type.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    /// - Returns: `true` when `resolve(type, name: name)` would find a registration.
    public func isRegistered<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        canResolve(
            ServiceKey(Service.self, name: name), serviceType: Service.self, argumentType: nil,
            overrides: OverrideLayer.active)
    }

    /// Whether a factory taking an `Argument` is registered for `type` and `name`, here,
    /// in a parent, or in an active override scope (or, for an optional `type` with nothing
    /// registered for it, for its wrapped type).
    ///
    /// - Parameters:
    ///   - type: The service type.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - argumentType: The type of the factory's argument.
    /// - Returns: `true` when `resolve(type, name: name, argument:)` with an `Argument`
    ///   would find a registration.
    public func isRegistered<Service, Argument>(
        _ type: Service.Type, name: String? = nil, argumentType: Argument.Type
    ) -> Bool {
        canResolve(
            ServiceKey(Service.self, name: name, argument: Argument.self), serviceType: Service.self,
            argumentType: Argument.self, overrides: OverrideLayer.active)
    }

    /// The name an origin index stands for: an assembly, a direct registration, or an
    /// override.
    func originName(_ origin: Int32) -> String {
        switch origin {
        case Installing.directRegistration: return "registered directly"
        case Installing.overrideRegistration: return "override"
        default:
            let assemblyType = origins.withLock { Int(origin) < $0.count ? $0[Int(origin)] : nil }
            return assemblyType.map { TypeName.of($0.value) } ?? "unknown"
        }
    }

    /// The registries a resolve here looks in, this one first.
    var lineage: some Sequence<ServiceRegistry> {
        sequence(first: self) { $0.parent }
    }
}

/// The assembly being installed, so registrations can remember where they came from.
struct Installing: Sendable {
    static let directRegistration: Int32 = -1
    static let overrideRegistration: Int32 = -2

    let registry: ObjectIdentifier
    let origin: Int32

    @TaskLocal static var current: Installing?
}
