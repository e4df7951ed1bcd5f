import CAllocatorControl

/// How many bytes the process's heap holds right now, as the C allocator counts them.
///
/// Reads glibc's `mallinfo2()` (through `CAllocatorControl`): bytes in use in every arena
/// (`uordblks`) plus bytes in blocks the allocator mapped directly (`hblkhd`). The figure
/// is process-wide, so a caller that wants the bytes an operation keeps alive takes two
/// readings around it on a quiet process, holding the operation's result until the second
/// reading.
///
/// Freed chunks that glibc parks in its per-thread cache (`tcache`, at most seven per
/// size) still count as in use; over thousands of operations that residue is a rounding
/// error, which is why held-bytes figures are always taken over many operations.
enum HeapUsage {
    /// The heap bytes currently allocated and not yet freed, or `nil` where the C library
    /// offers no such statistics: not glibc, or glibc before 2.33, whose `mallinfo` counts
    /// in `int`. Every figure taken from it is then left out of the report.
    static func bytesInUse() -> Int? {
        let bytes = allocator_heap_bytes_in_use()
        return bytes >= 0 ? bytes : nil
    }
}
