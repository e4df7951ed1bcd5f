/// Building the errors a resolve throws. Only ever runs on a failing resolve, so it may
/// format type names and scan every registration.
extension ServiceRegistry {
    /// `.argumentMismatch` when the type and name are registered with other argument
    /// types, `.notRegistered` (with look-alike registrations) otherwise.
    ///
    /// - Parameter argument: Points to the given argument, an `argumentType`, if any.
    func missingRegistrationError(
        key: ServiceKey, serviceType: Any.Type, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>
    ) -> ResolutionError {
        let typeName = TypeName.of(serviceType)
        let requested = TypeName.describe(typeName, name: key.name)
        let path = resolution.pointee.path(below: parent)

        let note =
            registeredOnlyBelowNote(key: key, requested: requested, parent: parent, resolution: resolution)
            ?? overriddenElsewhereNote(key: key, requested: requested, overrides: resolution.pointee.overrides)
        // Leaves out a registration of the very key asked for, which another thread made
        // after the lookup missed it: this resolve came first, and the key was missing.
        let sameType = visibleRegistrations(overrides: resolution.pointee.overrides, of: key.service)
            .map(\.registration).filter { $0.key != key }
        let sameName = sameType.filter { $0.key.name == key.name }
        // The registrations the error lists: those under the name asked for, or else those
        // under other names.
        let shown = sameName.isEmpty ? sameType : sameName
        let names = ArgumentTypeNames(given: argumentType, registrations: shown)
        if !sameName.isEmpty {
            // The table's order follows where the runtime put the types, which changes from
            // run to run: no argument first, then by name, so the text and its fix do not.
            let registered = names.registered.sorted { lhs, rhs in
                guard let rhs else { return false }
                guard let lhs else { return true }
                return lhs < rhs
            }
            let convertsNote = argumentConversionNote(
                argumentType: argumentType, argument: argument, registrations: sameName, names: names)
            return ResolutionError(
                reason: .argumentMismatch, serviceType: typeName, name: key.name, path: path, requested: serviceType,
                givenArgumentType: names.given, registeredArgumentTypes: registered,
                note: ResolutionError.notes(
                    note, convertsNote, inferredMetatypeNote(registrations: sameName), sameNameNote(names)))
        }
        let similar = zip(shown, names.registered).map { registration, argumentName in
            argumentName.map { "\(registration.displayName) with argument `\($0)`" } ?? registration.displayName
        }
        return ResolutionError(
            reason: .notRegistered, serviceType: typeName, name: key.name, path: path, requested: serviceType,
            givenArgumentType: names.given, similarRegistrations: similar.sorted(), note: note)
    }

    /// The argument types one error shows, named so that no two of them read the same
    /// (see ``TypeName/distinguishing(_:)``).
    private struct ArgumentTypeNames {
        /// The type given to the resolve, if any.
        let given: String?
        /// The registrations' argument types, in their order; `nil` for none.
        let registered: [String?]

        init(given: Any.Type?, registrations: [AnyRegistration]) {
            let types = registrations.map(\.argumentType)
            var names = TypeName.distinguishing(([given] + types).compactMap { $0 })[...]
            func next(_ type: Any.Type?) -> String? { type == nil ? nil : names.popFirst() }
            self.given = next(given)
            self.registered = types.map(next)
        }
    }

    /// For an argument whose type converts to a registered argument type (a type that
    /// conforms to a protocol, a subclass, a value an optional wraps) without being it:
    /// registrations are found by the exact type, so the reader is told to pass it as that
    /// type. Only an argument whose value is of exactly the given type counts: for an
    /// existential, an optional or a tuple, the value's cast could succeed where the
    /// given type does not convert (a downcast, an unwrap), and `as` would not compile.
    private func argumentConversionNote(
        argumentType: Any.Type?, argument: UnsafeRawPointer?, registrations: [AnyRegistration],
        names: ArgumentTypeNames
    ) -> String? {
        guard let argumentType, let argument, let given = names.given,
            !(argumentType is any OptionalService.Type)
        else { return nil }
        func load<Given>(_: Given.Type) -> Any { argument.assumingMemoryBound(to: Given.self).pointee }
        let value = load(argumentType)
        guard ObjectIdentifier(type(of: value)) == ObjectIdentifier(argumentType), !given.hasPrefix("(") else {
            return nil
        }
        // The first by name, as the fix lists them: the registrations come in the table's
        // order, which changes from run to run.
        guard
            let target = zip(registrations, names.registered)
                .compactMap({ registration, name in registration.argumentCasts(value) ? name : nil }).min()
        else { return nil }
        return "The argument's type `\(given)` converts to `\(target)`, but a registration is found by the exact "
            + "argument type: pass it as `\(target)` (argument: value as \(target))."
    }

    /// For a given argument type that reads the same as a registered one even in full
    /// (``TypeName/distinguishing(_:)`` could not tell them apart): two local types of one
    /// name, declared in different functions, which the runtime names without the function.
    /// "Asked with `Page`, registered with `Page`" alone would read as no mismatch at all.
    private func sameNameNote(_ names: ArgumentTypeNames) -> String? {
        guard let given = names.given, names.registered.contains(given) else { return nil }
        return "`\(given)` names two types here, the argument's and the one a factory takes: local types of one "
            + "name, declared in different functions, read the same. A registration is found by the exact argument "
            + "type: pass a value of the type the factory was registered with."
    }

    /// For a registration whose argument type is `Any.Type`: what Swift infers for an
    /// argument parameter written without its type (`{ r, id in ... }`) whose only use is a
    /// string interpolation, so almost always a factory meant to take another type.
    private func inferredMetatypeNote(registrations: [AnyRegistration]) -> String? {
        guard registrations.contains(where: { $0.argumentType == Any.Type.self }) else { return nil }
        return "A factory that takes an `Any.Type` is usually one whose argument parameter is written without "
            + "its type, as in `{ r, id in ... }`, and used only in a string interpolation: Swift then infers "
            + "`Any.Type`. Write the type, as in `{ (r, id: String) in ... }`."
    }

    /// For a key missing here that a registry below this one registers (or overrides), on
    /// the way from the one the resolve started on: the lookup runs here because a shared
    /// service of this registry is being built, which takes its dependencies from this
    /// registry and its parents only. "Nothing is registered" alone would send the reader
    /// to the child, where it is registered already.
    private func registeredOnlyBelowNote(
        key: ServiceKey, requested: String, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>
    ) -> String? {
        // The key was missing here and above (this is the failed lookup's error), so one
        // the starting registry finds is provided below, unless it finds one made here or
        // above since the lookup missed it (the resolve came first: the key was missing).
        let start = resolution.pointee.registry.takeUnretainedValue()
        guard start !== self, let found = start.lookup(key, overrides: resolution.pointee.overrides),
            !lineage.contains(where: { $0 === found.owner })
        else { return nil }
        var frame = parent
        while let current = frame,
            !(current.pointee.registration.scope.isShared && current.pointee.registry === self)
        {
            frame = current.pointee.parent
        }
        guard let shared = frame?.pointee.registration else { return nil }
        return "`\(shared.displayName)`, a .\(shared.scope) service of a parent registry, is built from that "
            + "registry's registrations and its parents', never a child's, and `\(requested)` is provided only "
            + "below that registry (in the one this resolve started on, or between). Register `\(requested)` in the "
            + "parent registry too (or override it there), or register `\(shared.displayName)` in the child."
    }

    /// For a key missing here that an active override scope provides for a registry this
    /// lookup does not search (another root, such as `ServiceRegistry.shared`, or another
    /// registry's child): overrides reach only the registry they were made for and its
    /// children. "Nothing is registered" alone would send the reader to the override they
    /// wrote already; the usual slip is the `.overriding { }` trait, which overrides the
    /// shared registry, around code that resolves from a registry of its own.
    private func overriddenElsewhereNote(key: ServiceKey, requested: String, overrides: OverrideLayer?) -> String? {
        guard let overrides else { return nil }
        let searched = lineage.map(ObjectIdentifier.init)
        let elsewhere = overrides.stack.first { layer in
            !searched.contains(ObjectIdentifier(layer.registry))
                && layer.registrations.keys.contains { $0.service == key.service && $0.name == key.name }
        }
        guard let elsewhere else { return nil }
        let other = elsewhere.registry === ServiceRegistry.shared ? "`ServiceRegistry.shared`" : "another registry"
        return "An active override scope registers `\(requested)` for \(other), which this lookup does not "
            + "search (it searched the registry it ran in and its parents): an override reaches only resolves on "
            + "the registry it was made for and on that registry's children. `registry.withOverrides` and the "
            + "trait `.overriding(registry) { ... }` override that registry; `.overriding { ... }` overrides "
            + "`ServiceRegistry.shared`."
    }

    /// `.circularDependency` for meeting `registration` again below `parent`.
    ///
    /// The path above starts at the build this resolution continues, if any, also for a
    /// resolve at the top (one a factory started through the registry, which meets a build
    /// that another thread's resolve holds while it waits for this one), so that it shows
    /// the services of that build as well. Traced resolves included (the trace's full
    /// path, as ``cycleThroughRegistryError(_:enclosing:)`` shows it): the loop may close
    /// on one, and a path without it would not show where the loop starts.
    func cycleError(
        _ registration: AnyRegistration, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>, note: String?
    ) -> ResolutionError {
        // With another resolve's part in the loop (`note`), the factory did not resolve
        // its own service directly.
        let cycle = cycleShape(
            registration, metInItsOwnFactory: note == nil && parent?.pointee.registration === registration,
            throughRegistry: false)
        return ResolutionError(
            reason: .circularDependency, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: resolution.pointee.tracedPath(below: parent) + [registration],
            note: note ?? overrideMeetingItselfNote(registration, cycle: cycle), cycle: cycle)
    }

    /// `.circularDependency` for meeting `registration` again in a top-level resolve that
    /// continues `enclosing`: a factory on that path resolved through the registry rather
    /// than through its resolver, so the services it met through resolvers since
    /// `enclosing` was published are not on the path.
    ///
    /// Inside a resolution observer, which hears of a dependency while the service that
    /// needs it is still being built, the likelier cause is the observer resolving that
    /// service, and the note says so.
    func cycleThroughRegistryError(_ registration: AnyRegistration, enclosing: BuildTrace) -> ResolutionError {
        let throughRegistry =
            ResolutionObservers.isReporting
            ? "This resolve runs in a resolution observer, which hears of a dependency while the service "
                + "that needs it is still being built: an observer that resolves that service meets it again "
                + "(so may a factory on this path that resolves through the registry instead of its resolver "
                + "`r`); resolve it once the outer resolve has returned."
            : "A factory on this path resolves through the registry instead of its resolver `r`, "
                + "so the path may leave out services in between; resolving through `r` shows every step."
        let cycle = cycleShape(
            registration, metInItsOwnFactory: enclosing.path.last === registration, throughRegistry: true)
        return ResolutionError(
            reason: .circularDependency, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: enclosing.path + [registration],
            note: ResolutionError.notes(throughRegistry, overrideMeetingItselfNote(registration, cycle: cycle)),
            cycle: cycle)
    }

    /// What meeting `registration` again is, for its fix: an override met inside its own
    /// factory (which most likely resolves the service it overrides, to wrap the real
    /// one), another factory that resolved its own service, or a loop. Through the
    /// registry, services in between may be missing from the path, so only an override is
    /// told apart from a loop there.
    private func cycleShape(
        _ registration: AnyRegistration, metInItsOwnFactory: Bool, throughRegistry: Bool
    ) -> ResolutionError.Cycle {
        guard metInItsOwnFactory else { return .loop }
        let takesArgument = !registration.key.takesNoArgument
        if registration.origin == Installing.overrideRegistration {
            return .overrideOwnFactory(takesArgument: takesArgument)
        }
        return throughRegistry ? .loop : .ownFactory(takesArgument: takesArgument)
    }

    /// The note for an override met again inside its own build: the usual advice for a
    /// cycle (resolve the other service later) would meet the override again.
    private func overrideMeetingItselfNote(_ registration: AnyRegistration, cycle: ResolutionError.Cycle) -> String? {
        guard case .overrideOwnFactory = cycle else { return nil }
        let service = registration.displayName
        return "`\(service)` here is an override, met again while it is built: an override replaces its service "
            + "for every resolve in the scope, its own factory's too. To wrap the real `\(service)`, resolve it "
            + "in the configure closure, before the scope starts, and capture it; resolving it any later meets "
            + "the override again."
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
    /// Whether the factory of the service in `frame` passes this error on as it is, rather
    /// than wrapping it as its own failure: when its path starts with the path down to
    /// `frame` (what `frame.registrations` lists), registration for registration (a
    /// resolve below the service made it), and for any cycle.
    ///
    /// A cycle is reported as a cycle wherever it is met. A path through the registry lists
    /// only the services met through the registry and inside shared builds, so whether the
    /// factory's service is on the loop cannot always be told from it, and wrapping the
    /// cycle as `.factoryFailed` would hide what is wrong.
    ///
    /// The path is compared where it lies, frame by frame, rather than copied into an
    /// array: a failure at the bottom of a chain of `n` services is checked here at each of
    /// the `n` levels above it, and copying each level's path cost `n²` retains and
    /// releases (a resolve failing at the bottom of a chain of 1,000 took 17 ms with the
    /// copies, 4 ms without them).
    func isPassedOn(by frame: UnsafePointer<ResolutionFrame>) -> Bool {
        if reason == .circularDependency { return true }
        let registrations = self.registrations
        let shownAbove = frame.pointee.resolution.pointee.enclosingBuild?.shownPath ?? []
        var depth = 0
        var next: UnsafePointer<ResolutionFrame>? = frame
        while let current = next {
            depth += 1
            next = current.pointee.parent
        }
        var index = shownAbove.count + depth
        guard registrations.count >= index else { return false }
        // The frames, innermost first, against the path's entries from `frame`'s up.
        next = frame
        while let current = next {
            index -= 1
            guard registrations[index].id == ObjectIdentifier(current.pointee.registration) else { return false }
            next = current.pointee.parent
        }
        return zip(registrations, shownAbove).allSatisfy { $0.id == ObjectIdentifier($1) }
    }
}

extension ResolutionError {
    /// The notes given, one per line, or `nil` when there is none.
    static func notes(_ notes: String?...) -> String? {
        let given = notes.compactMap { $0 }
        return given.isEmpty ? nil : given.joined(separator: "\n  ")
    }
}
