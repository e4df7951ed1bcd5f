/// The `mediator` subject's targets, found at run time by their type names. Their names
/// are their contract: ``Mediator/perform(target:action:params:)`` builds them from strings.
enum MediatorNames {
    static let shared = "Shared", trivial = "Trivial", chain = "Chain", book = "Book", graph = "Graph"
    static let service = "service", secondary = "secondary"
    static let head = "head", middle = "middle", tail = "tail"
    static let screen = "screen", root = "root", left = "left", right = "right"
    static let bookID = "bookId", context = "context"
}

/// Returns the component's one shared service.
final class TargetShared: MediatorTarget {
    /// The component's instance, built on first use like a `static let` in the seed.
    static let service = makeService()

    /// Builds ``service`` at run time. Written inline, `SharedServiceImpl(serial: 4)` is
    /// laid out by the compiler in a release build: an immortal object whose reference
    /// count is never written, which would spare the mediator the retain and release that
    /// every other container's run-time singleton (and the seed's) costs.
    @inline(never)
    private static func makeService() -> SharedServiceImpl { SharedServiceImpl(serial: 4) }
    /// The services of the `threads-*-own` cases, one per thread, under actions named
    /// like the threads.
    static let threadServices = ThreadSharedServiceImpl.names.indices.map { ThreadSharedServiceImpl(serial: 4, thread: $0) }

    init() {}

    func perform(action: String, params: [String: Any]) -> Any? {
        switch action {
        case MediatorNames.service: return Self.service
        default: return ThreadSharedServiceImpl.names.firstIndex(of: action).map { Self.threadServices[$0] }
        }
    }
}

final class TargetTrivial: MediatorTarget {
    init() {}

    func perform(action: String, params: [String: Any]) -> Any? {
        switch action {
        case MediatorNames.service: return TrivialServiceImpl()
        case MediatorNames.secondary: return TrivialServiceImpl(value: TrivialServiceImpl.secondaryValue)
        default: return nil
        }
    }
}

/// Each link reaches the next through the mediator, by name.
final class TargetChain: MediatorTarget {
    init() {}

    func perform(action: String, params: [String: Any]) -> Any? {
        let mediator = Mediator.shared
        switch action {
        case MediatorNames.tail:
            return ChainTailImpl()
        case MediatorNames.middle:
            guard let tail = mediator.perform(target: MediatorNames.chain, action: MediatorNames.tail)
                as? any ChainTail
            else { return nil }
            return ChainMiddleImpl(tail: tail)
        case MediatorNames.head:
            guard let middle = mediator.perform(target: MediatorNames.chain, action: MediatorNames.middle)
                as? any ChainMiddle
            else { return nil }
            return ChainHeadImpl(middle: middle)
        default:
            return nil
        }
    }
}

final class TargetBook: MediatorTarget {
    init() {}

    func perform(action: String, params: [String: Any]) -> Any? {
        guard action == MediatorNames.screen, let bookID = params[MediatorNames.bookID] as? String else {
            return nil
        }
        return BookScreenImpl(bookID: bookID)
    }
}

/// No graph scope here either: the root builds the context and passes it in the parameters.
final class TargetGraph: MediatorTarget {
    init() {}

    func perform(action: String, params: [String: Any]) -> Any? {
        let mediator = Mediator.shared
        switch action {
        case MediatorNames.left:
            return (params[MediatorNames.context] as? GraphContext).map(GraphLeft.init(context:))
        case MediatorNames.right:
            return (params[MediatorNames.context] as? GraphContext).map(GraphRight.init(context:))
        case MediatorNames.root:
            let context = GraphContext()
            let params: [String: Any] = [MediatorNames.context: context]
            guard
                let left = mediator.perform(target: MediatorNames.graph, action: MediatorNames.left, params: params)
                    as? GraphLeft,
                let right = mediator.perform(
                    target: MediatorNames.graph, action: MediatorNames.right, params: params) as? GraphRight
            else { return nil }
            return GraphRootImpl(left: left, right: right)
        default:
            return nil
        }
    }
}
