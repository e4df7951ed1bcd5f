import ServiceRegistry
import Synchronization

/// Listens to the registry's resolution events during the scripted session: which services
/// were built just now, which were reused, and which instances are still alive.
///
/// The registry reports each service a resolve builds or hands out again
/// (``ServiceRegistry/addResolutionObserver(_:)``); this keeps the built instances only
/// weakly, so watching never keeps an instance alive longer than the registry and the app
/// would: a transient screen or a `.weak` reader still goes away when the app lets go of
/// it, and ``liveServices`` shows that.
final class BuildObserver: Sendable {
    /// One service a resolve built or reused.
    struct Event: Equatable, Sendable {
        /// The service type, such as `ReviewService`.
        let service: String
        /// Whether the factory ran (rather than a cached instance being handed out).
        let isNewInstance: Bool
        /// 0 for the service the app asked for, 1 for its dependencies, and so on.
        let depth: Int
    }

    /// A built instance, held weakly to see whether it is still alive.
    private struct Seen: @unchecked Sendable {
        // @unchecked: the object is never called through, only checked for `nil`, and a
        // `Seen` is only touched inside the observer's mutex.
        let service: String
        weak var object: AnyObject?
    }

    private struct State {
        var seen: [Seen] = []
        var events: [Event] = []
    }

    private let state = Mutex(State())

    /// Starts listening to `registry`.
    ///
    /// - Parameter registry: The registry whose resolves to watch.
    /// - Returns: The token to stop listening with.
    @discardableResult
    func watch(_ registry: ServiceRegistry) -> ResolutionObserverToken {
        registry.addResolutionObserver { [self] event in record(event) }
    }

    private func record(_ event: ResolutionEvent) {
        let seen = Seen(service: event.serviceType, object: event.instance)
        let isNew = event.outcome == .built
        state.withLock { state in
            state.events.append(Event(service: event.serviceType, isNewInstance: isNew, depth: event.depth))
            if isNew, seen.object != nil {
                state.seen.append(seen)
            }
        }
    }

    /// Takes the events recorded since the last call, for one step of the session.
    ///
    /// - Returns: The events, the services the app asked for first, then their
    ///   dependencies, each level in the order the resolves finished.
    func takeEvents() -> [Event] {
        state.withLock { state in
            let events = state.events.enumerated().sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }
            state.events.removeAll()
            return events.map(\.element)
        }
    }

    /// The services whose built instances are still alive somewhere (in a registry's cache
    /// or held by the app), in the order they were built.
    var liveServices: [String] {
        // Reading a weak reference holds the object for a moment, and that may become its
        // last reference; the objects found are let go after the mutex, since a deinit is
        // the app's code and may resolve (and so report to this observer).
        var found: [AnyObject] = []
        let live = state.withLock { state in
            state.seen.compactMap { seen -> String? in
                guard let object = seen.object else { return nil }
                found.append(object)
                return seen.service
            }
        }
        withExtendedLifetime(found) {}
        return live
    }
}
