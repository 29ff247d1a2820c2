#ifndef MLIB_FILE_BIRTH_H
#define MLIB_FILE_BIRTH_H
#include <stdint.h>

/// The birth time of the file at `path` (symlinks followed, as the tree walker's stat), in nanoseconds since
/// the epoch, through statx(2)'s STATX_BTIME: 1 with `*nanoseconds` set when the file system gives it and the
/// file still has inode `inode` (the one the walk stat'ed: not a file put there since), else 0. Swift's Glibc
/// module leaves statx out (a GNU extension, declared only under _GNU_SOURCE). Identity evidence: file
/// systems hand a deleted file's inode number to the next new file, whose birth time is its own.
int mlib_file_birth(const char *path, uint64_t inode, int64_t *nanoseconds);

#endif
