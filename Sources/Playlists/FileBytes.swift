#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MediaModel

/// Whole-file reads and atomic whole-file writes by path bytes (names need not be UTF-8).
public enum FileBytes {
    /// The whole of the regular file at `path`, refused when it is anything else or larger than `limit`.
    /// Opened with O_NONBLOCK so that a FIFO is refused at once instead of waiting for a writer, and checked
    /// with fstat on the open descriptor (no race with a rename); a device such as /dev/zero, reached
    /// through a symlink, would otherwise be read until memory runs out.
    public static func read(_ path: MediaPath, limit: Int = .max) throws -> [UInt8] {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw error(path, "cannot open") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw error(path, "cannot read") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw PlaylistError(path: path.string, "not a regular file (\(kind(st.st_mode))); a playlist is a file")
        }
        guard st.st_size <= limit else { throw tooLarge(path, limit) }
        var out: [UInt8] = []
        out.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw error(path, "cannot read") }
            if n == 0 { return out }
            out.append(contentsOf: chunk[..<n])
            // A file growing while it is read is held to the same limit.
            if out.count > limit { throw tooLarge(path, limit) }
        }
    }

    private static func tooLarge(_ path: MediaPath, _ limit: Int) -> PlaylistError {
        PlaylistError(path: path.string, "larger than \(limit >> 20) MB; not read (a playlist is smaller)")
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "not a plain file"
        }
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same folder, flushed to disk, then
    /// renamed over the target. An interrupted or failed write leaves the old file as it was (and no
    /// temporary behind). A new file gets mode 0666 minus the umask; an existing one keeps its mode.
    /// `path` with symlinks at its end followed (up to 40, as the kernel does); a dangling link's target.
    static func throughSymlinks(_ path: MediaPath) -> MediaPath {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard current.withCString({ lstat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = current.withCString { c in buffer.withUnsafeMutableBufferPointer { readlink(c, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count - 1) } }
            guard n > 0 else { return current }
            let target = MediaPath(bytes: Array(buffer[0..<n]))
            current = target.bytes.first == UInt8(ascii: "/") ? target : current.directory.appending(target)
        }
        return current
    }

    public static func writeAtomically(_ bytes: [UInt8], to link: MediaPath) throws {
        // Through a symlink to the file it names (renaming over the link replaced it with a plain file).
        let path = throughSymlinks(link)
        var template = path.directory.appending(MediaPath(".\(path.lastComponent.string.prefix(40)).XXXXXX")).bytes + [0]
        let fd = template.withUnsafeMutableBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
        }
        guard fd >= 0 else { throw error(path, "cannot create a temporary file in its folder") }
        let temp = MediaPath(bytes: Array(template.dropLast()))
        var done = false
        defer {
            if !done { _ = temp.withCString { unlink($0) } }
        }
        do {
            defer { close(fd) }
            var st = stat()
            let mode: mode_t
            if path.withCString({ stat($0, &st) }) == 0 { mode = st.st_mode & 0o7777 } else {
                let mask = umask(0); umask(mask)
                mode = 0o666 & ~mask
            }
            fchmod(fd, mode)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 { if errno == EINTR { continue }; throw error(path, "cannot write") }
                offset += n
            }
            guard fsync(fd) == 0 else { throw error(path, "cannot flush") }
        }
        let renamed = temp.withCString { t in path.withCString { rename(t, $0) } }
        guard renamed == 0 else { throw error(path, "cannot replace") }
        done = true
    }

    private static func error(_ path: MediaPath, _ what: String) -> PlaylistError {
        PlaylistError(path: path.string, "\(what): \(String(cString: strerror(errno)))")
    }
}
