/// One service being built, on the stack of the thread building it.
///
/// Frames link to their parent, so a nested resolve sees the whole resolution path (for
/// cycle detection and error messages) without allocating: a frame lives in the stack of
/// the `resolve` call that built it, and the ``Resolver`` that points at it is
/// non-copyable and only borrowed by the factory, so it cannot outlive the frame.
///
/// Its references are `unowned(unsafe)`, so making a frame costs no retain: the frame lives
/// only inside ``ServiceRegistry/build(_:in:argument:into:parent:resolution:)``, whose
/// caller holds the registration (a table lookup's retained result, a ``ServiceRegistry/Found``,
/// or a scope's registration) and the registry (the resolve's `self`, or a `Found`'s
/// strong owner) for the whole call, and every pointer to the frame (a ``Resolver``, a
/// child frame's `parent`) is gone when it returns. Nothing that outlives a resolve (a
/// ``BuildTrace``, a ``ResolutionError``) copies these references out unretained.
struct ResolutionFrame {
    /// The registration being built.
    unowned(unsafe) let registration: AnyRegistration
    /// The frame of the service that asked for this one; `nil` at the top.
    let parent: UnsafePointer<ResolutionFrame>?
    /// The registry nested resolves look in.
    unowned(unsafe) let registry: ServiceRegistry
    /// Everything one top-level resolve shares: graph-scoped instances, override layers,
    /// the context number, and the path it continues.
    let resolution: UnsafeMutablePointer<Resolution>
}

/// What every nested resolve of one top-level `resolve` call shares.
///
/// Lives on the stack of the top-level call (so a resolve allocates nothing of its own);
/// frames point at it.
///
/// Trivial to destroy: its references are unretained (the `withResolution` that makes it
/// holds them for as long as it lives) and its `.graph` instances are freed by
/// hand. With a strong reference or a dictionary in it, every top-level resolve destroyed
/// it through its type's value witness: an indirect call and three releases of `nil`.
struct Resolution {
    /// The registry the top-level resolve started on. Its observers (and its parents')
    /// hear of every service the resolution resolves, also those a parent's shared build
    /// resolves in the parent. Unretained: the top-level call runs on it.
    let registry: Unmanaged<ServiceRegistry>
    /// The override scopes active where the top-level resolve started.
    @inline(__always)
    var overrides: OverrideLayer? { overridesReference?.takeUnretainedValue() }
    /// The path of a shared build this resolve runs inside (when a factory resolves
    /// through the registry directly instead of through its `Resolver`).
    @inline(__always)
    var enclosingBuild: BuildTrace? { enclosingBuildReference?.takeUnretainedValue() }
    /// ``overrides`` and ``enclosingBuild``, unretained. `Unmanaged` rather than
    /// `unowned(unsafe)`: reading one of those, even to compare it with `nil`, retained it,
    /// a runtime call on every nested resolve when it is `nil`.
    private let overridesReference: Unmanaged<OverrideLayer>?
    private let enclosingBuildReference: Unmanaged<BuildTrace>?
    /// Identifies this resolution to the ``BuildCoordinator``: the enclosing build's, or
    /// 0 until it first meets a shared instance that is not built yet.
    var context: Int
    /// Set by a resolve in an override scope that found its registration replaced, after
    /// the scope had cached and dropped its instance, and so built nothing; its caller
    /// looks the key up again and clears it.
    var metReplacedRegistration = false
    /// The first `.graph` instance this resolution built. Most resolutions that meet
    /// `.graph` at all share one instance, which then needs no dictionary.
    private var firstGraphInstance: GraphInstance?
    /// The `.graph` instances built after the first; `nil` until there is a second.
    /// Allocated by hand, so that this struct stays trivial.
    private var moreGraphInstances: UnsafeMutablePointer<[GraphInstanceKey: GraphInstance]>?

    @inline(__always)
    init(registry: __shared ServiceRegistry, overrides: __shared OverrideLayer?, enclosingBuild: __shared BuildTrace?) {
        self.registry = Unmanaged.passUnretained(registry)
        self.overridesReference = overrides.map(Unmanaged.passUnretained)
        self.enclosingBuildReference = enclosingBuild.map(Unmanaged.passUnretained)
        self.context = enclosingBuild?.context ?? 0
    }

    /// The registrations being resolved above a resolve below `parent` (nil at the top),
    /// outermost first, as errors show them: the frames', after the shown path of the build
    /// this resolution continues (see ``BuildTrace/shownPath``).
    func path(below parent: UnsafePointer<ResolutionFrame>?) -> [AnyRegistration] {
        (enclosingBuild?.shownPath ?? []) + (parent?.frameRegistrations ?? [])
    }

    /// ``path(below:)`` with the traced resolves in it: what a build's trace holds, for
    /// cycles to be found.
    func tracedPath(below parent: UnsafePointer<ResolutionFrame>?) -> [AnyRegistration] {
        (enclosingBuild?.path ?? []) + (parent?.frameRegistrations ?? [])
    }

    /// The `.graph` instance kept under `key`, if this resolution built one.
    func graphInstance(for key: GraphInstanceKey) -> GraphInstance? {
        if let first = firstGraphInstance, first.key == key { return first }
        return moreGraphInstances?.pointee[key]
    }

    /// Keeps a `.graph` instance for the rest of the resolution.
    mutating func keep(_ instance: GraphInstance) {
        if firstGraphInstance == nil {
            firstGraphInstance = instance
        } else {
            if moreGraphInstances == nil {
                let more = UnsafeMutablePointer<[GraphInstanceKey: GraphInstance]>.allocate(capacity: 1)
                more.initialize(to: [:])
                moreGraphInstances = more
            }
            moreGraphInstances!.pointee[instance.key] = instance
        }
    }

    /// Frees the `.graph` instances when the top-level resolve returns: the registry keeps
    /// no reference to them.
    @inline(__always)
    mutating func releaseGraphInstances() {
        // The others are kept only once there is a first.
        if firstGraphInstance != nil { releaseKeptGraphInstances() }
    }

    /// Out of line, so every top-level resolve carries only the check above.
    @inline(never)
    private mutating func releaseKeptGraphInstances() {
        guard let first = firstGraphInstance else { return }
        first.release()
        firstGraphInstance = nil
        if let more = moreGraphInstances {
            for instance in more.pointee.values { instance.release() }
            more.deinitialize(count: 1)
            more.deallocate()
            moreGraphInstances = nil
        }
    }
}

/// A `.graph` instance a resolution keeps: a heap copy made by its registration, which
/// stays retained until ``release()`` frees both.
struct GraphInstance {
    let key: GraphInstanceKey
    let registration: Unmanaged<AnyRegistration>
    let storage: UnsafeMutableRawPointer

    init(key: GraphInstanceKey, registration: AnyRegistration, copying instance: UnsafeRawPointer) {
        self.key = key
        self.registration = Unmanaged.passRetained(registration)
        self.storage = registration.storeInstance(copying: instance)
    }

    func release() {
        registration._withUnsafeGuaranteedRef { type(of: $0).releaseStoredInstance(storage) }
        registration.release()
    }
}

/// What a `.graph` instance is shared under: its registration and the registry that
/// resolved it. A parent's shared instance built during a child's resolve resolves its
/// dependencies in the parent, so it must not share the child's `.graph` instances (built
/// from the child's registrations), nor the child its.
struct GraphInstanceKey: Hashable {
    let registration: ObjectIdentifier
    let registry: ObjectIdentifier
}

extension UnsafePointer<ResolutionFrame> {
    /// Whether `registration` is already being built on this path.
    func contains(_ registration: AnyRegistration) -> Bool {
        var frame: UnsafePointer<ResolutionFrame>? = self
        while let current = frame {
            if current.pointee.registration === registration { return true }
            frame = current.pointee.parent
        }
        return pointee.resolution.pointee.enclosingBuild?.contains(registration) ?? false
    }

    /// The registrations on this path, outermost first, as errors show them (see
    /// ``Resolution/path(below:)``).
    var registrations: [AnyRegistration] {
        pointee.resolution.pointee.path(below: self)
    }

    /// The registrations of this resolution's own frames down to this one, outermost first.
    var frameRegistrations: [AnyRegistration] {
        var result: [AnyRegistration] = []
        var frame: UnsafePointer<ResolutionFrame>? = self
        while let current = frame {
            result.append(current.pointee.registration)
            frame = current.pointee.parent
        }
        result.reverse()
        return result
    }
}
