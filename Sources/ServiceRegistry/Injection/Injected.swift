import Synchronization

/// A property that resolves its service on first access, then keeps it.
///
/// Resolves from ``ServiceRegistry/shared`` unless you name a registry, and honours the
/// override scope active at the first access (so a test's
/// ``ServiceRegistry/withOverrides(_:operation:)`` mocks reach it).
///
/// ```swift
/// final class ReadingController {
///     @Injected var detail: any BookDetailService
///     @Injected(name: "offline") var reviews: any ReviewService
///     @Injected(registry: screenRegistry) var reading: any ReadingService
/// }
/// ```
///
/// In a `Sendable` class (one conforming to a `Sendable` service protocol, say) the
/// wrapper does not compile: its storage is a `var`, which such a class may not have
/// ("stored property '_reviews' of 'Sendable'-conforming class 'BookDetailServiceImpl' is
/// mutable", for `@Injected var reviews` in the class below). The wrapper is `Sendable`
/// when its service is, so keep it in a `let` and read ``wrappedValue``; it resolves on
/// first access as the property would:
///
/// ```swift
/// final class BookDetailServiceImpl: BookDetailService {
///     private let reviews = Injected<any ReviewService>()
///     var reviewCount: Int { reviews.wrappedValue.reviews().count }
///     func render() -> String { "\(reviewCount) reviews" }
/// }
/// ```
///
/// A property getter cannot throw, so when the service cannot be resolved, the first
/// access **stops the program** with the full ``ResolutionError`` description (what was
/// asked, the resolution path, the likely fix) and the registry the property resolves
/// from, reported at the line that declares the property, not inside this library. Use
/// ``ServiceRegistry/resolve(_:name:)`` directly where a missing service is an expected,
/// recoverable case, and ``ServiceRegistry/validate()`` in a test to find wiring mistakes
/// in the factories. In a factory, resolve through its ``Resolver``: a property like this
/// one read there stops the program while validation runs the factory too, rather than
/// failing validation.
@propertyWrapper
public struct Injected<Service> {
    /// Everything the property holds, behind one reference, so that the wrapper is one word
    /// wide: each read of the property copies the wrapper out of the object that declares
    /// it, in the app's code, and its five fields inline made that copy (and its release)
    /// most of the machine code of every read (Docs/Performance.md, *Code size*).
    @usableFromInline
    let storage: Storage

    /// Declares a property resolved on first access.
    ///
    /// - Parameters:
    ///   - registry: The registry to resolve from; ``ServiceRegistry/shared`` (read at first
    ///     access) when `nil`.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - fileID: The file that declares the property; leave it to its default.
    ///   - line: The line that declares the property; leave it to its default.
    public init(
        registry: ServiceRegistry? = nil, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
    ) {
        storage = Storage(registry: registry, name: name, fileID: fileID, line: line)
    }

    /// The service, resolved on first access and kept after that.
    ///
    /// Two threads that read the property for the first time at the same moment may both
    /// resolve (building a `.transient` service twice); the first to finish is kept, and both
    /// get it.
    @inlinable
    public var wrappedValue: Service {
        // Inlined, so that a read of a resolved property is specialized in the app's code:
        // run as generic code in this library, each read looked up the generic metadata of
        // the storage, its lock and the optional, most of its cost (about 185 ns a read,
        // 17 ns inlined: Docs/Performance.md, *Code size*).
        if let resolved = storage.value {
            return resolved
        }
        return resolveOnFirstAccess()
    }

    /// Resolves the service and keeps it; out of line, since it runs once per property.
    @usableFromInline
    func resolveOnFirstAccess() -> Service {
        do {
            let resolved = try (storage.registry ?? .shared).resolve(Service.self, name: storage.name)
            return storage.keep(resolved)
        } catch {
            // The error's fix says to register or override the service, not where: name the
            // registry this property asked, which a test may not be overriding.
            let source =
                storage.registry == nil ? "ServiceRegistry.shared" : "the registry given to @Injected(registry:)"
            fatalError(
                "@Injected \(error.description)\n  The property resolves from \(source).",
                file: storage.fileID, line: storage.line)
        }
    }

    /// Where to resolve from, and the resolved service. Two threads that read the property
    /// for the first time at once may both resolve; the first to finish is kept and
    /// returned to both.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        let registry: ServiceRegistry?
        let name: String?
        /// Where the property is declared: where a failed resolve stops the program, so the
        /// report names the property rather than this file.
        let fileID: StaticString
        let line: UInt
        // @unchecked: the constants above are Sendable; the value lives inside the mutex,
        // and it is a resolved service, which the registry hands out to whoever asks.
        @usableFromInline
        let state = Lock<UncheckedSendable<Service?>>(UncheckedSendable(nil))

        init(registry: ServiceRegistry?, name: String?, fileID: StaticString, line: UInt) {
            self.registry = registry
            self.name = name
            self.fileID = fileID
            self.line = line
        }

        @inlinable
        var value: Service? {
            state.withLock { $0 }.value
        }

        func keep(_ value: Service) -> Service {
            let candidate = UncheckedSendable<Service?>(value)
            return state.withLock { state in
                if state.value == nil {
                    state = candidate
                }
                return state
            }.value!
        }
    }
}

extension Injected: Sendable where Service: Sendable {}
