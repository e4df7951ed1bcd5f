// The output the library's doc comments quote in ```text blocks (an error's description, a
// rendered graph), read from the source and compared with what the code prints for the
// example's registrations, so the two cannot drift apart.
import Foundation
import ServiceRegistry
import Testing

@Suite struct DocCommentOutputs {
    struct ReviewStore: Sendable {}
    struct CatalogService: Sendable {}

    /// The ```text block of the doc comment in `file` that follows the first line containing
    /// `marker`, with its lines' comment markers removed and the page's types named as this
    /// file names them (`DocComments.ReviewService`).
    static func quotedOutput(in file: String, after marker: String, types: [String: String]) throws -> [String] {
        let source = try MirrorCoverageTests.read(file)
        let lines = MirrorCoverageTests.docComments(of: source).split(separator: "\n", omittingEmptySubsequences: false)
        return try textBlock(in: lines, after: marker, of: "the doc comments of \(file)")
            .map { qualifying(types, in: String($0)) }
    }

    /// `ResolutionError`'s example description: "each part is one line (the fix is one long
    /// line, wrapped here)".
    @Test func resolutionErrorsQuotedDescription() throws {
        let quoted = try Self.quotedOutput(
            in: "Sources/ServiceRegistry/ResolutionError.swift", after: "each part is one line",
            types: [
                "ReviewService": "DocComments.ReviewService", "BookDetailService": "DocComments.BookDetailService",
                "ReadingService": "DocComments.ReadingService",
            ])
        // Lines indented past their part's are the wrapped fix.
        var expected: [String] = []
        for line in quoted {
            if line.hasPrefix("    "), let last = expected.popLast() {
                expected.append(last + " " + line.trimmingCharacters(in: .whitespaces))
            } else {
                expected.append(line)
            }
        }
        #expect(expected.count == 4, "found the example")

        let registry = ServiceRegistry()
        registry.register(DocComments.ReviewService.self, name: "offline") { _ in DocComments.OfflineReviews() }
        registry.register(DocComments.BookDetailService.self) { r in
            DocComments.BookDetailServiceImpl(reviews: try r.resolve(DocComments.ReviewService.self))
        }
        registry.register(DocComments.ReadingService.self) { r in
            let detail = try r.resolve(DocComments.BookDetailService.self)
            return DocComments.Reader(reviews: DocComments.FixedCount(count: detail.reviewCount))
        }
        let error = try #require(throws: ResolutionError.self) { try registry.resolve(DocComments.ReadingService.self) }
        #expect(error.description == expected.joined(separator: "\n"))
    }

    /// The not-checked sentences' example (a doc comment of the report's internal
    /// formatter, wrapped there), as a report prints them.
    @Test func notCheckedSentencesQuotedText() throws {
        let quoted = try Self.quotedOutput(
            in: "Sources/ServiceRegistry/Validation/ValidationReport.swift", after: "The sentences that list the registrations",
            types: ["BookScreen": "DocComments.BookScreen"])
        #expect(quoted.first?.hasPrefix("Not checked") == true, "found the example")
        let registry = ServiceRegistry()
        registry.register(DocComments.BookScreen.self) { (_, bookId: String) in DocComments.BookScreenImpl(bookId: bookId) }
        #expect(try registry.validate().description.hasSuffix(" " + quoted.joined(separator: " ")))
    }

    /// `DependencyGraph.textTree`'s example.
    @Test func textTreesQuotedRendering() throws {
        let quoted = try Self.quotedOutput(
            in: "Sources/ServiceRegistry/Validation/DependencyGraph+Rendering.swift",
            after: "is a root; a subtree already printed is shown once",
            types: [
                "ReviewService": "DocComments.ReviewService", "BookDetailService": "DocComments.BookDetailService",
                "CatalogService": "DocCommentOutputs.CatalogService", "ReviewStore": "DocCommentOutputs.ReviewStore",
                "ReviewAssembly": "ReviewAssembly", "BookDetailAssembly": "BookDetailAssembly",
                "CatalogAssembly": "CatalogAssembly",
            ])
        #expect(quoted.count == 4, "found the example")

        let registry = ServiceRegistry()
        registry.install(TreeAssembly.catalog, TreeAssembly.reviews, TreeAssembly.detail)
        #expect(registry.dependencyGraph().textTree == quoted.joined(separator: "\n") + "\n")
    }
}

/// The assemblies of the `textTree` example, under the names it shows.
private enum TreeAssembly {
    static let catalog = CatalogAssembly()
    static let reviews = ReviewAssembly()
    static let detail = BookDetailAssembly()
}

private struct CatalogAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(DocCommentOutputs.CatalogService.self, scope: .singleton) { _ in .init() }
    }
}

private struct ReviewAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(DocComments.ReviewService.self, scope: .singleton) { r in
            _ = try r.resolve(DocCommentOutputs.ReviewStore.self)
            return DocComments.ReviewServiceImpl()
        }
    }
}

private struct BookDetailAssembly: ServiceAssembly {
    func assemble(into registry: ServiceRegistry) {
        registry.register(DocComments.BookDetailService.self) { r in
            _ = try r.resolve(DocCommentOutputs.CatalogService.self)
            return DocComments.BookDetailServiceImpl(reviews: try r.resolve(DocComments.ReviewService.self))
        }
    }
}

extension DocComments {
    struct FixedCount: ReviewService {
        let count: Int
        func reviews() -> [String] { Array(repeating: "", count: count) }
    }
}
