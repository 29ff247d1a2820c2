import Foundation
import MediaModel

/// A root several hosts of a PostgreSQL library share (issue 38: one NAS share mounted on several hosts),
/// as this host joined it: its name and where this host mounts it.
///
/// A share is recognised by its name, which the user gives on each host (`mlib root add DIR --share NAME`):
/// mlib cannot tell two hosts' mounts of one export apart from two different exports reliably (an NFS
/// mount's device number differs per host; a filesystem UUID is not seen through NFS or SMB). Its root,
/// items, failures and mount records are rows of the pseudo-host `hostID` ("share:NAME"), so every host
/// that scans it reads and writes the same rows: one id per file, plays, ratings and playlist entries on
/// it, a move found by any host's scan keeping the id. Every host mounts a share at the same path (the
/// share's items are stored by path); joining it at another path is refused with the path to use.
///
/// An SQLite library is one host's: it has no shares (`SharedRoot.singleHostRefusal`).
public struct SharedRoot: Sendable, Hashable {
    public var name: String
    /// Where this host mounts the share (the share's root).
    public var path: MediaPath

    public init(name: String, path: MediaPath) {
        self.name = name
        self.path = path
    }

    /// The pseudo-host whose rows the share's are.
    public var hostID: String { Self.hostID(name) }
    public static func hostID(_ name: String) -> String { prefix + name }
    /// What a share's pseudo-host id starts with (never a `HostIdentity` id: those are UUIDs).
    public static let prefix = "share:"

    /// Whether the share is mounted on this host: its mount point exists and holds something. An NFS or SMB
    /// mount point with nothing mounted on it is an empty directory; a host where the share is not mounted
    /// neither lists its items in its servers nor scans it (nothing would be found, nothing is removed).
    public var isMounted: Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path.string) else { return false }
        return !entries.isEmpty
    }

    /// Why `name` cannot name a share, or nil: letters, digits, '.', '_' and '-', at most 64 of them.
    public static func refusal(name: String) -> String? {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.count <= 64, name.unicodeScalars.allSatisfy(allowed.contains) else {
            return "'\(name)' cannot name a share: use letters, digits, '.', '_' and '-' (at most 64)"
        }
        return nil
    }

    /// `--share` on a library of one host.
    public static let singleHostRefusal = """
        shared roots are for a PostgreSQL library that several hosts share; an SQLite library is one host's, \
        so a share mounted here is a plain root: add it without --share
        """
}
