import Glibc
import MediaModel

/// What says a file is still the one that was read: device, inode, size and modification time (to the
/// nanosecond), with the mode, owner and access time a rewrite keeps.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var mtime: timespec
    var atime: timespec
    var mode: mode_t
    var owner: uid_t
    var group: gid_t
    var links: Int

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        mtime = st.st_mtim
        atime = st.st_atim
        mode = st.st_mode
        owner = st.st_uid
        group = st.st_gid
        links = Int(st.st_nlink)
    }

    static func of(path: MediaPath) throws -> FileIdentity {
        var st = stat()
        guard path.withCString({ stat($0, &st) }) == 0 else { throw TagWriteError.system("stat", path.string, errno) }
        return FileIdentity(st)
    }

    static func of(fd: Int32, path: String) throws -> FileIdentity {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw TagWriteError.system("fstat", path, errno) }
        return FileIdentity(st)
    }

    /// The same file with the same content as far as the kernel says (the access time may differ).
    func sameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && mtime.tv_sec == other.mtime.tv_sec && mtime.tv_nsec == other.mtime.tv_nsec
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool { a.sameFile(as: b) }

    /// Whether anyone may write the file (mode bits: root's access() says yes to a 0444 file).
    var isWritable: Bool { mode & 0o222 != 0 }
}
