import Synchronization

/// Watches the service instances handed out during the scripted session and tells, for
/// each, whether it was built just now or is one seen before.
///
/// It tells instances apart by object identity and holds them only weakly, so watching
/// never keeps an instance alive longer than the registry and the app would: a transient
/// screen or a `.weak` reader still goes away when the app lets go of it, and
/// ``liveServices`` shows that.
final class BuildObserver: Sendable {
    /// One instance handed out, in the order the requests started (outermost first).
    struct Event: Equatable, Sendable {
        /// The service type, such as `ReviewService`.
        let service: String
        /// Whether this request got an instance nobody had been given before.
        let isNewInstance: Bool
    }

    /// A weak reference used only to compare identities and to see whether the instance is
    /// still alive.
    private struct Seen: @unchecked Sendable {
        // @unchecked: the object is never called through, only compared with `===` and
        // checked for `nil`, and a `Seen` is only touched inside the observer's mutex.
        let service: String
        weak var object: AnyObject?
    }

    private struct State {
        var seen: [Seen] = []
        /// Events by request start order; `nil` until the request returns.
        var events: [Event?] = []
    }

    private let state = Mutex(State())

    /// Records that a request for `service` started, so events list outer services before
    /// the dependencies their factories resolve.
    ///
    /// - Returns: A ticket to hand to ``finish(_:_:ticket:)``.
    func start() -> Int {
        state.withLock { state in
            state.events.append(nil)
            return state.events.count - 1
        }
    }

    /// Records the instance a request returned and passes it on unchanged.
    ///
    /// - Parameters:
    ///   - instance: What the registry returned.
    ///   - service: The service type's name.
    ///   - ticket: What ``start()`` returned for this request.
    /// - Returns: `instance`.
    func finish<Service>(_ instance: Service, _ service: String, ticket: Int) -> Service {
        // Only objects have an identity to recognise; the WeRead services are all classes.
        let object: AnyObject? = type(of: instance as Any) is AnyObject.Type ? instance as AnyObject : nil
        let candidate = Seen(service: service, object: object)
        state.withLock { state in
            state.seen.removeAll { $0.object == nil }
            let isNew = candidate.object.map { object in !state.seen.contains { $0.object === object } } ?? true
            if isNew, candidate.object != nil {
                state.seen.append(candidate)
            }
            state.events[ticket] = Event(service: service, isNewInstance: isNew)
        }
        return instance
    }

    /// Takes the events recorded since the last call, for one step of the session.
    ///
    /// - Returns: The completed events, outermost request first.
    func takeEvents() -> [Event] {
        state.withLock { state in
            let events = state.events.compactMap { $0 }
            state.events.removeAll()
            return events
        }
    }

    /// The services whose instances are still alive somewhere (in a registry's cache or
    /// held by the app), in the order they were first built.
    var liveServices: [String] {
        state.withLock { state in
            state.seen.filter { $0.object != nil }.map(\.service)
        }
    }
}
