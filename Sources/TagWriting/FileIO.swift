import Foundation
import Glibc
import MediaModel

/// Whole reads and writes over POSIX calls, retried on EINTR and short counts.
enum FileIO {
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = offset.map { pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t($0) + off_t(done)) }
                ?? write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            done += n
        }
        return nil
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64? = nil) -> Int32? {
        bytes.isEmpty ? nil : bytes.withUnsafeBytes { writeAll(fd, $0, at: offset) }
    }

    static func read(_ fd: Int32, count: Int, at offset: Int64) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            done += n
        }
        return out
    }

    static func readWhole(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return read(fd, count: Int(st.st_size), at: 0)
    }

    /// fsync of a directory, so a rename or an unlink in it survives a power loss.
    static func syncDirectory(_ path: String) { syncDirectory(MediaPath(path)) }

    static func syncDirectory(_ path: MediaPath) {
        let fd = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Starts writing `fd`'s dirty pages to the disk without waiting (sync_file_range with
    /// SYNC_FILE_RANGE_WRITE, looked up at run time: Glibc's module does not import it). Durability still
    /// needs the fsync; this only lets the disk begin early.
    static func startWriteback(_ fd: Int32) -> Bool {
        guard let syncFileRange else { return false }
        return syncFileRange(fd, 0, 0, 2) == 0
    }

    private nonisolated(unsafe) static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }   // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()

    /// fsync (or fdatasync, `dataOnly`) of every descriptor; the errno of each that failed. The writeback of
    /// every file is started first (`startWriteback`, no waiting), then each is synced in turn: the disk
    /// gets the whole group's pages at once and each sync mostly waits for what is already under way.
    /// Measured on this machine's ext4 (issue 50; a Python loop of the same calls, load ~12; 128 files of
    /// ~250 KB with 100 bytes overwritten in each): the group's fdatasyncs took 137–254 ms from 16 threads
    /// (how mlib synced before), 352 ms one after another, 15–23 ms with the writeback started first and
    /// one thread; 128 new files' fsyncs 133–189 ms from 16 threads against 73–75 ms. Durability is still
    /// each file's own fsync or fdatasync.
    static func syncAll(_ fds: [Int32], dataOnly: Bool) -> [Int32?] {
        if fds.count > 1 { for fd in fds { _ = startWriteback(fd) } }
        return fds.map { (dataOnly ? fdatasync($0) : fsync($0)) == 0 ? nil : errno }
    }

    static func isFull(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }
}
