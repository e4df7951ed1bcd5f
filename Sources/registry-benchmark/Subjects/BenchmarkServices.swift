// The services every subject builds, shared so that each subject does the same work and
// the only difference measured is how the service is found and made.

/// A service resolved as a cached singleton (`singleton`, `lookup-*`, `threads-*`).
protocol SharedService: AnyObject, Sendable {
    /// Tells instances apart in tests: the `direct` one is 0, each subject's its own.
    var serial: Int { get }
}

/// The one implementation of ``SharedService``.
final class SharedServiceImpl: SharedService {
    /// The `direct` subject's instance: reading a `static let` is the floor for `singleton`.
    static let shared = SharedServiceImpl(serial: 0)

    let serial: Int

    init(serial: Int) {
        self.serial = serial
    }
}

/// The shared services of the `threads-*-own` cases: each thread resolves its own.
///
/// An instance is 160 bytes, more than two cache lines, so the reference counts of two
/// instances never share a line: two threads each fetching their own instance then write
/// to no line in common, and what the figure shows is the container. (Smaller objects
/// made one after the other often share a line, and threads fetching them contend as if
/// they shared one object.)
final class ThreadSharedServiceImpl: SharedService {
    /// The registration names (and, for `url-block` and `mediator`, the URL and action
    /// suffixes) of the two threads' services.
    static let names = ["thread-0", "thread-1"]

    /// The `direct` subject's instances, one per thread: reading a `static let` again.
    static let directFirst = ThreadSharedServiceImpl(serial: 0, thread: 0)
    static let directSecond = ThreadSharedServiceImpl(serial: 0, thread: 1)

    let serial: Int
    /// Which thread's service this is: 0 or 1.
    let thread: Int
    // `SIMD16<Int>`, not `InlineArray`: the package declares macOS 15 and iOS 18, and
    // `InlineArray` needs macOS 26 and iOS 26, so the benchmark would not build there.
    private let padding = SIMD16<Int>()

    init(serial: Int, thread: Int) {
        self.serial = serial
        self.thread = thread
    }
}

/// A trivial service built afresh on every resolve (`transient`, `named`, `override-scope`).
protocol TrivialService: AnyObject {
    /// Which registration built the instance: ``TrivialServiceImpl/primaryValue`` or
    /// ``TrivialServiceImpl/secondaryValue``.
    var value: Int { get }
}

/// The one implementation of ``TrivialService``: one small heap object.
final class TrivialServiceImpl: TrivialService, Sendable {
    /// The value of the unnamed registration's instances.
    static let primaryValue = 1
    /// The value of the instances registered under ``secondaryName``.
    static let secondaryValue = 2
    /// The name the `named` case resolves.
    static let secondaryName = "secondary"

    let value: Int

    init(value: Int = TrivialServiceImpl.primaryValue) {
        self.value = value
    }
}

/// The head of a chain of three transient services (`chain3`): head → middle → tail.
protocol ChainHead: AnyObject {
    var middle: any ChainMiddle { get }
}

/// The middle of the chain.
protocol ChainMiddle: AnyObject {
    var tail: any ChainTail { get }
}

/// The end of the chain; depends on nothing.
protocol ChainTail: AnyObject {}

final class ChainHeadImpl: ChainHead {
    let middle: any ChainMiddle
    init(middle: any ChainMiddle) { self.middle = middle }
}

final class ChainMiddleImpl: ChainMiddle {
    let tail: any ChainTail
    init(tail: any ChainTail) { self.tail = tail }
}

final class ChainTailImpl: ChainTail {}

/// A screen built from a run-time argument (`argument`): the book it shows.
protocol BookScreen: AnyObject {
    var bookID: String { get }
}

/// The one implementation of ``BookScreen``.
final class BookScreenImpl: BookScreen {
    /// The argument every `argument` benchmark passes (short enough to need no heap).
    static let sampleBookID = "42"

    let bookID: String
    init(bookID: String) { self.bookID = bookID }
}

/// The root of a small object graph (`graph`): two children that must share one context
/// within a resolve, and get a fresh one on the next.
protocol GraphRoot: AnyObject {
    var left: GraphLeft { get }
    var right: GraphRight { get }
}

/// What the two children share within one resolve.
final class GraphContext {}

final class GraphLeft {
    let context: GraphContext
    init(context: GraphContext) { self.context = context }
}

final class GraphRight {
    let context: GraphContext
    init(context: GraphContext) { self.context = context }
}

final class GraphRootImpl: GraphRoot {
    let left: GraphLeft
    let right: GraphRight
    init(left: GraphLeft, right: GraphRight) {
        self.left = left
        self.right = right
    }
}
