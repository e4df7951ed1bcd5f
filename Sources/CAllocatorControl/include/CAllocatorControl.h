#ifndef C_ALLOCATOR_CONTROL_H
#define C_ALLOCATOR_CONTROL_H

// What the benchmark asks of the C allocator: glibc's heap statistics and its settings for
// handing freed memory back to the kernel. In C because what glibc offers differs by version
// (`mallinfo2` arrived in glibc 2.33, and Amazon Linux 2, a platform Swift 6.3 ships for,
// has 2.26) and only the preprocessor can tell which one it is building against. The
// header includes nothing, so that any platform can import it; where the C library cannot
// do what a function asks, the function does nothing and says so if it returns anything.

/// The heap's bytes allocated and not yet freed, as glibc counts them: in every arena
/// (`uordblks`) and in blocks the allocator mapped for themselves (`hblkhd`). Returns -1
/// where the C library is not glibc 2.33 or later (`mallinfo2`).
long allocator_heap_bytes_in_use(void);

/// Stops glibc from trimming the heap's top and from mapping blocks of up to
/// `largest_heap_block` bytes for themselves, for the rest of the process. Returns 1 when
/// glibc took both settings, 0 when it refused one or the C library is not glibc.
int allocator_keep_freed_memory(int largest_heap_block);

/// Hands the heap's free memory back to the kernel (`malloc_trim(0)`); does nothing where
/// the C library is not glibc.
void allocator_return_freed_memory(void);

#endif
