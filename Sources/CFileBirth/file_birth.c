#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include "CFileBirth.h"

int mlib_file_birth(const char *path, uint64_t inode, int64_t *nanoseconds) {
    struct statx sx;
    if (statx(AT_FDCWD, path, 0, STATX_INO | STATX_BTIME, &sx) != 0) return 0;
    // ext4, tmpfs, xfs (v5) and btrfs give it; a file system that cannot leaves STATX_BTIME out of the mask.
    if (!(sx.stx_mask & STATX_BTIME) || !(sx.stx_mask & STATX_INO) || sx.stx_ino != inode) return 0;
    *nanoseconds = (int64_t)sx.stx_btime.tv_sec * 1000000000 + (int64_t)sx.stx_btime.tv_nsec;
    return 1;
}
