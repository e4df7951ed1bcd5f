import Synchronization

/// How one resolve travels: key → lookup (override scopes, this registry, its parents) →
/// cycle check → scope → cache or factory. See Docs/Design.md.
extension ServiceRegistry {
    /// A registration found for a key, with where it was found.
    struct Found {
        let registration: AnyRegistration
        /// The registry that holds the registration (or whose override scope does).
        let owner: ServiceRegistry
        /// The innermost override scope that applies to `owner`: shared instances are
        /// cached there instead of in the registration, so they never leak out of it.
        let cacheLayer: OverrideLayer?
    }

    /// Finds the registration for `key`: in each registry from this one up to the root,
    /// first in the active override scopes for that registry (innermost first), then in
    /// the registry's own table.
    func lookup(_ key: ServiceKey, overrides: OverrideLayer?) -> Found? {
        for registry in lineage {
            if let overrides, let registration = overrides.registration(for: key, in: registry) {
                return Found(registration: registration, owner: registry, cacheLayer: overrides.innermost(applyingTo: registry))
            }
            if let registration = registry.table.registration(for: key) {
                return Found(
                    registration: registration, owner: registry,
                    cacheLayer: overrides?.innermost(applyingTo: registry))
            }
        }
        return nil
    }

    /// Resolves `key` as part of `resolution`, below `parent` (nil at the top).
    func resolve<Service>(
        key: ServiceKey, argumentType: Any.Type?, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>,
        make: (AnyRegistration, borrowing Resolver) throws -> Service
    ) throws(ResolutionError) -> Service {
        let overrides = resolution.pointee.overrides
        if parent != nil, overrides == nil, let cached = table.cachedSingleton(for: key, as: Service.self) {
            return cached
        }
        guard let found = lookup(key, overrides: overrides) else {
            let error = missingRegistrationError(
                key: key, serviceType: Service.self, argumentType: argumentType, parent: parent, resolution: resolution)
            overrides?.recorder?.recordFailure(of: key, serviceType: TypeName.of(Service.self), below: parent, error: error)
            throw error
        }
        let registration = found.registration
        overrides?.recorder?.recordEdge(to: registration, owner: found.owner, below: parent)
        if let parent, parent.contains(registration) {
            let error = cycleError(registration, parent: parent, note: nil)
            overrides?.recorder?.recordCycle(at: registration, below: parent, error: error)
            throw error
        }
        if parent == nil, let enclosing = resolution.pointee.enclosingBuild,
            enclosing.path.contains(where: { $0 === registration })
        {
            throw ResolutionError(
                reason: .circularDependency, serviceType: registration.serviceTypeName, name: key.name,
                path: (enclosing.path + [registration]).map(\.displayName))
        }

        switch registration.scope.kind {
        case .transient:
            return try build(registration, in: self, parent: parent, resolution: resolution, make: make)
        case .graph:
            let id = ObjectIdentifier(registration)
            if let existing = resolution.pointee.graphInstances[id] {
                return unsafeDowncast(existing.instance, to: InstanceBox<Service>.self).value
            }
            let value = try build(registration, in: self, parent: parent, resolution: resolution, make: make)
            resolution.pointee.graphInstances[id] = (registration, InstanceBox(value))
            return value
        case .singleton, .weak:
            let typed = unsafeDowncast(registration, to: ServiceRegistration<Service>.self)
            let cell = found.cacheLayer?.cell(for: typed) ?? typed.cell
            return try buildShared(
                typed, cell: cell, owner: found.owner, parent: parent, resolution: resolution, make: make)
        }
    }

    /// Runs the factory of `registration` in a new frame below `parent`.
    private func build<Service>(
        _ registration: AnyRegistration, in registry: ServiceRegistry, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>,
        make: (AnyRegistration, borrowing Resolver) throws -> Service
    ) throws(ResolutionError) -> Service {
        var frame = ResolutionFrame(registration: registration, parent: parent, registry: registry, resolution: resolution)
        return try withUnsafePointer(to: &frame) { frame throws(ResolutionError) in
            do {
                return try make(registration, Resolver(frame: frame))
            } catch let error as ResolutionError {
                throw error
            } catch {
                throw ResolutionError(
                    reason: .factoryFailed, serviceType: registration.serviceTypeName, name: registration.key.name,
                    path: frame.registrations.map(\.displayName), underlyingError: error)
            }
        }
    }

    /// Returns the shared instance in `cell`, building it exactly once if needed.
    ///
    /// The builder claims the cell from the ``BuildCoordinator`` while holding a fresh
    /// ``BuildLock`` and keeps holding it for the whole build; others block on that lock
    /// and then read the cell. A failed build caches nothing, and whoever looks next
    /// builds again. Shared instances resolve their dependencies through the registry
    /// that owns the registration.
    private func buildShared<Service>(
        _ registration: ServiceRegistration<Service>, cell: InstanceCell<Service>, owner: ServiceRegistry,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>,
        make: (AnyRegistration, borrowing Resolver) throws -> Service
    ) throws(ResolutionError) -> Service {
        let isSingleton = registration.scope.kind == .singleton
        func cached() -> Service? { isSingleton ? cell.singleton : cell.weakInstance }

        if let value = cached() { return value }
        if resolution.pointee.context == 0 {
            resolution.pointee.context = BuildCoordinator.makeContext()
        }
        let context = resolution.pointee.context
        let cellID = ObjectIdentifier(cell)

        while true {
            let lock = BuildLock()
            var outcome = SharedBuildOutcome<Service>.failed(cycleError(registration, parent: parent, note: nil))
            lock.mutex.withLock { _ in
                switch BuildCoordinator.claim(
                    cellID, context: context, lock: lock, serviceName: registration.displayName)
                {
                case .build:
                    defer { BuildCoordinator.finish(cellID) }
                    if let value = cached() {
                        outcome = .built(value)
                        return
                    }
                    let trace = BuildTrace(
                        context: context,
                        path: (parent?.registrations ?? resolution.pointee.enclosingBuild?.path ?? []) + [registration])
                    BuildTrace.activeBuilds.wrappingAdd(1, ordering: .relaxed)
                    defer { BuildTrace.activeBuilds.wrappingSubtract(1, ordering: .relaxed) }
                    BuildTrace.$current.withValue(trace) {
                        do throws(ResolutionError) {
                            let value = try build(
                                registration, in: owner, parent: parent, resolution: resolution, make: make)
                            if isSingleton {
                                cell.storeSingleton(value)
                            } else {
                                cell.storeWeak(value)
                            }
                            outcome = .built(value)
                        } catch {
                            outcome = .failed(error)
                        }
                    }
                case .wait(let builder):
                    outcome = .wait(builder)
                case .cycle(let other):
                    outcome = .failed(
                        cycleError(
                            registration, parent: parent,
                            note: "`\(other)` is being built by another resolve that waits for this one, "
                                + "so the two depend on each other (perhaps on different threads)."))
                }
            }
            switch outcome {
            case .built(let value):
                return value
            case .failed(let error):
                throw error
            case .wait(let builder):
                builder.waitForBuilder()
                BuildCoordinator.stopWaiting(context)
                if let value = cached() { return value }
            }
        }
    }
}

/// How one attempt at building a shared instance ended.
private enum SharedBuildOutcome<Service> {
    case built(Service)
    case failed(ResolutionError)
    case wait(BuildLock)
}
