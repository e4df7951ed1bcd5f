import ServiceRegistry
import Synchronization
import ThreadTestSupport

// Services shared by the core tests: protocols as a component would publish them, and
// small implementations.

protocol ReviewService: Sendable {
    var source: String { get }
}

protocol BookDetailService: Sendable {
    var reviews: any ReviewService { get }
}

protocol ReadingService: Sendable {
    var detail: any BookDetailService { get }
}

protocol BookScreen: Sendable {
    var bookId: String { get }
    var page: Int { get }
}

protocol Clock: Sendable {
    var now: Int { get }
}

final class ReviewServiceImpl: ReviewService {
    let source: String
    init(source: String = "real") { self.source = source }
}

final class BookDetailServiceImpl: BookDetailService {
    let reviews: any ReviewService
    init(reviews: any ReviewService) { self.reviews = reviews }
}

final class ReadingServiceImpl: ReadingService {
    let detail: any BookDetailService
    init(detail: any BookDetailService) { self.detail = detail }
}

final class BookScreenImpl: BookScreen {
    let bookId: String
    let page: Int
    init(bookId: String, page: Int = 0) {
        self.bookId = bookId
        self.page = page
    }
}

/// A value-type service.
struct FixedClock: Clock {
    let now: Int
}

/// Counts how often something happened, from any thread.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    @discardableResult
    func increment() -> Int {
        count.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

struct FactoryError: Error, CustomStringConvertible {
    let message: String
    var description: String { "FactoryError(\(message))" }
}

/// A component's configuration. ServiceRegistryTestComponent has a `Config` too: two types
/// of one short name, which listings and graphs show under their full names.
struct Config: Sendable {}

/// An object a factory captures, counted while alive: whether the registration holding
/// the factory has been freed.
final class Tracked: Sendable {
    let live: LiveCount

    init(_ live: LiveCount) {
        self.live = live
        live.increment()
    }

    deinit { live.decrement() }
}
