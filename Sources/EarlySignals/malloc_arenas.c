// Two malloc arenas for the whole process, set before any thread starts: glibc gives each thread that meets
// contention an arena of its own (up to 8 per core), and the scan's probing threads kept in theirs what
// FFmpeg and TagLib freed. A 1,000,000-file scan peaked at 154 MB RSS in 215 s with glibc's default and at
// 144 MB in 164 s with two (Benchmarks/identity-bench.sh, FULL_ONLY=1). MALLOC_ARENA_MAX still overrides.
#include <malloc.h>
#include <stdlib.h>

//
// The scan's pattern is short-lived blocks of every size per file (TagLib's frames and strings, FFmpeg's
// contexts, a cover picture of 30–500 KiB now and then): with glibc's defaults the heap top was given back
// and taken again all the time (223 brk calls per 1,000 files) and each large picture was an mmap and a
// munmap. Fixed thresholds keep a little more at the top of the heap (at most M_TRIM_THRESHOLD + M_TOP_PAD
// per arena, ~5 MiB, two arenas) and serve pictures up to 1 MiB from the heap. Each setting yields to its
// MALLOC_*_ environment variable, as glibc's own.
__attribute__((constructor)) static void limit_malloc_arenas(void) {
    if (getenv("MALLOC_ARENA_MAX") == NULL) mallopt(M_ARENA_MAX, 2);
    if (getenv("MALLOC_TRIM_THRESHOLD_") == NULL) mallopt(M_TRIM_THRESHOLD, 4 << 20);
    if (getenv("MALLOC_TOP_PAD_") == NULL) mallopt(M_TOP_PAD, 1 << 20);
    if (getenv("MALLOC_MMAP_THRESHOLD_") == NULL) mallopt(M_MMAP_THRESHOLD, 1 << 20);
}
