/// Read access to a string's UTF-8 bytes with every index checked, for the URL parser.
///
/// The parser is the router's hot path, and `String.UTF8View` indices re-validate on every
/// access, which made parsing slower than matching. This view reads the contiguous UTF-8
/// storage directly, but unlike a bare `UnsafeBufferPointer` (whose subscript is checked in
/// debug builds only) it checks every index in every build: a parser bug is then a
/// deterministic trap that the fuzz target finds, never a read outside the string.
struct UTF8Bytes {
    private let buffer: UnsafeBufferPointer<UInt8>

    /// Wraps `buffer`, which must stay valid while this value is used.
    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The number of bytes.
    var count: Int { buffer.count }

    /// The byte at `index`; traps if `index` is outside `0..<count`.
    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < buffer.count, "UTF8Bytes index out of range")
        return buffer[index]
    }

    /// The first position of `byte` in `range`, or `nil`.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if self[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Whether any byte in `range` satisfies `predicate`.
    func contains(in range: Range<Int>, where predicate: (UInt8) -> Bool) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            if predicate(self[index]) { return true }
            index += 1
        }
        return false
    }

    /// The bytes in `range` as a string. The caller splits only at ASCII delimiters, so
    /// the range holds whole characters' UTF-8 and decoding repairs nothing.
    func string(_ range: Range<Int>) -> String {
        String(decoding: slice(range), as: UTF8.self)
    }

    /// The bytes in `range`, checked against the buffer's bounds.
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "UTF8Bytes range out of bounds")
        return UnsafeBufferPointer(rebasing: buffer[range])
    }
}
