import Foundation
import PostgresNIO
import MediaIndex
import MediaModel
import NIOConcurrencyHelpers

/// The scan lock of a PostgreSQL library: a session advisory lock per root (host id + path), held for the
/// whole scan on the store's own connection (issue 38: a connection of its own cost another connect, a
/// TLS and SCRAM handshake over a slow link) and released when the lock goes. Scans of different roots —
/// on one host or several — run at once; two scans of one root take turns. The server drops the lock when
/// the connection goes, so a scan killed with SIGKILL leaves no stale lock behind (as `flock` does for
/// SQLite's lock file), nor does a host that vanished (keepalives, `PostgresSession`).
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
    /// The keys taken, released by `deinit`.
    private let keys: [Int64]

    /// Takes the locks of `roots` (in a fixed order, so two scans of overlapping sets cannot deadlock). With
    /// `timeout` nil it waits as long as needed; with 0 it fails at once when a root is busy. While it waits,
    /// `shouldStop` is asked every 0.1 s: true gives up with a `CancellationError` (the locks taken go with
    /// the connection).
    public init(index: PostgresIndex, roots: [MediaPath], timeout: Double?, onWait: () -> Void = {},
                shouldStop: () -> Bool = { false }) throws {
        session = index.session
        self.roots = roots
        let keys = roots.map { (root: $0, key: Self.key(host: index.identity.id, root: $0)) }.sorted { $0.key < $1.key }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var warned = false
        var taken: [Int64] = []
        do {
            for (root, key) in keys {
                // Polled rather than blocking in pg_advisory_lock: a deadline can be honoured and signals handled.
                // An advisory lock is re-entrant on its session: two scans of one root in this process (which
                // share the store's session) are kept apart by the process's own record of keys held.
                while try !Self.heldHere.withLockedValue({ $0.insert(key).inserted }) || !Self.take(key, on: session) {
                    if let deadline, Date() >= deadline { throw Failure.busy(root: root.string) }
                    if shouldStop() { throw CancellationError() }
                    if !warned { onWait(); warned = true }
                    usleep(100_000)
                }
                taken.append(key)
            }
        } catch {
            Self.release(taken, on: session)
            throw error
        }
        self.keys = taken
    }

    deinit { Self.release(keys, on: session) }

    /// The keys held by locks of this process.
    private static let heldHere = NIOLockedValueBox(Set<Int64>())

    /// Tries `key` on the server; when refused, forgets it in `heldHere` (recorded by the caller just before).
    private static func take(_ key: Int64, on session: PostgresSession) throws -> Bool {
        do {
            if try session.run({ x in try x.value("SELECT pg_try_advisory_lock(\(key))") }) == .integer(1) { return true }
        } catch {
            _ = heldHere.withLockedValue { $0.remove(key) }
            throw error
        }
        _ = heldHere.withLockedValue { $0.remove(key) }
        return false
    }

    /// Releases `keys` in one statement (the connection stays the store's), not waiting for its answer
    /// (issue 38: a round trip at the end of every scan): a later statement of this process on the connection
    /// runs after it, and a connection closed first releases them too. Over a connection lost meanwhile the
    /// server has released them already.
    private static func release(_ keys: [Int64], on session: PostgresSession) {
        guard !keys.isEmpty else { return }
        heldHere.withLockedValue { $0.subtract(keys) }
        session.sendWithoutWaiting("SELECT pg_advisory_unlock(k) FROM unnest(\(SQLValue.integers(keys))) AS k")
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
