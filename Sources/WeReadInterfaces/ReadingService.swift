/// The reader: opens books for reading and resumes where the reader left off.
///
/// Provided by the `WeReadReading` component. It is a class-bound protocol because the
/// component shares one reader while someone holds it and lets it go afterwards, which
/// only works for objects.
///
/// ```swift
/// let reader = try registry.resolve(ReadingService.self)
/// let session = try reader.startReading(BookID(42))
/// ```
public protocol ReadingService: AnyObject, Sendable {
    /// Opens a book for reading, at the page the reader's shelf remembers.
    ///
    /// - Parameter id: The book's id.
    /// - Returns: The session: the book, the page to show, and the time left.
    /// - Throws: ``UnknownBookError`` when the catalog has no book with that id.
    func startReading(_ id: BookID) throws -> ReadingSession
}
