// Two malloc arenas for the whole process, set before any thread starts: glibc gives each thread that meets
// contention an arena of its own (up to 8 per core), and the scan's probing threads kept in theirs what
// FFmpeg and TagLib freed. A 1,000,000-file scan peaked at 154 MB RSS in 215 s with glibc's default and at
// 144 MB in 164 s with two (Benchmarks/identity-bench.sh, FULL_ONLY=1). MALLOC_ARENA_MAX still overrides.
#include <malloc.h>
#include <stdlib.h>

__attribute__((constructor)) static void limit_malloc_arenas(void) {
    if (getenv("MALLOC_ARENA_MAX") == NULL) mallopt(M_ARENA_MAX, 2);
}
