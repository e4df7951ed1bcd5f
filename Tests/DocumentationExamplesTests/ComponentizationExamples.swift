// Mirrors the code in Docs/Componentization.md, so the page cannot drift from the API.
// The page's types live in a namespace; each test runs the page's snippets for one scheme
// and checks what the page's comments claim.
import ServiceRegistry
import Testing

enum ComponentizationPage {
    // MARK: 1. Mediator + runtime

    /// What a target class looks like to the mediator: made by name, called by action name.
    protocol MediatorTarget: AnyObject {
        init()
        func perform(_ action: String, params: [String: Any]) -> Any?
    }

    /// Stands in for the Objective-C runtime's class lookup by name.
    enum Runtime {
        static func classNamed(_ name: String) -> (any MediatorTarget.Type)? {
            switch name {
            case "Target_BookDetail": Target_BookDetail.self
            default: nil
            }
        }
    }

    final class Mediator {
        func perform(target: String, action: String, params: [String: Any]) -> Any? {
            guard let targetClass = Runtime.classNamed("Target_" + target) else { return nil }
            return targetClass.init().perform("Action_" + action, params: params)
        }
    }

    // In the book detail component:
    final class Target_BookDetail: MediatorTarget {
        init() {}
        func perform(_ action: String, params: [String: Any]) -> Any? {
            guard action == "Action_open", let bookID = params["bookId"] as? String else { return nil }
            return "Book detail for \(bookID)"
        }
    }

    // MARK: 2. URL + block

    final class URLRouter {
        private var handlers: [(pattern: [Substring], handler: ([String: String]) -> Any?)] = []

        func register(_ pattern: String, handler: @escaping ([String: String]) -> Any?) {
            handlers.append((pattern.split(separator: "/"), handler))
        }

        func open(_ url: String) -> Any? {
            let parts = url.split(separator: "/")
            for (pattern, handler) in handlers where pattern.count == parts.count {
                var params: [String: String] = [:]
                let matches = zip(pattern, parts).allSatisfy { expected, actual in
                    guard expected.hasPrefix(":") else { return expected == actual }
                    params[String(expected.dropFirst())] = String(actual)
                    return true
                }
                if matches { return handler(params) }
            }
            return nil
        }
    }

    // MARK: 3. Protocol + lazy factory

    // WeReadInterfaces
    public struct BookID: Hashable, Sendable {
        public let rawValue: Int
        public init(_ rawValue: Int) { self.rawValue = rawValue }
    }

    public protocol BookDetailService: Sendable {
        func render() -> String
    }

    // WeReadBookDetail: implementation internal, one public assembly.
    struct BookDetailScreen: BookDetailService {
        let bookID: BookID
        func render() -> String { "Book detail for \(bookID.rawValue)" }
    }

    public struct BookDetailAssembly: ServiceAssembly {
        public init() {}
        public func assemble(into registry: ServiceRegistry) {
            registry.register(BookDetailService.self) { (_, bookID: BookID) in BookDetailScreen(bookID: bookID) }
        }
    }
}

@Suite struct ComponentizationExamples {
    typealias Mediator = ComponentizationPage.Mediator
    typealias URLRouter = ComponentizationPage.URLRouter
    typealias BookID = ComponentizationPage.BookID
    typealias BookDetailService = ComponentizationPage.BookDetailService
    typealias BookDetailAssembly = ComponentizationPage.BookDetailAssembly

    @Test func theMediatorOpensBook42ByStringsAndFailsSilently() {
        // In the bookshelf component:
        let screen = Mediator().perform(target: "BookDetail", action: "open", params: ["bookId": "42"]) as? String
        #expect(screen == "Book detail for 42")

        let typo = Mediator().perform(target: "BookDetails", action: "open", params: ["bookId": "42"])
        #expect(typo == nil)
        let wrongType = Mediator().perform(target: "BookDetail", action: "open", params: ["bookId": 42])
        #expect(wrongType == nil)
    }

    @Test func theURLRouterOpensBook42ByURLAndFailsSilently() {
        let router = URLRouter()

        // At launch, the book detail component registers its URLs (and so does every other one):
        router.register("weread://book/:id") { params in
            guard let bookID = params["id"] else { return nil }
            return "Book detail for \(bookID)"
        }

        // In the bookshelf component:
        let opened = router.open("weread://book/42") as? String
        #expect(opened == "Book detail for 42")

        let misspelt = router.open("weread://books/42")   // nil
        #expect(misspelt == nil)
    }

    @Test func theRegistryOpensBook42ByTypeAndExplainsFailures() throws {
        // The composition root:
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly())

        // In the bookshelf component:
        let detail = try registry.resolve(BookDetailService.self, argument: BookID(42))
        #expect(detail.render() == "Book detail for 42")

        let withoutDetail = ServiceRegistry()   // the detail component left out
        var missing: ResolutionError?
        do {
            _ = try withoutDetail.resolve(BookDetailService.self, argument: BookID(42))
        } catch {
            missing = error
        }
        #expect(missing?.reason == .notRegistered)
        #expect(missing?.description.contains("nothing is registered for it") == true)
        #expect(missing?.description.split(separator: "\n").last?.hasPrefix("  Fix: register `ComponentizationPage.BookDetailService`") == true, "with the fix")

        var mismatch: ResolutionError?
        do {
            _ = try registry.resolve(BookDetailService.self, argument: 42)   // an Int, not a BookID
        } catch {
            mismatch = error
        }
        #expect(mismatch?.reason == .argumentMismatch)   // argumentMismatch — "asked with an argument of type `Int`, but it is registered with `BookID`"
        #expect(
            mismatch?.description.contains(
                "asked with an argument of type `Int`, but it is registered with `ComponentizationPage.BookID`") == true)
        #expect(mismatch?.givenArgumentType == "Int")
        #expect(mismatch?.registeredArgumentTypes == ["ComponentizationPage.BookID"])
    }

    /// "`try registry.validate(sampleArguments: [BookID(42)])` in one test builds every
    /// registration in isolation (those that take a book id with the sample one), so a
    /// missing component fails the test suite".
    @Test func validationWithASampleBookIDBuildsTheDetailScreen() throws {
        let registry = ServiceRegistry()
        registry.install(BookDetailAssembly())
        let report = try registry.validate(sampleArguments: [BookID(42)])
        #expect(report.built == ["ComponentizationPage.BookDetailService (argument: ComponentizationPage.BookID)"])
        #expect(report.notChecked.isEmpty)
        #expect(try registry.validate().notChecked == report.built, "without the sample, it is not checked")
    }

    @Test func validationFindsTheMissingComponentInATest() {
        let registry = ServiceRegistry()
        registry.register(String.self) { r in
            _ = try r.resolve(BookDetailService.self, argument: BookID(42))
            return "bookshelf"
        }
        #expect(throws: ValidationError.self) { try registry.validate() }
    }
}
