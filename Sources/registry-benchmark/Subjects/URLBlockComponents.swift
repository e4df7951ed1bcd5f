import Synchronization

/// The components of the `url-block` subject: each is a class whose `init` runs at launch
/// and registers its URLs, as the scheme requires.
enum URLBlockComponents {
    /// The URLs the cases call.
    enum URL {
        static let shared = "app://shared/service"
        static let threadShared = ThreadSharedServiceImpl.names.map { "app://shared/\($0)" }
        static let trivial = "app://trivial/service"
        static let trivialSecondary = "app://trivial/secondary"
        static let chainHead = "app://chain/head"
        static let chainMiddle = "app://chain/middle"
        static let chainTail = "app://chain/tail"
        static let bookScreen = "app://book/screen"
        static let graphRoot = "app://graph/root"
        static let graphLeft = "app://graph/left"
        static let graphRight = "app://graph/right"

        /// The URL of filler component `index`, built at launch as a real app's would be.
        static func filler(_ index: Int) -> String { "app://component\(index)/service" }
    }

    /// Parameter keys the handlers read.
    enum Parameter {
        static let bookID = "bookId"
        static let context = "context"
    }

    /// The launch list for the resolve cases: one component per service family.
    static var serviceComponents: [URLBlockRouter.Launcher] {
        [
            { SharedComponent(registrar: &$0) },
            { ThreadSharedComponent(registrar: &$0) },
            { TrivialComponent(registrar: &$0) },
            { ChainComponent(registrar: &$0) },
            { BookComponent(registrar: &$0) },
            { GraphComponent(registrar: &$0) },
        ]
    }

    /// The launch list for `count` filler components, one URL each.
    ///
    /// The URL strings are built here, before launch: in an app they are literals in the
    /// binary, which cost no allocation, so building them during launch would be unfair.
    static func fillerComponents(count: Int) -> [URLBlockRouter.Launcher] {
        (0..<count).map { index in
            let url = URL.filler(index)
            return { FillerComponent(index: index, url: url, registrar: &$0) }
        }
    }

    private static let fillersInitialised = Atomic<Int>(0)

    /// How many filler components have been initialised since the process started: the
    /// scheme builds every one at launch, which start-up reports.
    static var fillerComponentsInitialised: Int { fillersInitialised.load(ordering: .relaxed) }

    /// Owns the shared service, built when the component initialises at launch.
    final class SharedComponent: Sendable {
        let service = SharedServiceImpl(serial: 3)

        init(registrar: inout URLBlockRouter.Registrar) {
            registrar.register(URL.shared) { [service] _, _ in service }
        }
    }

    /// Owns one shared service per thread of the `threads-*-own` cases.
    final class ThreadSharedComponent: Sendable {
        let services = ThreadSharedServiceImpl.names.indices.map { ThreadSharedServiceImpl(serial: 3, thread: $0) }

        init(registrar: inout URLBlockRouter.Registrar) {
            for (url, service) in zip(URL.threadShared, services) {
                registrar.register(url) { _, _ in service }
            }
        }
    }

    final class TrivialComponent: Sendable {
        init(registrar: inout URLBlockRouter.Registrar) {
            registrar.register(URL.trivial) { _, _ in TrivialServiceImpl() }
            registrar.register(URL.trivialSecondary) { _, _ in
                TrivialServiceImpl(value: TrivialServiceImpl.secondaryValue)
            }
        }
    }

    /// Each link reaches the next through the router, as components reach each other in the scheme.
    final class ChainComponent: Sendable {
        init(registrar: inout URLBlockRouter.Registrar) {
            registrar.register(URL.chainTail) { _, _ in ChainTailImpl() }
            registrar.register(URL.chainMiddle) { _, router in
                guard let tail = router.object(forURL: URL.chainTail) as? any ChainTail else { return nil }
                return ChainMiddleImpl(tail: tail)
            }
            registrar.register(URL.chainHead) { _, router in
                guard let middle = router.object(forURL: URL.chainMiddle) as? any ChainMiddle else { return nil }
                return ChainHeadImpl(middle: middle)
            }
        }
    }

    final class BookComponent: Sendable {
        init(registrar: inout URLBlockRouter.Registrar) {
            registrar.register(URL.bookScreen) { parameters, _ in
                guard let bookID = parameters[Parameter.bookID] as? String else { return nil }
                return BookScreenImpl(bookID: bookID)
            }
        }
    }

    /// The scheme has no graph scope: the root builds the shared context itself and hands
    /// it down through the parameters.
    final class GraphComponent: Sendable {
        init(registrar: inout URLBlockRouter.Registrar) {
            registrar.register(URL.graphLeft) { parameters, _ in
                (parameters[Parameter.context] as? GraphContext).map(GraphLeft.init(context:))
            }
            registrar.register(URL.graphRight) { parameters, _ in
                (parameters[Parameter.context] as? GraphContext).map(GraphRight.init(context:))
            }
            registrar.register(URL.graphRoot) { _, router in
                let context = GraphContext()
                guard
                    let left = router.object(forURL: URL.graphLeft, userInfo: [Parameter.context: context])
                        as? GraphLeft,
                    let right = router.object(forURL: URL.graphRight, userInfo: [Parameter.context: context])
                        as? GraphRight
                else { return nil }
                return GraphRootImpl(left: left, right: right)
            }
        }
    }

    /// One of many similar components: registers one URL whose handler captures the
    /// component, as handlers that call back into their component do.
    final class FillerComponent: Sendable {
        let index: Int

        init(index: Int, url: String, registrar: inout URLBlockRouter.Registrar) {
            self.index = index
            fillersInitialised.add(1, ordering: .relaxed)
            registrar.register(url) { [self] _, _ in self.index }
        }
    }
}
