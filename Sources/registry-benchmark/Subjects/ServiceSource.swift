import ServiceRegistry

/// One subject's way of getting each benchmark service.
///
/// The resolve, lookup and thread cases time these methods in a loop (generic over the
/// concrete source, so every call is specialised and direct); the tests call them once
/// and check that each subject really built what it claims.
protocol ServiceSource: Sendable {
    /// The shared singleton (cached after the first call).
    func sharedService() throws -> any SharedService
    /// The shared singleton of thread `thread` (0 or 1) in the `threads-*-own` cases, a
    /// ``ThreadSharedServiceImpl`` (cached after the first call).
    func threadService(_ thread: Int) throws -> any SharedService
    /// A new trivial instance.
    func trivialService() throws -> any TrivialService
    /// A new trivial instance from the registration named ``TrivialServiceImpl/secondaryName``.
    func secondaryTrivialService() throws -> any TrivialService
    /// A new head → middle → tail chain.
    func chainHead() throws -> any ChainHead
    /// A new screen for `bookID`.
    func bookScreen(bookID: String) throws -> any BookScreen
    /// A new graph whose two children share one new context.
    func graphRoot() throws -> any GraphRoot
}

/// A baseline subject that returned nothing, or the wrong thing, for a call.
struct SubjectFailure: Error, CustomStringConvertible {
    /// The subject's name.
    let subject: String
    /// What was asked for.
    let request: String

    var description: String { "\(subject): \(request) did not return the expected service" }
}

/// `direct`: construct the service, or read a `static let`.
struct DirectSource: ServiceSource {
    func sharedService() -> any SharedService { SharedServiceImpl.shared }
    func threadService(_ thread: Int) -> any SharedService {
        thread == 0 ? ThreadSharedServiceImpl.directFirst : ThreadSharedServiceImpl.directSecond
    }
    func trivialService() -> any TrivialService { TrivialServiceImpl() }
    func secondaryTrivialService() -> any TrivialService {
        TrivialServiceImpl(value: TrivialServiceImpl.secondaryValue)
    }
    func chainHead() -> any ChainHead { ChainHeadImpl(middle: ChainMiddleImpl(tail: ChainTailImpl())) }
    func bookScreen(bookID: String) -> any BookScreen { BookScreenImpl(bookID: bookID) }
    func graphRoot() -> any GraphRoot {
        let context = GraphContext()
        return GraphRootImpl(left: GraphLeft(context: context), right: GraphRight(context: context))
    }
}

/// `direct-owned`: ``DirectSource`` behind calls that are never inlined, with shared
/// instances made at run time.
///
/// A `resolve` is a call the caller cannot see into, and it returns the service owned:
/// handing back a shared instance retains it, and the caller releases it when done. A
/// `direct` read of a `static let` that the optimizer sees through does neither, and the
/// `static let` instances `direct` reads are immortal (laid out by the compiler), so even
/// retaining them writes nothing. A registry's singleton is made by its factory at run
/// time and must be released when re-registering drops it: its reference count is real.
/// These calls do what any container must do and nothing else (no lookup, no lock), so
/// their cost over `direct` is the part of a container's ratio no container can avoid.
struct DirectOwnedSource: ServiceSource {
    private let direct = DirectSource()
    private let shared: any SharedService = SharedServiceImpl(serial: 0)
    private let threadServices: [any SharedService] = [
        ThreadSharedServiceImpl(serial: 0, thread: 0), ThreadSharedServiceImpl(serial: 0, thread: 1),
    ]

    // Without the semantics attribute, the optimizer would rewrite each call to return a
    // borrowed (+0) instance (function signature specialization), which a `resolve`
    // cannot do.
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func sharedService() -> any SharedService { shared }
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func threadService(_ thread: Int) -> any SharedService { threadServices[thread] }
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func trivialService() -> any TrivialService { direct.trivialService() }
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func secondaryTrivialService() -> any TrivialService { direct.secondaryTrivialService() }
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func chainHead() -> any ChainHead { direct.chainHead() }
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func bookScreen(bookID: String) -> any BookScreen { direct.bookScreen(bookID: bookID) }
    @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
    func graphRoot() -> any GraphRoot { direct.graphRoot() }
}

/// `registry`: resolve from a ``ServiceRegistry``.
struct RegistrySource: ServiceSource {
    let registry: ServiceRegistry

    func sharedService() throws -> any SharedService { try registry.resolve(SharedService.self) }
    func threadService(_ thread: Int) throws -> any SharedService {
        try registry.resolve(SharedService.self, name: ThreadSharedServiceImpl.names[thread])
    }
    func trivialService() throws -> any TrivialService { try registry.resolve(TrivialService.self) }
    func secondaryTrivialService() throws -> any TrivialService {
        try registry.resolve(TrivialService.self, name: TrivialServiceImpl.secondaryName)
    }
    func chainHead() throws -> any ChainHead { try registry.resolve(ChainHead.self) }
    func bookScreen(bookID: String) throws -> any BookScreen {
        try registry.resolve(BookScreen.self, argument: bookID)
    }
    func graphRoot() throws -> any GraphRoot { try registry.resolve(GraphRoot.self) }
}

/// `url-block`: call a URL and cast the `Any` that comes back.
struct URLBlockSource: ServiceSource {
    let router: URLBlockRouter

    private typealias URL = URLBlockComponents.URL

    private func call<Service>(_ url: String, _ userInfo: [String: Any] = [:], as type: Service.Type) throws -> Service {
        guard let service = router.object(forURL: url, userInfo: userInfo) as? Service else {
            throw SubjectFailure(subject: SubjectName.urlBlock, request: url)
        }
        return service
    }

    func sharedService() throws -> any SharedService { try call(URL.shared, as: (any SharedService).self) }
    func threadService(_ thread: Int) throws -> any SharedService {
        try call(URL.threadShared[thread], as: (any SharedService).self)
    }
    func trivialService() throws -> any TrivialService { try call(URL.trivial, as: (any TrivialService).self) }
    func secondaryTrivialService() throws -> any TrivialService {
        try call(URL.trivialSecondary, as: (any TrivialService).self)
    }
    func chainHead() throws -> any ChainHead { try call(URL.chainHead, as: (any ChainHead).self) }
    func bookScreen(bookID: String) throws -> any BookScreen {
        try call(URL.bookScreen, [URLBlockComponents.Parameter.bookID: bookID], as: (any BookScreen).self)
    }
    func graphRoot() throws -> any GraphRoot { try call(URL.graphRoot, as: (any GraphRoot).self) }
}

/// `mediator`: perform an action on a target found by name, and cast the `Any` that comes back.
struct MediatorSource: ServiceSource {
    let mediator: Mediator

    private func perform<Service>(
        _ target: String, _ action: String, _ params: [String: Any] = [:], as type: Service.Type
    ) throws -> Service {
        guard let service = mediator.perform(target: target, action: action, params: params) as? Service else {
            throw SubjectFailure(subject: SubjectName.mediator, request: "\(target).\(action)")
        }
        return service
    }

    func sharedService() throws -> any SharedService {
        try perform(MediatorNames.shared, MediatorNames.service, as: (any SharedService).self)
    }
    func threadService(_ thread: Int) throws -> any SharedService {
        try perform(MediatorNames.shared, ThreadSharedServiceImpl.names[thread], as: (any SharedService).self)
    }
    func trivialService() throws -> any TrivialService {
        try perform(MediatorNames.trivial, MediatorNames.service, as: (any TrivialService).self)
    }
    func secondaryTrivialService() throws -> any TrivialService {
        try perform(MediatorNames.trivial, MediatorNames.secondary, as: (any TrivialService).self)
    }
    func chainHead() throws -> any ChainHead {
        try perform(MediatorNames.chain, MediatorNames.head, as: (any ChainHead).self)
    }
    func bookScreen(bookID: String) throws -> any BookScreen {
        try perform(MediatorNames.book, MediatorNames.screen, [MediatorNames.bookID: bookID], as: (any BookScreen).self)
    }
    func graphRoot() throws -> any GraphRoot {
        try perform(MediatorNames.graph, MediatorNames.root, as: (any GraphRoot).self)
    }
}

/// `naive-dictionary`: resolve from a ``NaiveContainer``.
struct NaiveSource: ServiceSource {
    let container: NaiveContainer

    func sharedService() throws -> any SharedService { try container.resolve((any SharedService).self) }
    func threadService(_ thread: Int) throws -> any SharedService {
        try container.resolve((any SharedService).self, name: ThreadSharedServiceImpl.names[thread])
    }
    func trivialService() throws -> any TrivialService { try container.resolve((any TrivialService).self) }
    func secondaryTrivialService() throws -> any TrivialService {
        try container.resolve((any TrivialService).self, name: TrivialServiceImpl.secondaryName)
    }
    func chainHead() throws -> any ChainHead { try container.resolve((any ChainHead).self) }
    func bookScreen(bookID: String) throws -> any BookScreen {
        try container.resolve((any BookScreen).self, argument: bookID)
    }
    func graphRoot() throws -> any GraphRoot { try container.resolve((any GraphRoot).self) }
}

/// `frozen-table`: resolve from a ``FrozenTable``.
struct FrozenTableSource: ServiceSource {
    let table: FrozenTable

    func sharedService() throws -> any SharedService { try table.resolve((any SharedService).self) }
    func threadService(_ thread: Int) throws -> any SharedService {
        try table.resolve((any SharedService).self, name: ThreadSharedServiceImpl.names[thread])
    }
    func trivialService() throws -> any TrivialService { try table.resolve((any TrivialService).self) }
    func secondaryTrivialService() throws -> any TrivialService {
        try table.resolve((any TrivialService).self, name: TrivialServiceImpl.secondaryName)
    }
    func chainHead() throws -> any ChainHead { try table.resolve((any ChainHead).self) }
    func bookScreen(bookID: String) throws -> any BookScreen {
        try table.resolve((any BookScreen).self, argument: bookID)
    }
    func graphRoot() throws -> any GraphRoot { try table.resolve((any GraphRoot).self) }
}
