extension ServiceRegistry {
    /// Builds every registration that takes no argument, each in isolation, and throws
    /// one error listing every one that fails.
    ///
    /// Each registration is built inside a private scope (like
    /// ``withOverrides(_:operation:)``), so nothing is cached in the registry:
    /// its singletons are untouched afterwards. Active override scopes apply, so a test
    /// can validate the app's wiring with some services mocked. Registrations whose
    /// factories take an argument cannot be built without one; the error lists them as
    /// not checked. Factories do run, so a factory with side effects has them here too.
    ///
    /// ```swift
    /// @Test func appWiringIsComplete() throws {
    ///     let registry = ServiceRegistry()
    ///     registry.install(BookDetailAssembly(), ReviewAssembly())
    ///     try registry.validate()
    /// }
    /// ```
    ///
    /// - Returns: What was built and what was not checked.
    /// - Throws: ``ValidationError`` when at least one registration fails (a missing
    ///   dependency, a cycle, a factory that throws).
    @discardableResult
    public func validate() throws(ValidationError) -> ValidationReport {
        let pass = validationPass()
        if !pass.error.failures.isEmpty {
            throw pass.error
        }
        return ValidationReport(built: pass.built, notChecked: pass.error.notChecked)
    }

    /// The dependency graph that ``validate()`` observes: every registration, what its
    /// factory resolved, and what was missing or circular.
    ///
    /// Runs a validation pass to observe it, so factories run (in isolation: nothing is
    /// cached in the registry).
    ///
    /// - Returns: The graph; render it with ``DependencyGraph/dot`` or ``DependencyGraph/textTree``.
    public func dependencyGraph() -> DependencyGraph {
        let recorder = DependencyRecorder(registry: self)
        _ = validationPass(recorder: recorder)
        return recorder.graph
    }

    private func validationPass(recorder: DependencyRecorder? = nil) -> (error: ValidationError, built: [String]) {
        let recorder = recorder ?? DependencyRecorder(registry: self)
        let outer = OverrideLayer.current
        // Names are formatted once per registration, not on every comparison of the sort.
        let registrations = visibleRegistrations(overrides: OverrideLayer.active).map(\.registration)
            .map { (key: ($0.displayName, $0.argumentTypeName ?? "", $0.qualifiedServiceTypeName), registration: $0) }
            .sorted { $0.key < $1.key }
            .map(\.registration)
        var outcomes: [(registration: AnyRegistration, owner: ServiceRegistry, error: ResolutionError?)] = []
        for registration in registrations {
            guard let owner = lookup(registration.key, overrides: OverrideLayer.active)?.owner else { continue }
            guard registration.key.takesNoArgument else {
                recorder.recordNode(registration, owner: owner, status: .notChecked)
                outcomes.append((registration, owner, nil))
                continue
            }
            let isolation = OverrideLayer(
                registry: self, registrations: [:], parent: outer, recorder: recorder)
            let error = OverrideScope(layer: isolation).run { () -> ResolutionError? in
                do throws(ResolutionError) {
                    try withResolution(overrides: isolation, enclosingBuild: nil) { resolution throws(ResolutionError) in
                        try registration.buildForValidation(from: self, resolution: resolution)
                    }
                    return nil
                } catch {
                    return error
                }
            }
            recorder.recordNode(registration, owner: owner, status: error.map { .failed($0.reason) } ?? .resolved)
            outcomes.append((registration, owner, error))
        }

        // A type whose short name another type in the graph shares, registered or missing
        // (each component's `Config`), is listed under its full name, as the graph shows it;
        // otherwise two entries would read the same. Which types are missing is known only
        // now, so the lists are named, and sorted by those names, here.
        let shared = recorder.shortNamesSharedInGraph
        let named = outcomes.map { outcome in
            let registration = outcome.registration
            let name =
                shared.contains(registration.serviceTypeName)
                ? TypeName.describe(registration.qualifiedServiceTypeName, name: registration.key.name)
                : registration.displayName
            return (key: (name, registration.argumentTypeName ?? "", registration.qualifiedServiceTypeName), outcome)
        }
        .sorted { $0.key < $1.key }
        var failures: [ValidationError.Failure] = []
        var notChecked: [String] = []
        var built: [String] = []
        for ((displayName, _, _), (registration, owner, error)) in named {
            if !registration.key.takesNoArgument {
                notChecked.append("\(displayName) (argument: \(registration.argumentTypeName ?? "?"))")
            } else if let error {
                failures.append(
                    ValidationError.Failure(
                        registration: displayName, origin: owner.originName(registration.origin), error: error))
            } else {
                built.append(displayName)
            }
        }
        return (ValidationError(failures: failures, notChecked: notChecked, passedCount: built.count), built)
    }
}
