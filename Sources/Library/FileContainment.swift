import Foundation
import MediaModel
import MediaScanner

/// The one rule by which every front opens a library file to send it (Subsonic `stream`/`download`/
/// `getCoverArt`, transcoding, MPD `albumart`/`readpicture`, and the web and DLNA fronts to come): a
/// file is served only if the descriptor actually opened lies beneath one of the roots.
///
/// Checking a path when it is indexed is not enough: a song file swapped for a symlink to the users' key
/// file after the scan would be served. So containment is checked at open time, on what was opened:
/// - the last component is opened with `O_NOFOLLOW`: a symbolic link *as the file itself* is never
///   served, wherever it points (the scanner indexes a link into the roots under its target's path, so
///   what a front is asked for is the real file; a link leading out of the roots is indexed, its tags
///   listed, but not sent);
/// - symbolic links among the *directories* above it are followed, and then the real path of the open
///   descriptor (`/proc/self/fd/N`) must lie under the real path of a root: a directory linked inside the
///   roots serves; one linked to `/etc` does not;
/// - only a regular file is served (not a FIFO, which would block, nor a device).
/// The check and the read are on one descriptor, so a swap between them changes nothing. (`openat2` with
/// `RESOLVE_BENEATH` would refuse linked directories that stay inside the roots, which the scanner indexes.)
public struct FileContainment: Sendable {
    public let roots: [MediaPath]

    public init(roots: [MediaPath]) { self.roots = roots }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case outsideTheRoots, notARegularFile, tooLarge, cannotOpen(Int32)
        public var description: String {
            switch self {
            case .outsideTheRoots: "the file is not beneath a library root"
            case .notARegularFile: "not a regular file"
            case .tooLarge: "the file is larger than allowed"
            case .cannotOpen(let code): String(cString: strerror(code))
            }
        }
    }

    /// `path` opened for reading, if it lies beneath a root by the rule above and is at most `maximumSize`
    /// bytes.
    public func open(_ path: MediaPath, maximumSize: Int? = nil) throws(Refusal) -> ContainedFile {
        guard RootContainment.root(holding: path, among: roots) != nil else { throw .outsideTheRoots }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; cleared once the file is known regular.
        let fd = path.withCString { Glibc.open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw errno == ELOOP ? .outsideTheRoots : .cannotOpen(errno) }
        let file = ContainedFile(descriptor: fd)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard let real = Self.realPath(descriptor: fd),
              RootContainment.root(holding: real, among: realRoots()) != nil else { throw .outsideTheRoots }
        if let maximumSize, Int(info.st_size) > maximumSize { throw .tooLarge }
        file.size = Int(info.st_size)
        file.modified = info.st_mtim
        file.realPath = real
        return file
    }

    /// `relative` (a client's path below a root, as MPD's URIs — reversible text, so a name that is not UTF-8
    /// comes back as its bytes; "" for the root itself) as a path below
    /// `root`, or nil when it is not a safe relative path (an empty, `.` or `..` component could name
    /// something outside the root). What it names is still opened by `open`'s rule.
    public static func clientPath(_ relative: String, below root: MediaPath) -> MediaPath? {
        if relative.isEmpty { return root }
        // A name that is not UTF-8 reaches clients as reversible text (`MediaPath.reversibleText`): its bytes.
        let bytes = MediaPath(reversibleText: relative)
        guard RootContainment.isSafeRelative(bytes.bytes) else { return nil }
        let path = root.appending(bytes)
        return RootContainment.root(holding: path, among: [root]) == nil ? nil : path
    }

    /// The roots' real paths (a root that is itself a link, or lies below one, compared as what it is).
    private func realRoots() -> [MediaPath] {
        roots.compactMap { root in
            guard let resolved = root.withCString({ realpath($0, nil) }) else { return nil }
            defer { free(resolved) }
            return MediaPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
        }
    }

    /// What the kernel says descriptor `fd` is (`/proc/self/fd/N`), as bytes.
    static func realPath(descriptor fd: Int32) -> MediaPath? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count)
        guard n > 0, n < buffer.count else { return nil }
        return MediaPath(bytes: Array(buffer[..<n]))
    }
}

/// A file opened by `FileContainment`: read it through `descriptor` (or hand `procPath` to a library that
/// opens by name, as FFmpeg does: it names this descriptor's file, not the path that was asked for).
/// Closed when released.
public final class ContainedFile: @unchecked Sendable {
    public let descriptor: Int32
    public internal(set) var size = 0
    public internal(set) var modified = timespec()
    public internal(set) var realPath = MediaPath(bytes: [])

    init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }

    /// `/proc/self/fd/N`: opening it opens this very file again, whatever has happened to its path since.
    public var procPath: MediaPath { MediaPath("/proc/self/fd/\(descriptor)") }

    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 { if errno == EINTR { continue }; throw FileContainment.Refusal.cannotOpen(errno) }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[..<done])
    }

    /// The whole file (callers open it with a `maximumSize`).
    public func readAll() throws -> [UInt8] { try read(at: 0, count: size) }
}
