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
        let path = resolution.pointee.path(below: parent).map(\.displayName) + [requested]
        let givenArgument = argumentType.map(TypeName.of)

        let sameType = visibleRegistrations(overrides: resolution.pointee.overrides, of: key.service)
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
                reason: .argumentMismatch, serviceType: typeName, name: key.name, path: path,
                givenArgumentType: givenArgument, registeredArgumentTypes: registered)
        }
        let similar = sameType.map { registration in
            registration.argumentTypeName.map { "\(registration.displayName) with argument `\($0)`" }
                ?? registration.displayName
        }
        return ResolutionError(
            reason: .notRegistered, serviceType: typeName, name: key.name, path: path,
            givenArgumentType: givenArgument, similarRegistrations: similar.sorted())
    }

    /// `.circularDependency` for meeting `registration` again below `parent`.
    func cycleError(_ registration: AnyRegistration, parent: UnsafePointer<ResolutionFrame>?, note: String?)
        -> ResolutionError
    {
        let above = parent?.registrations ?? []
        return ResolutionError(
            reason: .circularDependency, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: (above + [registration]).map(\.displayName), note: note)
    }

    /// `.circularDependency` for meeting `registration` again in a top-level resolve that
    /// continues `enclosing`: a factory on that path resolved through the registry rather
    /// than through its resolver, so the services it met through resolvers since
    /// `enclosing` was published are not on the path.
    func cycleThroughRegistryError(_ registration: AnyRegistration, enclosing: BuildTrace) -> ResolutionError {
        ResolutionError(
            reason: .circularDependency, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: (enclosing.path + [registration]).map(\.displayName),
            note: "A factory on this path resolves through the registry instead of its resolver `r`, "
                + "so the path may leave out services in between; resolving through `r` shows every step.")
    }

    /// Every registration a resolve here could find (only those for the service type
    /// `service`, if given), shadowed ones excluded.
    ///
    /// Validation may meet a failure in every registration it builds, so a failing resolve
    /// looks only at its own service type: listing and hashing every registration for each
    /// failure made validating a large registry with a common dependency missing quadratic.
    func visibleRegistrations(overrides: OverrideLayer?, of service: ObjectIdentifier? = nil) -> [AnyRegistration] {
        var seen = Set<ServiceKey>()
        var result: [AnyRegistration] = []
        for registry in lineage {
            var candidates = overrides?.registrations(in: registry) ?? []
            if let service {
                candidates = candidates.filter { $0.service == service }
                candidates += registry.table.registrations(of: service)
            } else {
                candidates += registry.table.allRegistrations
            }
            for registration in candidates where seen.insert(registration.key).inserted {
                result.append(registration)
            }
        }
        return result
    }
}
