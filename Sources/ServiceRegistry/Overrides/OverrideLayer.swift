import Synchronization

/// One active override scope: the registrations it adds for one registry, and the cells
/// where it caches the shared instances built inside it.
///
/// While any scope is active, every `.singleton` or `.weak` instance built — of any
/// registry, since a factory may reach the overridden registry directly — is cached in the
/// innermost scope, so nothing built from a mock outlives the scope.
///
/// Layers form a task-local stack (innermost first). A resolve reads the stack once, at
/// the top, and only when some scope is active anywhere in the process.
final class OverrideLayer: Sendable {
    /// The registry the scope overrides.
    let registry: ServiceRegistry
    /// The scope's registrations, fixed when the scope starts.
    let registrations: [ServiceKey: AnyRegistration]
    /// The same registrations as a list, when there are few: every resolve inside the
    /// scope looks its key up here, and comparing a few keys' stored table hashes costs
    /// less than hashing the key with `Hasher` for the dictionary (about 20 ns).
    private let fewRegistrations: [AnyRegistration]?
    /// The scope this one is nested in.
    let parent: OverrideLayer?
    /// Records what validation observes; `nil` for a user's scope.
    let recorder: DependencyRecorder?
    /// Whether this is validation's layer or a scope nested in it (one a factory opens
    /// while validation runs it): what is built here is built in isolation and dropped.
    let isInValidation: Bool
    /// Shared instances built inside the scope, by the registration they were built from;
    /// `nil` once ``dropCachedInstances()`` has closed the scope's cache.
    private let cells = Lock<Cells?>(Cells())

    struct Cells {
        var byRegistration: [ObjectIdentifier: ScopedCell] = [:]
        /// ``registrationsGone`` when this scope last dropped the cells of registrations
        /// that are gone.
        var sweptAfter = OverrideLayer.registrationsGone.load(ordering: .relaxed)
    }

    /// A cell of this scope and the registration whose instance it caches.
    ///
    /// It frees the instance when it goes, so a resolve holds it for as long as it uses
    /// ``cell``: ``dropCachedInstances()`` and ``dropCells(of:)`` (a resolve may still be
    /// building from the registration just replaced) may let go of it meanwhile, from
    /// another task.
    ///
    /// ``dropCells(of:)`` leaves a cell that ``marksReplacement`` in the dropped one's
    /// place, which caches nothing: a resolve that found the registration just before it
    /// was replaced must not find the key uncached and build the replaced registration a
    /// second time.
    final class ScopedCell: Sendable {
        /// The registration whose instance the cell caches, held weakly: re-registering
        /// its key must drop the instance it cached in the registry, also while a scope
        /// that resolved it lives on (in a task it started). Once it is gone, its identity
        /// may be a later registration's, so a cell is found by identity and checked with
        /// ``caches(_:)``.
        private weak let registration: AnyRegistration?
        /// Frees the instance, whose type only the registration's class knows.
        private let registrationClass: AnyRegistration.Type
        let cell = InstanceCell()
        /// Whether this cell stands for an instance dropped when its registration was
        /// replaced: a resolve that finds it looks its key up again.
        let marksReplacement: Bool

        init(registration: AnyRegistration, marksReplacement: Bool = false) {
            self.registration = registration
            registrationClass = type(of: registration)
            self.marksReplacement = marksReplacement
        }

        /// Whether this cell caches the instance of `registration`.
        ///
        /// Reading the weak reference retains what it points to for a moment; safe under a
        /// lock, since that is `registration` itself (which the caller holds) or nothing.
        func caches(_ registration: AnyRegistration) -> Bool {
            self.registration === registration
        }

        /// The registration, or `nil` once it is gone (no resolve can reach the cell's
        /// instance again).
        ///
        /// A strong reference, which may be the last one: the code that replaced the
        /// registration may let go of it while this is read. Release it outside any lock,
        /// since the registration's `deinit` frees its cached instance and its factory,
        /// whose own `deinit`s may resolve.
        var liveRegistration: AnyRegistration? {
            registration
        }

        deinit {
            registrationClass.destroyInstance(in: cell)
        }
    }

    /// How many registrations have gone while some scope lived. A scope whose cells are
    /// keyed by a registration that is gone (replaced, or its registry freed) drops them
    /// the next time it makes or finds a cell after the count has moved: no resolve can
    /// reach their instances again, and a scope that lives long (an app run inside one, a
    /// captured ``OverrideScope``) in which keys are registered and resolved again and
    /// again, or child registries made and dropped, would otherwise keep every one of them
    /// until it ended.
    static let registrationsGone = Atomic<Int>(0)

    /// Counts a registration that is going in ``registrationsGone``, if any scope lives.
    /// Called from its `deinit`, once weak references to it read `nil`.
    static func registrationIsGone() {
        if !noneActive {
            registrationsGone.wrappingAdd(1, ordering: .relaxed)
        }
    }

    init(
        registry: ServiceRegistry, registrations: [ServiceKey: AnyRegistration], parent: OverrideLayer?,
        recorder: DependencyRecorder? = nil
    ) {
        self.registry = registry
        self.registrations = registrations
        fewRegistrations = registrations.count <= Self.scanLimit ? Array(registrations.values) : nil
        self.parent = parent
        self.recorder = recorder
        isInValidation = recorder != nil || parent?.isInValidation == true
        Self.liveLayers.wrappingAdd(1, ordering: .relaxed)
        FastPath.block()
    }

    deinit {
        Self.liveLayers.wrappingSubtract(1, ordering: .relaxed)
        FastPath.unblock()
    }

    @TaskLocal static var current: OverrideLayer?

    /// How many layers exist in the process; while there are none, no task can be inside a
    /// scope and resolves skip the task-local read. Counting layers rather than running
    /// `withOverrides` calls keeps a task started inside a scope (which keeps the layer)
    /// seeing its overrides after the scope returns.
    static let liveLayers = Atomic<Int>(0)

    @inline(__always)
    static var noneActive: Bool { liveLayers.load(ordering: .relaxed) == 0 }

    /// The stack of scopes the calling code runs in.
    @inline(__always)
    static var active: OverrideLayer? { noneActive ? nil : current }

    /// The layers from this one outwards.
    var stack: some Sequence<OverrideLayer> {
        sequence(first: self) { $0.parent }
    }

    /// The most registrations a scope keeps in ``fewRegistrations``: a scope usually
    /// overrides a handful of services, and scanning past this many costs about as much
    /// as one hash.
    private static let scanLimit = 8

    /// The innermost registration for `key` that a scope adds to `registry`.
    func registration(for key: ServiceKey, in registry: ServiceRegistry) -> AnyRegistration? {
        let hash = key.tableHash
        for layer in stack where layer.registry === registry {
            if let few = layer.fewRegistrations {
                if let registration = few.first(where: { $0.matches(key, hash: hash) }) { return registration }
            } else if let registration = layer.registrations[key] {
                return registration
            }
        }
        return nil
    }

    /// Whether a scope adds to `registry` a registration for the service type `service`
    /// under `name`, whatever argument it takes: what a resolve of an optional type asks,
    /// on every `if let p: P = try? registry.resolve()`, so it builds no array.
    func hasRegistration(of service: ObjectIdentifier, name: String?, in registry: ServiceRegistry) -> Bool {
        stack.contains { layer in
            layer.registry === registry && layer.registrations.keys.contains { $0.service == service && $0.name == name }
        }
    }

    /// Every registration the scopes add to `registry`, innermost first.
    func registrations(in registry: ServiceRegistry) -> [AnyRegistration] {
        stack.filter { $0.registry === registry }.flatMap { $0.registrations.values }
    }

    /// This scope's cell for `registration`, made on first use; once the scope's cache is
    /// closed, a fresh cell that nothing keeps, so the instance goes with its resolve.
    /// `nil` when ``dropCells(of:)`` dropped the instance this scope cached for
    /// `registration`, which has been replaced: the caller looks its key up again.
    ///
    /// Drops the cells of registrations that are gone first, if any has gone since this
    /// scope last looked (see ``registrationsGone``).
    func cell(for registration: AnyRegistration) -> ScopedCell? {
        var swept: [ObjectIdentifier: ScopedCell]?
        var replaced: ScopedCell?
        // The registrations the sweep found alive, held until the lock is released: the
        // sweep's may be the last reference to one (see `ScopedCell.liveRegistration`).
        var checked: [AnyRegistration] = []
        let scoped = cells.withLock { cells -> ScopedCell? in
            guard var current = cells else { return ScopedCell(registration: registration) }
            cells = nil  // so `current` is the dictionary's only reference, changed in place
            defer { cells = current }
            // Read under the lock, so that a thread holding an older count cannot set
            // `sweptAfter` back and make the next call sweep again.
            let gone = Self.registrationsGone.load(ordering: .relaxed)
            if current.sweptAfter != gone {
                current.sweptAfter = gone
                swept = current.byRegistration
                checked.reserveCapacity(swept!.count)
                current.byRegistration = swept!.filter { entry in
                    guard let live = entry.value.liveRegistration else { return false }
                    checked.append(live)
                    return true
                }
                if current.byRegistration.count == swept!.count { swept = nil }
            }
            let id = ObjectIdentifier(registration)
            if let existing = current.byRegistration[id] {
                if existing.caches(registration) { return existing.marksReplacement ? nil : existing }
                // A registration that is gone had this identity: its instance goes too.
                replaced = existing
            }
            let scoped = ScopedCell(registration: registration)
            current.byRegistration[id] = scoped
            return scoped
        }
        // Freed here, outside the lock: an instance's deinit may resolve in this scope.
        withExtendedLifetime((swept, replaced, checked)) {}
        return scoped
    }

    /// How many cells this scope keeps that cache an instance (not those that mark a
    /// replacement); for tests.
    var cellCount: Int {
        cells.withLock { $0?.byRegistration.values.count { !$0.marksReplacement } ?? 0 }
    }

    /// How many cells this scope keeps that mark a replacement; for tests.
    var replacementMarkCount: Int {
        cells.withLock { $0?.byRegistration.values.count { $0.marksReplacement } ?? 0 }
    }

    /// Drops the instance that the scopes from this one outwards cached for
    /// `registration`, which has just been replaced: no resolve that looks its key up from
    /// now on can reach it.
    ///
    /// A resolve that looked the key up just before may still use the registration: the
    /// dropped cell's place is taken by one that marks the replacement, so that resolve
    /// looks the key up again rather than build the replaced registration once more. The
    /// mark goes, like any cell, once the registration is gone (see ``registrationsGone``).
    func dropCells(of registration: AnyRegistration) {
        let id = ObjectIdentifier(registration)
        let dropped = stack.compactMap { layer in
            layer.cells.withLock { cells -> ScopedCell? in
                guard let cell = cells?.byRegistration[id], cell.caches(registration), !cell.marksReplacement else {
                    return nil
                }
                cells?.byRegistration[id] = ScopedCell(registration: registration, marksReplacement: true)
                return cell
            }
        }
        // Freed here, outside the locks: an instance's deinit may resolve in this scope.
        withExtendedLifetime(dropped) {}
    }

    /// Frees the shared instances cached in this scope and caches none from now on,
    /// though the scope itself may live on.
    ///
    /// For validation's scope, whose instances are built in isolation and dropped: a task
    /// that a factory starts inherits the scope and keeps it, so an instance that holds
    /// such a task (a poller that runs until it is freed) and the scope caching it would
    /// hold each other for good, with the registry the scope keeps. Such a task that
    /// resolves a shared service later, in the scope, gets one built for that resolve
    /// alone, which the scope does not keep either.
    func dropCachedInstances() {
        let dropped = cells.withLock { cells in
            let taken = cells
            cells = nil
            return taken
        }
        // Freed here, outside the lock: an instance's deinit may resolve in this scope.
        withExtendedLifetime(dropped) {}
    }
}
