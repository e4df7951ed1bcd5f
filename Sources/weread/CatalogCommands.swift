import ServiceRegistry
import WeReadInterfaces

/// The one-step commands: `open`, `reviews` and `search`, each run against a registry.
///
/// They resolve services by their protocol types only; which component provides each one
/// is decided in ``WeReadApp``.
struct CatalogCommands {
    let registry: ServiceRegistry

    /// `weread open <book-id>`: the book's detail screen.
    func open(_ id: BookID) -> CommandResult {
        do {
            let detail = try registry.resolve(BookDetailService.self, argument: id)
            return .success([detail.render()])
        } catch {
            return failure(error, command: "open")
        }
    }

    /// `weread reviews <book-id>`: every review of the book, the most helpful first.
    func reviews(_ id: BookID) -> CommandResult {
        do {
            let screen = try Screens.reviews(
                of: id, reviews: registry.resolve(ReviewService.self), catalog: registry.resolve(CatalogService.self))
            return .success(screen)
        } catch {
            return failure(error, command: "reviews")
        }
    }

    /// `weread search <text>`: books whose title or author contains the text.
    func search(_ text: String) -> CommandResult {
        do {
            let matches = try registry.resolve(CatalogService.self).search(text)
            guard !matches.isEmpty else {
                return .failure(TextLayout.noMatch(text, example: "weread search austen"), .notFound)
            }
            return .success(TextLayout.searchResult(matches, for: text))
        } catch {
            return failure(error, command: "search")
        }
    }

    /// Turns an error into a message: an unknown book is the user's mistake and says how
    /// to find a real id; anything else is a wiring bug and prints the registry's own
    /// explanation, which names the path and the fix.
    private func failure(_ error: any Error, command: String) -> CommandResult {
        if let unknown = Self.unknownBook(in: error) {
            return .failure(unknownBookMessage(unknown), .notFound)
        }
        return .failure("weread \(command): the app could not be wired up.\n\(error)", .software)
    }

    /// What weread says for a book id the catalog does not have, by command or by link:
    /// which ids exist, and how to find one.
    func unknownBookMessage(_ unknown: UnknownBookError) -> String {
        var message = "weread: no book with id \(unknown.bookID) in the catalog"
        if let range = idRange() {
            message += " (ids run from \(range.lowerBound) to \(range.upperBound))"
        }
        return message + ".\nFind a book's id with: weread search <text>"
    }

    private func idRange() -> ClosedRange<BookID>? {
        guard let books = try? registry.resolve(CatalogService.self).books,
              let first = books.first, let last = books.last
        else { return nil }
        return first.id...last.id
    }

    /// Finds an `UnknownBookError` thrown directly, or by a factory somewhere down the
    /// resolution path (the registry wraps what factories throw).
    static func unknownBook(in error: any Error) -> UnknownBookError? {
        if let unknown = error as? UnknownBookError { return unknown }
        if let resolution = error as? ResolutionError, let underlying = resolution.underlyingError {
            return unknownBook(in: underlying)
        }
        return nil
    }
}
