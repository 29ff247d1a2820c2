import CFileBirth
import MediaIndex
import MediaModel

/// A file's birth time, which the file keeps through a rename and a retag in place and which a new file on a
/// deleted file's reused inode number does not share: the same-file rule of `MoveEvidenceRules` compares it
/// (issue 47, seed 12 of the model: a retagged copy of another release, written where a deleted release was,
/// got that release's inode on ext4 and took its item). Read once per file read (a statx beside the probe's
/// own open and reads), never by the walk. Nil where the file system gives none (statx without
/// STATX_BTIME), or when the file at `path` is no longer the one the walk saw (`inode`).
enum FileBirth {
    static func of(_ path: MediaPath, inode: Int64) -> Int64? {
        var nanoseconds: Int64 = 0
        let known = path.withCString { mlib_file_birth($0, UInt64(bitPattern: inode), &nanoseconds) }
        return known == 1 ? nanoseconds : nil
    }
}
