import Synchronization

/// How one resolve travels: key → lookup (override scopes, this registry, its parents) →
/// cycle check → scope → cache or factory. See Docs/Design.md.
///
/// Instances travel as raw pointers: `result` points to uninitialized memory sized for
/// the service, which a successful resolve initializes. The registration does every typed
/// operation, so this code is not generic.
extension ServiceRegistry {
    /// A registration found for a key, with where it was found.
    struct Found {
        let registration: AnyRegistration
        /// The registry that holds the registration (or whose override scope does).
        /// Strong, though the registry the resolve started in (itself or a child) keeps it
        /// alive: handing an `unowned(unsafe)` reference on as an argument retains it.
        let owner: ServiceRegistry
        /// The innermost active override scope: shared instances are cached there instead
        /// of in the registration, so they never leak out of it.
        let cacheLayer: OverrideLayer?
    }

    /// Finds the registration for `key`: in each registry from this one up to the root,
    /// first in the active override scopes for that registry (innermost first), then in
    /// the registry's own table.
    func lookup(_ key: ServiceKey, overrides: OverrideLayer?) -> Found? {
        for registry in lineage {
            if let overrides, let registration = overrides.registration(for: key, in: registry) {
                return Found(registration: registration, owner: registry, cacheLayer: overrides)
            }
            if let registration = registry.table.registration(for: key) {
                return Found(registration: registration, owner: registry, cacheLayer: overrides)
            }
        }
        return nil
    }

    /// Resolves `key` as part of `resolution`, below `parent` (nil at the top), into `result`.
    ///
    /// An optional service type with nothing registered for it resolves its wrapped type
    /// (see ``OptionalService``).
    func resolve(
        key: ServiceKey, serviceType: Any.Type, argumentType: Any.Type?, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, copyingCached copy: InstanceCopy, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) {
        if resolution.pointee.overrides == nil, ResolutionObservers.noneActive {
            switch table.lookup(key, copyingSingletonInto: result, using: copy) {
            case .copiedSingleton:
                return
            case .found(let registration):
                return try resolve(
                    registration, owner: self, cacheLayer: nil, key: key, argument: argument,
                    into: result, parent: parent, resolution: resolution)
            case .countedTopLevel:
                fatalError("a lookup that counts nothing returned a counted registration")
            case .missing:
                break
            }
        }
        let overrides = resolution.pointee.overrides
        while true {
            guard let found = lookup(key, overrides: overrides) else {
                if let optional = optionalFallback(for: key, serviceType: serviceType, overrides: overrides) {
                    return try optional.resolveWrapped(
                        in: self, name: key.name, argumentType: argumentType, argument: argument, into: result,
                        parent: parent, resolution: resolution)
                }
                let error = missingRegistrationError(
                    key: key, serviceType: serviceType, argumentType: argumentType, argument: argument,
                    parent: parent, resolution: resolution)
                overrides?.recorder?.recordFailure(
                    of: key, serviceType: serviceType, in: self, overrides: overrides, below: parent, error: error)
                throw error
            }
            try resolve(
                found.registration, owner: found.owner, cacheLayer: found.cacheLayer, key: key, argument: argument,
                into: result, parent: parent, resolution: resolution)
            // Looked up again when the registration found was replaced meanwhile, after the
            // override scope had cached (and dropped) its instance.
            guard resolution.pointee.metReplacedRegistration else { return }
            resolution.pointee.metReplacedRegistration = false
        }
    }

    /// Resolves `registration`, found for `key` in `owner` (or in the override scope
    /// `cacheLayer`), into `result`: cycle check, then scope.
    ///
    /// When `registration` was replaced after `cacheLayer` had cached its instance, which
    /// the scope dropped then (see ``OverrideLayer/dropCells(of:)``), this builds nothing,
    /// leaves `result` uninitialized and sets the resolution's
    /// ``Resolution/metReplacedRegistration``: the caller looks `key` up again. Never
    /// without a `cacheLayer`, so the paths without one need not check.
    ///
    /// The registration comes as its own argument rather than inside a ``Found``: the
    /// caller holds it, and a copy into a struct would cost a retain and a release on
    /// every resolve.
    ///
    /// - Parameter othersRunning: For a top-level resolve of a `.transient` or `.graph`
    ///   registration that the caller counted (and will end), what
    ///   ``AnyRegistration/beginTopLevelResolve()`` returned; `nil` to count it here.
    func resolve(
        _ registration: AnyRegistration, owner: ServiceRegistry, cacheLayer: OverrideLayer?, key: ServiceKey,
        argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>,
        othersRunning: UInt? = nil
    ) throws(ResolutionError) {
        let overrides = resolution.pointee.overrides
        if let parent, parent.contains(registration) {
            overrides?.recorder?.recordCycle(at: registration, below: parent)
            throw cycleError(registration, parent: parent, resolution: resolution, note: nil)
        }
        overrides?.recorder?.recordEdge(to: registration, owner: owner, below: parent)
        if parent == nil, let enclosing = resolution.pointee.enclosingBuild, enclosing.contains(registration) {
            throw cycleThroughRegistryError(registration, enclosing: enclosing)
        }

        let outcome: ResolutionEvent.Outcome
        if let recorder = overrides?.recorder {
            outcome = try resolveRecordingFailure(
                registration, owner: owner, cacheLayer: cacheLayer, argument: argument, into: result, parent: parent,
                resolution: resolution, recorder: recorder)
        } else {
            outcome = try resolveInScope(
                registration, owner: owner, cacheLayer: cacheLayer, argument: argument, into: result, parent: parent,
                resolution: resolution, othersRunning: othersRunning)
        }
        if cacheLayer != nil, resolution.pointee.metReplacedRegistration { return }
        // Validation's builds are not reported: they are made in isolation and dropped,
        // and an observer counting builds would take them for the app's. So are those in a
        // scope a factory opens while validation runs it.
        if !ResolutionObservers.noneActive, overrides?.isInValidation != true {
            resolution.pointee.registry._withUnsafeGuaranteedRef {
                $0.report(outcome, registration, instance: result, below: parent)
            }
        }
    }

    /// Resolves `registration` as its scope says: built afresh, taken from this
    /// resolution (`.graph`), or shared (`.singleton`, `.weak`); or nothing, when
    /// `cacheLayer` dropped its instance because it was replaced (see
    /// ``resolve(_:owner:cacheLayer:key:argument:into:parent:resolution:othersRunning:)``).
    @inline(__always)
    private func resolveInScope(
        _ registration: AnyRegistration, owner: ServiceRegistry, cacheLayer: OverrideLayer?,
        argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>,
        othersRunning counted: UInt? = nil
    ) throws(ResolutionError) -> ResolutionEvent.Outcome {
        switch registration.scope.kind {
        case .transient, .graph:
            let countsHere = parent == nil && counted == nil
            #if INTERLEAVING_HOOKS
            if countsHere { InterleavingHooks.run(InterleavingHooks.beforeRetainedBegin, for: registration) }
            #endif
            let othersRunning = counted ?? (countsHere ? registration.beginTopLevelResolve() : 0)
            defer {
                // The caller holds the registration, so this release never frees it.
                if countsHere, registration.endTopLevelResolve() {
                    Unmanaged.passUnretained(registration).release()
                }
            }
            if othersRunning < Self.untracedTopLevelResolves {
                return try resolveUnshared(
                    registration, argument: argument, into: result, parent: parent, resolution: resolution)
            }
            return try resolveTraced(registration, argument: argument, into: result, resolution: resolution)
        case .singleton, .weak:
            guard let cacheLayer else {
                return try buildShared(
                    registration, cell: registration.cell, owner: owner, argument: argument, into: result,
                    parent: parent, resolution: resolution)
            }
            // Held until the instance is copied out: it frees the instance when it goes.
            guard let scoped = cacheLayer.cell(for: registration) else {
                resolution.pointee.metReplacedRegistration = true
                return .reused  // not reported: the caller looks the key up again
            }
            defer { withExtendedLifetime(scoped) {} }
            return try buildShared(
                registration, cell: scoped.cell, owner: owner, argument: argument, into: result, parent: parent,
                resolution: resolution)
        }
    }

    /// ``resolveInScope(_:owner:cacheLayer:argument:into:parent:resolution:othersRunning:)`` during
    /// validation: a registration that fails is recorded as failed wherever it is met,
    /// not only when validation builds it on its own (which it never does for a parent's
    /// registration that the child shadows, but a parent's singleton still uses).
    ///
    /// Only failures that do not depend on the caller count: not a cycle (the same
    /// registration may build fine as a root), and nothing about a factory that takes an
    /// argument (its failure may be the argument's; validation judges it by its own build
    /// with a sample argument, or lists it as not checked).
    /// A caller that catches such a failure (`try?`) must not turn its node red. An
    /// argument mismatch counts: it comes from what the factory asks for, whoever asks.
    @inline(never)
    private func resolveRecordingFailure(
        _ registration: AnyRegistration, owner: ServiceRegistry, cacheLayer: OverrideLayer?,
        argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>,
        recorder: DependencyRecorder
    ) throws(ResolutionError) -> ResolutionEvent.Outcome {
        do {
            return try resolveInScope(
                registration, owner: owner, cacheLayer: cacheLayer, argument: argument, into: result, parent: parent,
                resolution: resolution)
        } catch {
            if registration.key.takesNoArgument, error.reason != .circularDependency {
                recorder.recordNode(registration, owner: owner, status: .failed(error.reason))
            }
            throw error
        }
    }

    /// A `.transient` or `.graph` resolve: built afresh, or, for `.graph`, taken from
    /// this resolution if it built one already.
    @inline(__always)
    private func resolveUnshared(
        _ registration: AnyRegistration, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> ResolutionEvent.Outcome {
        if registration.scope.kind == .graph {
            return try resolveGraph(
                registration, argument: argument, into: result, parent: parent, resolution: resolution)
        }
        try build(registration, in: self, argument: argument, into: result, parent: parent, resolution: resolution)
        return .built
    }

    /// How many top-level resolves of one `.transient` or `.graph` registration may run
    /// at once before the next one is traced (see
    /// ``resolveTraced(_:argument:into:resolution:)``).
    ///
    /// Each untraced level of a factory that resolves itself through the registry costs
    /// stack (about 2.3 kB in a release build and 12.5 kB in a debug one on Linux), and a
    /// cycle of `n` such services is caught about `n × (limit + 1)` levels deep; threads that
    /// merely resolve one service at the same moment pay for tracing only past the limit.
    static let untracedTopLevelResolves: UInt = 4

    /// A top-level resolve of a `.transient` or `.graph` registration that has
    /// ``untracedTopLevelResolves`` or more others of it running.
    ///
    /// A factory that resolves its own service through the registry, rather than through
    /// its resolver, starts a fresh top-level resolve each time: no frame links it to the
    /// resolve it runs in, so the frames cannot show the cycle and, unchecked, it would
    /// recurse until the stack runs out. Its resolves pile up, unfinished, on one
    /// registration. Past the limit, each one publishes its path the way a shared build
    /// does (the task-local ``BuildTrace``) and fails if the path it runs inside already
    /// holds its registration. Only the thread's own enclosing resolves are on that path,
    /// so many threads resolving the same service at once are never mistaken for a cycle;
    /// they only pay for the tracing.
    @inline(never)
    private func resolveTraced(
        _ registration: AnyRegistration, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> ResolutionEvent.Outcome {
        let enclosing = BuildTrace.current
        if let enclosing, enclosing.contains(registration) {
            throw cycleThroughRegistryError(registration, enclosing: enclosing)
        }
        var outcome = Result<ResolutionEvent.Outcome, ResolutionError>.success(.built)
        // The resolve itself is not shown: see BuildTrace.shownPath.
        BuildTrace.publishing(
            context: resolution.pointee.context, path: (enclosing?.path ?? []) + [registration],
            shownPath: enclosing?.shownPath ?? []
        ) {
            do throws(ResolutionError) {
                outcome = .success(
                    try resolveUnshared(
                        registration, argument: argument, into: result, parent: nil, resolution: resolution))
            } catch {
                outcome = .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The `.graph` scope: the instance this resolution already built, or a new one it
    /// keeps for the rest of the resolution. Out of line: inlined, its bookkeeping made
    /// every resolve retain the registration once more.
    @inline(never)
    private func resolveGraph(
        _ registration: AnyRegistration, argument: UnsafeRawPointer?, into result: UnsafeMutableRawPointer,
        parent: UnsafePointer<ResolutionFrame>?, resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> ResolutionEvent.Outcome {
        let key = GraphInstanceKey(registration: ObjectIdentifier(registration), registry: ObjectIdentifier(self))
        if let existing = resolution.pointee.graphInstance(for: key) {
            registration.copyInstance(from: existing.storage, to: result)
            return .reused
        }
        try build(registration, in: self, argument: argument, into: result, parent: parent, resolution: resolution)
        resolution.pointee.keep(GraphInstance(key: key, registration: registration, copying: result))
        return .built
    }

    /// Runs the factory of `registration` in a new frame below `parent`.
    private func build(
        _ registration: AnyRegistration, in registry: ServiceRegistry, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) {
        var frame = ResolutionFrame(registration: registration, parent: parent, registry: registry, resolution: resolution)
        try withUnsafePointer(to: &frame) { frame throws(ResolutionError) in
            do {
                try registration.invoke(Resolver(frame: frame), argument: argument, into: result)
            } catch {
                throw factoryFailure(error, of: registration, in: frame)
            }
        }
    }

    /// What a resolve throws when a factory threw `error`: a ``ResolutionError`` whose path
    /// runs through the factory's service, or any cycle, as it is; anything else wrapped as
    /// `.factoryFailed`, with the path to the factory's service and `error` as its
    /// `underlyingError` (see ``ResolutionError/isPassedOn(by:)``).
    ///
    /// A resolve through `r` runs through the factory's frame, and so does one through the
    /// registry in the factory of a `.singleton` or `.weak` service (it continues the
    /// build's path). A resolve through the registry from a `.transient` or `.graph`
    /// factory starts a path of its own, without the factory's service, and a
    /// `ResolutionError` from anywhere else (one the factory kept from an earlier resolve)
    /// names some other path: both are the factory's failure, unless it is a cycle. Out of
    /// line, like
    /// ``resolveGraph(_:argument:into:parent:resolution:)``, to keep the registration's
    /// reference count out of the successful path.
    @inline(never)
    private func factoryFailure(
        _ error: any Error, of registration: AnyRegistration, in frame: UnsafePointer<ResolutionFrame>
    ) -> ResolutionError {
        if let error = error as? ResolutionError, error.isPassedOn(by: frame) { return error }
        return ResolutionError(
            reason: .factoryFailed, serviceType: registration.serviceTypeName, name: registration.key.name,
            path: frame.registrations, underlyingError: error)
    }

    /// Copies the shared instance in `cell` into `result`, building it exactly once if needed.
    /// Returns whether this resolve built it or found it built.
    ///
    /// The builder claims the cell from the ``BuildCoordinator`` while holding a fresh
    /// ``BuildLock`` and keeps holding it for the whole build; others block on that lock
    /// and then read the cell. A failed build caches nothing, and whoever looks next
    /// builds again. Shared instances resolve their dependencies through the registry
    /// that owns the registration.
    private func buildShared(
        _ registration: AnyRegistration, cell: InstanceCell, owner: ServiceRegistry, argument: UnsafeRawPointer?,
        into result: UnsafeMutableRawPointer, parent: UnsafePointer<ResolutionFrame>?,
        resolution: UnsafeMutablePointer<Resolution>
    ) throws(ResolutionError) -> ResolutionEvent.Outcome {
        let isSingleton = registration.scope.kind == .singleton
        func copyCached() -> Bool {
            if isSingleton {
                guard let storage = cell.singletonStorage else { return false }
                registration.copyInstance(from: storage, to: result)
                return true
            }
            guard let object = cell.weakObject else { return false }
            return registration.copyInstance(of: object, to: result)
        }

        if copyCached() { return .reused }
        #if INTERLEAVING_HOOKS
        InterleavingHooks.run(InterleavingHooks.beforeSharedClaim, for: registration)
        #endif
        if resolution.pointee.context == 0 {
            resolution.pointee.context = BuildCoordinator.makeContext()
        }
        let context = resolution.pointee.context
        let cellID = ObjectIdentifier(cell)

        while true {
            let lock = BuildLock()
            var outcome = SharedBuildOutcome.built
            var builtHere = false
            lock.mutex.withLock { _ in
                switch BuildCoordinator.claim(cellID, context: context, lock: lock, registration: registration) {
                case .build:
                    defer { BuildCoordinator.finish(cellID) }
                    if copyCached() { return }
                    builtHere = true
                    let path = resolution.pointee.tracedPath(below: parent) + [registration]
                    let shownPath = resolution.pointee.path(below: parent) + [registration]
                    BuildTrace.activeBuilds.wrappingAdd(1, ordering: .relaxed)
                    defer { BuildTrace.activeBuilds.wrappingSubtract(1, ordering: .relaxed) }
                    BuildTrace.publishing(context: context, path: path, shownPath: shownPath) {
                        do throws(ResolutionError) {
                            try build(
                                registration, in: owner, argument: argument, into: result, parent: parent,
                                resolution: resolution)
                            if isSingleton {
                                cell.publishSingleton(registration.storeInstance(copying: result))
                            } else if let object = registration.object(of: result) {
                                cell.storeWeak(object)
                            }
                        } catch {
                            outcome = .failed(error)
                        }
                    }
                case .wait(let builder):
                    outcome = .wait(builder)
                case .cycle(let other):
                    // `other` is a build this resolve holds, which the resolve building
                    // `registration` waits for; `registration` itself when this resolve
                    // met its own build, a cycle the path shows without a note.
                    let note = other === registration
                        ? nil
                        : "`\(registration.displayName)` is being built by another resolve that waits for "
                            + "`\(other.displayName)`, which this resolve is building, so the two depend on each "
                            + "other (perhaps on different threads)."
                    outcome = .failed(cycleError(registration, parent: parent, resolution: resolution, note: note))
                }
            }
            switch outcome {
            case .built:
                return builtHere ? .built : .reused
            case .failed(let error):
                throw error
            case .wait(let builder):
                builder.waitForBuilder()
                BuildCoordinator.stopWaiting(context)
                if copyCached() { return .reused }
            }
        }
    }
}

/// How one attempt at building a shared instance ended.
private enum SharedBuildOutcome {
    /// `result` holds the instance.
    case built
    case failed(ResolutionError)
    /// Another resolve is building it; wait for this lock, then look again.
    case wait(BuildLock)
}
