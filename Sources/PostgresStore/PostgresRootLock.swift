import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

/// The scan lock of a PostgreSQL library: a session advisory lock per root (host id + path), held on a
/// connection of its own for the whole scan. Scans of different roots — on one host or several — run at
/// once; two scans of one root take turns. The server drops the lock when the connection goes, so a scan
/// killed with SIGKILL leaves no stale lock behind (as `flock` does for SQLite's lock file).
public final class PostgresRootLock: Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case busy(root: String)
        public var description: String {
            switch self {
            case .busy(let root): "another scan of \(root) is running on this library; try again later or drop --no-wait"
            }
        }
    }

    private let session: PostgresSession
    public let roots: [MediaPath]

    /// Takes the locks of `roots` (in a fixed order, so two scans of overlapping sets cannot deadlock). With
    /// `timeout` nil it waits as long as needed; with 0 it fails at once when a root is busy. While it waits,
    /// `shouldStop` is asked every 0.1 s: true gives up with a `CancellationError` (the locks taken go with
    /// the connection).
    public init(index: PostgresIndex, roots: [MediaPath], timeout: Double?, onWait: () -> Void = {},
                shouldStop: () -> Bool = { false }) throws {
        session = try PostgresSession(index.location)
        self.roots = roots
        let keys = roots.map { (root: $0, key: Self.key(host: index.identity.id, root: $0)) }.sorted { $0.key < $1.key }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var warned = false
        for (root, key) in keys {
            // Polled rather than blocking in pg_advisory_lock: a deadline can be honoured and signals handled.
            while try session.run({ x in try x.value("SELECT pg_try_advisory_lock(\(key))") }) != .integer(1) {
                if let deadline, Date() >= deadline { throw Failure.busy(root: root.string) }
                if shouldStop() { throw CancellationError() }
                if !warned { onWait(); warned = true }
                usleep(100_000)
            }
        }
    }

    /// A 64-bit key for a root: FNV-1a over the host and the path's bytes (stable across processes and hosts).
    static func key(host: String, root: MediaPath) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("mlib root\u{0}\(host)\u{0}".utf8) + root.bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
