/// Building the errors a resolve throws. Only ever runs on a failing resolve, so it may
/// format type names and scan every registration.
extension ServiceRegistry {
    /// `.argumentMismatch` when the type and name are registered with other argument
    /// types, `.notRegistered` (with look-alike registrations) otherwise.
    func missingRegistrationError(
        key: ServiceKey, serviceType: Any.Type, argumentType: Any.Type?,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>
    ) -> ResolutionError {
        let typeName = TypeName.of(serviceType)
        let requested = TypeName.describe(typeName, name: key.name)
        let path = resolution.pointee.path(below: parent)
        let givenArgument = argumentType.map(TypeName.of)

        let sameType = visibleRegistrations(overrides: resolution.pointee.overrides, of: key.service).map(\.registration)
        let sameName = sameType.filter { $0.key.name == key.name }
        if !sameName.isEmpty {
            // The table's order follows where the runtime put the types, which changes from
            // run to run: no argument first, then by name, so the text and its fix do not.
            let registered = sameName.map(\.argumentTypeName).sorted { lhs, rhs in
                guard let rhs else { return false }
                guard let lhs else { return true }
                return lhs < rhs
            }
            return ResolutionError(
                reason: .argumentMismatch, serviceType: typeName, name: key.name, path: path, requested: requested,
                givenArgumentType: givenArgument, registeredArgumentTypes: registered)
        }
        let similar = sameType.map { registration in
            registration.argumentTypeName.map { "\(registration.displayName) with argument `\($0)`" }
                ?? registration.displayName
        }
        return ResolutionError(
            reason: .notRegistered, serviceType: typeName, name: key.name, path: path, requested: requested,
            givenArgumentType: givenArgument, similarRegistrations: similar.sorted())
    }

    /// `.circularDependency` for meeting `registration` again below `parent`.
    ///
    /// The path above starts at the build this resolution continues, if any, also for a
    /// resolve at the top (one a factory started through the registry, which meets a build
    /// that another thread's resolve holds while it waits for this one): the factory passes
    /// on only an error whose path runs through its service (see
    /// ``factoryFailure(_:of:in:)``).
    func cycleError(
        _ registration: AnyRegistration, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>, note: String?
    ) -> ResolutionError {
        ResolutionError(
            reason: .circularDependency, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: resolution.pointee.path(below: parent) + [registration], note: note)
    }

    /// `.circularDependency` for meeting `registration` again in a top-level resolve that
    /// continues `enclosing`: a factory on that path resolved through the registry rather
    /// than through its resolver, so the services it met through resolvers since
    /// `enclosing` was published are not on the path.
    func cycleThroughRegistryError(_ registration: AnyRegistration, enclosing: BuildTrace) -> ResolutionError {
        ResolutionError(
            reason: .circularDependency, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: enclosing.path + [registration],
            note: "A factory on this path resolves through the registry instead of its resolver `r`, "
                + "so the path may leave out services in between; resolving through `r` shows every step.")
    }

    /// Every registration a resolve here could find (only those for the service type
    /// `service`, if given), shadowed ones excluded, each with the registry that holds it.
    ///
    /// Validation may meet a failure in every registration it builds, so a failing resolve
    /// looks only at its own service type: listing and hashing every registration for each
    /// failure made validating a large registry with a common dependency missing quadratic.
    func visibleRegistrations(overrides: OverrideLayer?, of service: ObjectIdentifier? = nil) -> [Found] {
        var seen = Set<ServiceKey>()
        var result: [Found] = []
        for registry in lineage {
            var candidates = overrides?.registrations(in: registry) ?? []
            if let service {
                candidates = candidates.filter { $0.service == service }
                candidates += registry.table.registrations(of: service)
            } else {
                candidates += registry.table.allRegistrations
            }
            for registration in candidates where seen.insert(registration.key).inserted {
                result.append(Found(registration: registration, owner: registry, cacheLayer: overrides))
            }
        }
        return result
    }
}

extension ResolutionError {
    /// This error as the factory of the service at the end of `path` (the registrations
    /// from the top down to it) passes it on, or `nil` when it is that factory's failure.
    ///
    /// An error passes when its path starts with `path`, registration for registration: a
    /// resolve below the service made it. A cycle also passes when the service is on its
    /// loop, which its path may not show (a path through the registry lists only the
    /// services met through the registry and inside shared builds): when the path names the
    /// service, when a factory of the same service passed it on already, or when the loop
    /// closes on a service being built above this one (on `path`, or on `trace`, the build
    /// or traced resolve the factory runs inside). Such a cycle remembers the service, so
    /// the factories of the same service further up, outside the part of the loop the path
    /// shows, pass it on too.
    func passedOn(by path: [AnyRegistration], inside trace: BuildTrace?) -> ResolutionError? {
        let ids = registrations.map(\.id)
        let pathIDs = path.map(ObjectIdentifier.init)
        if ids.starts(with: pathIDs) { return self }
        guard reason == .circularDependency, let service = path.last, let closing = ids.last else { return nil }
        let serviceID = ObjectIdentifier(service)
        if ids.contains(serviceID) || alsoOnLoop.contains(where: { $0.id == serviceID }) { return self }
        let closesAbove =
            pathIDs.contains(closing) || trace?.path.contains { ObjectIdentifier($0) == closing } == true
        guard closesAbove else { return nil }
        var error = self
        error.alsoOnLoop.append(RegistrationIdentity(service))
        return error
    }
}
