#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MediaModel

/// An exclusive `flock` on `<library>.lock`, held for the whole scan, so two scans of one library never
/// interleave. Readers need no lock (SQLite WAL). The kernel drops the lock when the process dies, even by
/// SIGKILL, so a crashed scan never leaves a stale lock behind.
public final class ScanLock {
    public enum Failure: Error, CustomStringConvertible {
        case busy(lockFile: String)
        case cannotCreate(lockFile: String, reason: String)
        public var description: String {
            switch self {
            case .busy(let f): "another scan is running on this library (lock: \(f)); try again later"
            case .cannotCreate(let f, let r): "cannot create lock file \(f): \(r)"
            }
        }
    }

    public let lockFile: String
    private let fd: Int32

    /// Takes the lock. With `timeout` nil it waits as long as needed; with 0 it fails at once when busy.
    /// `onWait` is called once if it has to wait (to tell the user why nothing happens). While it waits,
    /// `shouldStop` is asked every 0.1 s: true gives up with a `CancellationError` (a SIGTERM ends a waiting scan).
    public init(libraryPath: String, timeout: Double?, onWait: () -> Void = {}, shouldStop: () -> Bool = { false }) throws {
        lockFile = libraryPath + ".lock"
        // By the path's bytes: Foundation's `deletingLastPathComponent` traps on a one-character relative
        // path (`--library L`, issue 47). A bare name's folder is the working directory: nothing to make.
        let directory = MediaPath(libraryPath).directory.string
        if directory != "." { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        fd = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure.cannotCreate(lockFile: lockFile, reason: String(cString: strerror(errno))) }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var warned = false
        // Poll rather than block in flock(2): a deadline can then be honoured and signals handled. A throw
        // from here on runs deinit (every property is set), which closes `fd`: closing it here as well
        // closed whatever another thread had opened under that number meanwhile.
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw Failure.cannotCreate(lockFile: lockFile, reason: String(cString: strerror(errno)))
            }
            if let deadline, Date() >= deadline { throw Failure.busy(lockFile: lockFile) }
            if shouldStop() { throw CancellationError() }
            if !warned { onWait(); warned = true }
            usleep(100_000)
        }
    }

    deinit {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
    }
}
