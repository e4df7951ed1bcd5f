import CAllocatorControl

/// Keeps the memory a sample frees with the process, so that the next sample reuses it.
///
/// A sample of `register` or of a start-up case keeps everything it built until its clock
/// stops, then frees it: megabytes at once in a full run. glibc would hand that memory
/// back to the kernel (it trims the heap's top beyond 128 kB, and unmaps a block it mapped
/// for itself), and the next sample would take it back one page fault at a time: kernel
/// work that grows with the sample, not the registry's, and that made a full run's
/// `register` about 50 ns a registration slower than a `--quick` run's on this VM. With
/// trimming off, and blocks of up to 32 MB taken from the heap rather than mapped, every
/// sample meets the allocator the warm-up left, as every other case does. A process's
/// first launch (`startup-N-first`) is timed after ``returnFreedMemory()``, so it still
/// meets memory fresh from the kernel, as an app's launch does.
enum FreedMemoryRetention {
    /// Turns glibc's trimming and per-block mappings off for the rest of the process; does
    /// nothing where the C library is not glibc.
    ///
    /// - Returns: Whether the allocator took both settings.
    @discardableResult
    static func keepFreedMemory() -> Bool {
        allocator_keep_freed_memory(32 << 20) == 1
    }

    /// Hands the memory freed so far back to the kernel, which ``keepFreedMemory()`` keeps
    /// from happening by itself; does nothing where the C library is not glibc.
    static func returnFreedMemory() {
        allocator_return_freed_memory()
    }
}
