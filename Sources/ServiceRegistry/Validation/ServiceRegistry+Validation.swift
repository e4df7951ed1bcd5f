extension ServiceRegistry {
    /// Builds every registration that takes no argument, each in isolation, and throws
    /// one error listing every one that fails: the same as
    /// ``validate(sampleArguments:)`` with no samples.
    ///
    /// Each registration is built inside a private scope (like
    /// ``withOverrides(_:operation:)``), so nothing is cached in the registry:
    /// its singletons are untouched afterwards. What validation builds is freed by the
    /// time it returns, a singleton that holds a task its factory started included (the
    /// task is the instance's to stop). Active override scopes apply, so a test
    /// can validate the app's wiring with some services mocked. Registrations whose
    /// factories take an argument cannot be built without one; the error and the report
    /// list them as not checked, and ``validate(sampleArguments:)`` builds them as well.
    /// Factories do run, so a factory with side effects has them here too. A factory may
    /// itself validate (a diagnostics service): the service it is building, met again by
    /// that pass, is listed as a ``ResolutionError/Reason/circularDependency``.
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
        try validate(sampleArguments: [])
    }

    /// Builds every registration, each in isolation, giving those whose factories take an
    /// argument one of `sampleArguments`, and throws one error listing every one that
    /// fails.
    ///
    /// A registration that takes an argument is built with the first sample whose type is
    /// exactly its argument type, otherwise with the first that converts to it with `as?`
    /// (a `FixedClock` for an `any Clock` argument, a subclass for its superclass; only an
    /// object for an `AnyObject`, which `as?` would make of any value by boxing it). One
    /// sample serves every registration that takes its type; a sample that none takes is
    /// ignored. A registration that no sample fits is not built, and is listed as not
    /// checked with the argument type to supply. A registration built with a sample is
    /// checked like one without an argument: its missing dependencies, cycles and failing
    /// factory are failures.
    ///
    /// Everything else is as for ``validate()``: each build runs in a private scope, so
    /// nothing is cached in the registry (a `.singleton` that takes an argument is built
    /// from its first real resolve's argument, never from the sample); active override
    /// scopes apply; factories run, with their side effects.
    ///
    /// ```swift
    /// registry.register(BookScreen.self) { (r, bookId: String) in BookScreenImpl(bookId: bookId) }
    /// let report = try registry.validate(sampleArguments: ["42"])   // builds BookScreen from "42"
    /// #expect(report.notChecked.isEmpty)
    /// ```
    ///
    /// - Parameter sampleArguments: Values to build the registrations that take an
    ///   argument with, such as an id the app knows (a factory that looks it up may throw
    ///   for one it does not). Several values travel as one tuple, as in
    ///   ``resolve(_:name:argument:)``: pass `("42", 1)` for a `(String, Int)` argument.
    ///   `Any` rather than `any Sendable`, as a registration's argument type need not be
    ///   `Sendable`; an `[any Sendable]` list is accepted as it is.
    /// - Returns: What was built and what was not checked.
    /// - Throws: ``ValidationError`` when at least one registration fails (a missing
    ///   dependency, a cycle, a factory that throws).
    @discardableResult
    public func validate(sampleArguments: [Any]) throws(ValidationError) -> ValidationReport {
        let pass = validationPass(sampleArguments: sampleArguments)
        if !pass.error.failures.isEmpty {
            throw pass.error
        }
        return ValidationReport(
            built: pass.built, notChecked: pass.error.notChecked, missingSampleTypes: pass.error.missingSampleTypes)
    }

    /// The dependency graph that ``validate()`` observes: every registration, what its
    /// factory resolved, and what was missing or circular. The same as
    /// ``dependencyGraph(sampleArguments:)`` with no samples, so registrations that take
    /// an argument are nodes marked ``DependencyGraph/Status/notChecked``, whose
    /// dependencies show only if a factory that validation built resolved them with an
    /// argument.
    ///
    /// Runs a validation pass to observe it, so factories run (in isolation: nothing is
    /// cached in the registry).
    ///
    /// - Returns: The graph; render it with ``DependencyGraph/dot`` or ``DependencyGraph/textTree``.
    public func dependencyGraph() -> DependencyGraph {
        dependencyGraph(sampleArguments: [])
    }

    /// The dependency graph that ``validate(sampleArguments:)`` observes: every
    /// registration, including those that take an argument and were built with a sample,
    /// what its factory resolved, and what was missing or circular.
    ///
    /// Samples are matched to registrations as ``validate(sampleArguments:)`` does; a
    /// registration that no sample fits is a node marked
    /// ``DependencyGraph/Status/notChecked``, whose dependencies show only if a factory
    /// that validation built resolved it with an argument. Runs a validation pass to
    /// observe it, so factories run (in isolation: nothing is cached in the registry).
    ///
    /// ```swift
    /// let graph = registry.dependencyGraph(sampleArguments: ["42"])
    /// print(graph.textTree)   // BookScreen (argument: String) [...] and what its factory resolved
    /// ```
    ///
    /// - Parameter sampleArguments: Values to build the registrations that take an
    ///   argument with; several values travel as one tuple.
    /// - Returns: The graph; render it with ``DependencyGraph/dot`` or ``DependencyGraph/textTree``.
    public func dependencyGraph(sampleArguments: [Any]) -> DependencyGraph {
        let recorder = DependencyRecorder(registry: self)
        _ = validationPass(sampleArguments: sampleArguments, recorder: recorder)
        return recorder.graph
    }

    /// What validation found for one registration.
    private enum Outcome {
        case built
        case failed(ResolutionError)
        /// It takes an argument and no sample fits it.
        case notChecked
    }

    private func validationPass(
        sampleArguments: [Any], recorder: DependencyRecorder? = nil
    ) -> (error: ValidationError, built: [String]) {
        let recorder = recorder ?? DependencyRecorder(registry: self)
        let outer = OverrideLayer.current
        // Run from a factory, the pass continues the path of the builds above it, so that
        // building one of them again is a cycle, not a recursion without end.
        let enclosing = BuildTrace.current?.hidingShownPath()
        // Names are formatted once per registration, not on every comparison of the sort.
        let registrations = visibleRegistrations(overrides: OverrideLayer.active).map(\.registration)
            .map { (key: ($0.displayName, $0.argumentTypeName ?? "", $0.qualifiedServiceTypeName), registration: $0) }
            .sorted { $0.key < $1.key }
            .map(\.registration)
        var outcomes: [(registration: AnyRegistration, owner: ServiceRegistry, outcome: Outcome)] = []
        for registration in registrations {
            guard let owner = lookup(registration.key, overrides: OverrideLayer.active)?.owner else { continue }
            let isolation = OverrideLayer(
                registry: self, registrations: [:], parent: outer, recorder: recorder)
            let outcome = OverrideScope(layer: isolation).run { () -> Outcome in
                // Tasks its factories started may keep the scope: what it cached goes now,
                // still inside it, so that what an instance's deinit resolves is built in
                // isolation too, not in the registry or the scopes validation runs in. In a
                // scope of its own without the recorder: what a deinit resolves is not a
                // dependency of what validation built, and its misses are none of the graph's.
                defer {
                    let freeing = OverrideLayer(registry: self, registrations: [:], parent: isolation)
                    OverrideScope(layer: freeing).run {
                        isolation.dropCachedInstances()
                        freeing.dropCachedInstances()
                    }
                }
                do throws(ResolutionError) {
                    var built = false
                    try withResolution(overrides: isolation, enclosingBuild: enclosing) { resolution throws(ResolutionError) in
                        built = try registration.buildForValidation(
                            from: self, sampleArguments: sampleArguments, resolution: resolution)
                    }
                    return built ? .built : .notChecked
                } catch {
                    return .failed(error)
                }
            }
            let status: DependencyGraph.Status =
                switch outcome {
                case .built: .resolved
                case .failed(let error): .failed(error.reason)
                case .notChecked: .notChecked
                }
            recorder.recordNode(registration, owner: owner, status: status)
            outcomes.append((registration, owner, outcome))
        }

        // A type whose short name another type in the graph shares, registered or missing
        // (each component's `Config`), is listed under its full name, as the graph shows it;
        // otherwise two entries would read the same. Which types are missing is known only
        // now, so the lists are named, and sorted by those names, here. Argument types sort
        // as they are listed too (in full when two share a short name): by their short
        // names, two such entries would tie and follow the registration table's order.
        let shared = recorder.shortNamesSharedInGraph
        let named = outcomes.map { outcome in
            let registration = outcome.registration
            let name =
                shared.contains(registration.serviceTypeName)
                ? TypeName.describe(registration.qualifiedServiceTypeName, name: registration.key.name)
                : registration.displayName
            let argument = recorder.argumentTypeName(of: registration)
            return (key: (name, argument ?? "", registration.qualifiedServiceTypeName), argument, outcome)
        }
        .sorted { $0.key < $1.key }
        var failures: [ValidationError.Failure] = []
        var notChecked: [String] = []
        var missingSampleTypes: [String] = []
        var built: [String] = []
        for ((name, _, _), argument, (registration, owner, outcome)) in named {
            // A type may have a registration without an argument and others with one: the
            // argument type tells their entries apart.
            let displayName = argument.map { "\(name) (argument: \($0))" } ?? name
            switch outcome {
            case .built:
                built.append(displayName)
            case .failed(let error):
                failures.append(
                    ValidationError.Failure(
                        registration: displayName, origin: owner.originName(registration.origin), error: error))
            case .notChecked:
                notChecked.append(displayName)
                if let argument, !missingSampleTypes.contains(argument) {
                    missingSampleTypes.append(argument)
                }
            }
        }
        let error = ValidationError(
            failures: failures, notChecked: notChecked, passedCount: built.count,
            missingSampleTypes: missingSampleTypes.sorted())
        return (error, built)
    }
}
