import Synchronization

extension ServiceRegistry {
    /// Calls `observer` for every service a resolve on this registry (or on one of its
    /// children) builds or hands out again, until the observer is removed.
    ///
    /// For debugging and instrumentation: what gets built at launch, which singletons a
    /// screen pulls in, whether a `.weak` instance is reused. It hears the resolves of every
    /// task and thread, override scopes or not, so in tests that run in parallel, observe a
    /// registry the test makes for itself (a child of the shared one will do). The observer
    /// runs on the resolving thread, inside the resolve, so keep it short. A registry's
    /// observers are called in the order they were added, before those of its parents.
    /// What an observer resolves itself (and tasks it starts, not detached ones, which do
    /// not inherit task-local values) is not reported, so an observer that resolves never
    /// calls itself without end; nor is what ``validate()`` and ``dependencyGraph()`` build,
    /// in isolation, and drop. An observer hears of a dependency while the service that
    /// needs it is still being built, so an observer that resolves a `.singleton` or `.weak`
    /// service being built around it gets ``ResolutionError/Reason/circularDependency``
    /// (waiting would wait for itself), whose note says so. While any observer exists in
    /// the process, cached singletons take the slower, reporting path.
    ///
    /// The registry keeps the observer, and what it captures, until it is removed or the
    /// registry is freed; an observer that captures its registry (or an object that holds
    /// it) keeps the registry alive until it is removed.
    ///
    /// ```swift
    /// let token = registry.addResolutionObserver { event in
    ///     if event.outcome == .built { print("built \(event.serviceType)") }
    /// }
    /// defer { registry.removeResolutionObserver(token) }
    /// ```
    ///
    /// - Parameter observer: Called with each ``ResolutionEvent``.
    /// - Returns: A token for ``removeResolutionObserver(_:)``.
    @discardableResult
    public func addResolutionObserver(
        _ observer: @escaping @Sendable (ResolutionEvent) -> Void
    ) -> ResolutionObserverToken {
        let token = ResolutionObserverToken(id: ResolutionObservers.nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
        observers.withLock { $0.append(ResolutionObserver(id: token.id, call: observer)) }
        ResolutionObservers.count.wrappingAdd(1, ordering: .relaxed)
        FastPath.block()
        return token
    }

    /// Stops calling an observer added to this registry with ``addResolutionObserver(_:)``.
    ///
    /// Resolves that start after this returns no longer call the observer. A resolve
    /// running on another thread at that moment may have picked the observer up just
    /// before, and call it once more after this returns: removing does not wait for that
    /// call, which could need a lock the caller holds. So an observer must not capture what
    /// may be gone by then, such as an `unowned` reference to the object that removes it in
    /// its `deinit`; capture that `weak`.
    ///
    /// - Parameter token: What ``addResolutionObserver(_:)`` returned on this registry.
    ///   Removing it twice does nothing, and so does removing it on another registry (its
    ///   parent or a child included), which leaves the observer on.
    public func removeResolutionObserver(_ token: ResolutionObserverToken) {
        // The closure leaves the lock before it is released: what it captures may have a
        // deinit that resolves, or removes another observer.
        let removed = observers.withLock { observers in
            observers.firstIndex { $0.id == token.id }.map { observers.remove(at: $0) }
        }
        if removed != nil {
            ResolutionObservers.count.wrappingSubtract(1, ordering: .relaxed)
            FastPath.unblock()
        }
    }

    /// Reports what happened to `registration`, whose instance is in `result`, to the
    /// observers of this registry and its parents. Called on the registry the top-level
    /// resolve started on, so a child's observers also see what a parent's shared build
    /// resolves in the parent.
    func report(
        _ outcome: ResolutionEvent.Outcome, _ registration: AnyRegistration, instance result: UnsafeRawPointer,
        below parent: UnsafePointer<ResolutionFrame>?
    ) {
        guard !ResolutionObservers.isReporting else { return }
        let observers = lineage.flatMap { registry in registry.observers.withLock { $0 } }
        guard !observers.isEmpty else { return }
        var depth = 0
        var frame = parent
        while let current = frame {
            depth += 1
            frame = current.pointee.parent
        }
        let event = ResolutionEvent(
            outcome: outcome, name: registration.name,
            scope: registration.scope, depth: depth, instance: registration.object(of: result),
            service: registration.serviceType)
        ResolutionObservers.$isReporting.withValue(true) {
            for observer in observers {
                observer.call(event)
            }
        }
    }
}

/// An observer a registry keeps, with the id of its token.
///
/// A registry keeps these in an array, in the order they were added, so that observers are
/// called in that order: kept in a dictionary by id, they were called in the dictionary's
/// order, which the process's hashing seed changes from run to run.
struct ResolutionObserver: Sendable {
    let id: Int
    let call: @Sendable (ResolutionEvent) -> Void
}

/// Process-wide bookkeeping for resolution observers.
enum ResolutionObservers {
    /// How many observers exist; while none does, resolves report nothing and cached
    /// singletons take the fast path.
    static let count = Atomic<Int>(0)
    static let nextID = Atomic<Int>(1)

    @inline(__always)
    static var noneActive: Bool { count.load(ordering: .relaxed) == 0 }

    /// Whether the code running is an observer (or a task one started): its own resolves
    /// go unreported, so that reporting them cannot call the observer again without end.
    @TaskLocal static var isReporting = false
}
