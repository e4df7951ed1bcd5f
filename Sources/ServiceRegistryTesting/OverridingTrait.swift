public import ServiceRegistry
public import Testing

/// A Swift Testing trait that runs a test, or every test of a suite, with some services
/// of a registry replaced.
///
/// Create it with ``Testing/Trait/overriding(_:)`` (for ``/ServiceRegistry/ServiceRegistry/shared``)
/// or ``Testing/Trait/overriding(_:_:)`` (for a registry you name). The trait wraps each
/// test in ``/ServiceRegistry/ServiceRegistry/withOverrides(_:isolation:operation:)``, so the
/// overrides are task-local: tests that run in parallel, each with its own overrides of
/// the same registry, never see each other's, and the registry itself is never changed.
///
/// ```swift
/// @Test(.overriding { $0.register(ReviewService.self) { _ in MockReviews() } })
/// func detailShowsTheMockedReviews() throws {
///     let detail = try ServiceRegistry.shared.resolve(BookDetailService.self)
///     #expect(detail.reviewCount == MockReviews.count)
/// }
/// ```
///
/// On a suite the trait is recursive: it applies to each test in the suite (and in its
/// nested suites), each test getting a fresh scope, so a `.singleton` built by one test
/// is never seen by another.
///
/// ## Stacking
///
/// Several `.overriding` traits stack like nested `withOverrides` calls, from the outside
/// in: a suite's traits are outside its tests' traits, and within one attribute the
/// traits are nested in the order they are written. Where two traits register the same
/// service (same type, name and argument type) of the same registry, the **inner one
/// wins**: a test's trait beats its suite's, and the later trait in one attribute beats the
/// earlier. Services only one of them registers come from that one; so does a service the
/// other registers with another argument type (or none), since resolving with or without
/// an argument finds only a registration that takes it. Of a registry and its child, a
/// resolve on the child finds the child's override first, whichever trait is inner, as it
/// finds the child's own registrations before the parent's.
///
/// ```swift
/// @Suite(.overriding { $0.register(ReviewService.self) { _ in EmptyReviews() } })
/// struct DetailTests {
///     @Test func usesTheSuiteMock() throws { ... }               // EmptyReviews
///
///     @Test(.overriding { $0.register(ReviewService.self) { _ in FiveStarReviews() } })
///     func usesItsOwnMock() throws { ... }                       // FiveStarReviews
/// }
/// ```
///
/// Like every override scope, the trait reaches the tasks the test starts (`async let`,
/// `Task { }`, task groups) but not `Task.detached` work, nor code run on a `Thread` or sent
/// to a dispatch queue with `async`, even one the test starts itself: these do not inherit
/// task-locals. Carry the scope there with ``/ServiceRegistry/OverrideScope``. (A closure
/// passed to `queue.sync` usually runs on the test's own thread, and then sees it.) The body of an exit test
/// (`#expect(processExitsWith:)`) runs in a process of its own, where Swift Testing applies
/// no trait of the test; open `withOverrides` inside the body instead.
public struct OverridingTrait: TestTrait, SuiteTrait, TestScoping {
    /// The registry to override; `nil` stands for ``/ServiceRegistry/ServiceRegistry/shared``,
    /// read when the test runs.
    private let registry: ServiceRegistry?
    /// Registers the overrides; runs once per test (per case of a parameterized test),
    /// before it.
    private let configure: @Sendable (OverrideRegistrar) throws -> Void

    init(registry: ServiceRegistry?, configure: @escaping @Sendable (OverrideRegistrar) throws -> Void) {
        self.registry = registry
        self.configure = configure
    }

    /// Always `true`: on a suite, the overrides apply to each of its tests, each in a
    /// scope of its own.
    public var isRecursive: Bool { true }

    /// Runs the test inside an override scope made from this trait's registrations.
    ///
    /// Swift Testing calls this for each test (and each case of a parameterized test) the
    /// trait applies to. You can also call it yourself to run some code as a test with
    /// this trait would run.
    ///
    /// - Parameters:
    ///   - test: The test about to run.
    ///   - testCase: The case of `test` about to run, or `nil`.
    ///   - function: The test, or the traits nested inside this one and then the test.
    /// - Throws: What the configure closure or the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await (registry ?? .shared).withOverrides(configure, operation: function)
    }
}

extension Trait where Self == OverridingTrait {
    /// Runs the test (or each test of the suite) with some services of
    /// ``/ServiceRegistry/ServiceRegistry/shared`` replaced.
    ///
    /// The closure receives an ``/ServiceRegistry/OverrideRegistrar``, which offers the same
    /// `register` overloads as the registry (names, scopes, arguments). An override may
    /// also supply a service the registry lacks. Code that resolves from a registry of its
    /// own does not see these overrides (a miss there says they are for the shared
    /// registry); name that registry with ``overriding(_:_:)``.
    ///
    /// ```swift
    /// @Test(.overriding { $0.register(ReviewService.self) { _ in MockReviews() } })
    /// func readingScreenShowsReviews() throws {
    ///     let screen = try ServiceRegistry.shared.resolve(ReadingService.self)
    ///     ...
    /// }
    ///
    /// @Suite(.overriding {
    ///     $0.register(ReviewService.self, scope: .singleton) { _ in MockReviews() }
    ///     $0.register(ReviewService.self, name: "offline") { _ in MockReviews() }
    /// })
    /// struct BookDetailTests { ... }
    /// ```
    ///
    /// The closure runs once for each test (each case of a parameterized test), so a
    /// `.singleton` override is one instance per test, unless the test opens a
    /// `withOverrides` scope of its own: like every scope, that one builds its own shared
    /// instances (this trait's `.singleton` overrides too) and drops them when it ends.
    /// Where several traits override the same service, the inner (a test's over its
    /// suite's) or later one wins; see ``OverridingTrait``.
    ///
    /// - Parameter configure: Registers the overrides. If it throws, the test fails with
    ///   that error without running.
    /// - Returns: The trait.
    public static func overriding(_ configure: @escaping @Sendable (OverrideRegistrar) throws -> Void) -> Self {
        OverridingTrait(registry: nil, configure: configure)
    }

    /// Runs the test (or each test of the suite) with some services of `registry` replaced.
    ///
    /// Use it when the code under test resolves from a registry of its own rather than
    /// ``/ServiceRegistry/ServiceRegistry/shared``. The registry must be reachable from the
    /// attribute, such as a `static let`:
    ///
    /// ```swift
    /// enum TestRegistries {
    ///     static let app: ServiceRegistry = {
    ///         let registry = ServiceRegistry()
    ///         registry.install(BookDetailAssembly(), ReviewAssembly())
    ///         return registry
    ///     }()
    /// }
    ///
    /// @Test(.overriding(TestRegistries.app) { $0.register(ReviewService.self) { _ in MockReviews() } })
    /// func detailUsesTheMock() throws {
    ///     let detail = try TestRegistries.app.resolve(BookDetailService.self)
    ///     ...
    /// }
    /// ```
    ///
    /// The overrides apply to resolves on `registry` and on its children
    /// (``/ServiceRegistry/ServiceRegistry/makeChild()``), where the child does not register
    /// the service itself.
    ///
    /// - Parameters:
    ///   - registry: The registry whose services to replace.
    ///   - configure: Registers the overrides. If it throws, the test fails with that
    ///     error without running.
    /// - Returns: The trait.
    public static func overriding(
        _ registry: ServiceRegistry, _ configure: @escaping @Sendable (OverrideRegistrar) throws -> Void
    ) -> Self {
        OverridingTrait(registry: registry, configure: configure)
    }
}
