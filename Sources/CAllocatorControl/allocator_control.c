#include "CAllocatorControl.h"

#include <limits.h>
#if defined(__linux__)
#include <malloc.h>  // glibc's statistics and settings; it also defines __GLIBC__ on glibc
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#define ALLOCATOR_HAS_MALLINFO2 1
#endif

long allocator_heap_bytes_in_use(void) {
#if defined(ALLOCATOR_HAS_MALLINFO2)
    struct mallinfo2 info = mallinfo2();
    return (long)(info.uordblks + info.hblkhd);
#else
    // The older `mallinfo` counts in `int`, which a heap past 2 GB overflows, and glibc
    // 2.33 deprecated it: no figure rather than a wrong one.
    return -1;
#endif
}

int allocator_keep_freed_memory(int largest_heap_block) {
#if defined(__GLIBC__)
    return mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1 && mallopt(M_MMAP_THRESHOLD, largest_heap_block) == 1;
#else
    (void)largest_heap_block;
    return 0;
#endif
}

void allocator_return_freed_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
