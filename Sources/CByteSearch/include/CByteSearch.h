#ifndef MLIB_BYTE_SEARCH_H
#define MLIB_BYTE_SEARCH_H
#include <stddef.h>

/// glibc's memmem(3): where `needle` first occurs in `haystack`, or NULL. Swift's Glibc module leaves it out
/// (it is a GNU extension, declared only under _GNU_SOURCE), and a search over a million folded texts wants
/// glibc's two-way search rather than a loop written in Swift.
const void *mlib_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
