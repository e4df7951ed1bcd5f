import Testing
import WeReadInterfaces

/// The plain values and protocols of the interfaces module, which every component and
/// the app share: what they accept and promise, checked on their own.
@Suite struct InterfaceValueTests {
    /// An id is plain decimal digits: `Int(_:)` alone would also take a leading `+`, so
    /// `weread open +42` or `weread://book/+42` would open book 42 from text that is not an
    /// id a person would write, while `-42` is refused.
    @Test(arguments: ["+42", "-42", " 42", "42 ", "4_2", "0x2A", "٤٢", "", "0"])
    func onlyPlainDecimalDigitsParseAsABookID(text: String) {
        #expect(BookID(parsing: text) == nil)
    }

    @Test func leadingZerosAreStillTheSameBookID() {
        #expect(BookID(parsing: "042") == BookID(42))
        #expect(BookID(parsing: "1") == BookID(1))
    }

    /// "Progress through the book in whole percent, from 0 to 100": a shelf entry can be
    /// made with more pages read than the book has (a newer, shorter edition), or fewer
    /// than none, and must claim neither more than finished nor less than not started.
    @Test(arguments: [(150, 100), (100, 100), (99, 99), (0, 0), (-5, 0)])
    func percentReadStaysBetweenZeroAndAHundred(pagesRead: Int, percent: Int) {
        let book = Book(id: BookID(1), title: "T", author: "A", year: 2000, pageCount: 100)
        #expect(ShelfEntry(book: book, pagesRead: pagesRead).percentRead == percent)
    }

    /// Services are shared between screens that may run on any thread (a singleton catalog,
    /// the reader a progress bar shares), so each interface protocol refines `Sendable`: an
    /// instance resolved once can be handed to concurrent tasks. This fails to compile if
    /// one of them stops being `Sendable`.
    @Test func everyServiceInterfaceIsSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable((any CatalogService).self)
        requireSendable((any ReviewService).self)
        requireSendable((any BookDetailService).self)
        requireSendable((any BookshelfService).self)
        requireSendable((any ReadingService).self)
    }
}
