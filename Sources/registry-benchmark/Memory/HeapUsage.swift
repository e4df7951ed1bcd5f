#if canImport(Glibc)
// `mallinfo2` is declared in <malloc.h>, which the Glibc module leaves out; CoreFoundation's
// headers include it on Linux, so this import is only here to see that one declaration.
import CoreFoundation
#endif

/// How many bytes the process's heap holds right now, as the C allocator counts them.
///
/// Reads glibc's `mallinfo2()`: bytes in use in every arena (`uordblks`) plus bytes in
/// blocks the allocator mapped directly (`hblkhd`). The figure is process-wide, so a
/// caller that wants the bytes an operation keeps alive takes two readings around it on
/// a quiet process, holding the operation's result until the second reading.
///
/// Freed chunks that glibc parks in its per-thread cache (`tcache`, at most seven per
/// size) still count as in use; over thousands of operations that residue is a rounding
/// error, which is why held-bytes figures are always taken over many operations.
enum HeapUsage {
    /// The heap bytes currently allocated and not yet freed, or `nil` where the platform
    /// offers no allocator statistics.
    static func bytesInUse() -> Int? {
        #if canImport(Glibc)
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
        #else
        return nil
        #endif
    }
}
