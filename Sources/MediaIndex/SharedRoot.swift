import Foundation
import MediaModel

/// A root several hosts of a PostgreSQL library share (issue 38: one NAS share mounted on several hosts),
/// as this host joined it: its name, where this host mounts it, and where its items are stored.
///
/// A share is recognised by its name, which the user gives on each host (`mlib root add DIR --share NAME`):
/// mlib cannot tell two hosts' mounts of one export apart from two different exports reliably (an NFS
/// mount's device number differs per host; a filesystem UUID is not seen through NFS or SMB). Its root,
/// items, failures and mount records are rows of the pseudo-host `hostID` ("share:NAME"), so every host
/// that scans it reads and writes the same rows: one id per file, plays, ratings and playlist entries on
/// it, a move found by any host's scan keeping the id.
///
/// Each host mounts the share where it likes (`/mnt/nas` on one, `/media/music` on another). The share's
/// rows are stored under its `storedPath`, the mount point of the host that made it (the share's row in
/// `roots`); each host's own mount point is its row in `shares`. The translation between the two is here
/// and only here (`local(_:)`, `stored(_:)`), applied at the store's boundary: a scan of the share runs on
/// `MountedShareStore` (the scanner sees this host's paths, the rows keep the stored ones), and a host's
/// reads of items (`SQLStore.itemColumns`, path predicates, `item(path:)`) give and take this host's paths.
///
/// An SQLite library is one host's: it has no shares (`SharedRoot.singleHostRefusal`).
public struct SharedRoot: Sendable, Hashable {
    public var name: String
    /// Where this host mounts the share (the share's root, as this host's commands and servers name it).
    public var path: MediaPath
    /// Where the share's rows are stored: the mount point of the host that made the share.
    public var storedPath: MediaPath

    public init(name: String, path: MediaPath, storedPath: MediaPath? = nil) {
        self.name = name
        self.path = path
        self.storedPath = storedPath ?? path
    }

    /// Whether this host mounts the share elsewhere than where its rows are stored (its paths are translated).
    public var isRelocated: Bool { storedPath != path }

    /// A stored path of the share as this host reaches it (a path outside the share unchanged).
    public func local(_ stored: MediaPath) -> MediaPath { Self.replacing(storedPath, with: path, in: stored) }

    /// This host's path of a file in the share as the share's rows store it (a path outside it unchanged).
    public func stored(_ local: MediaPath) -> MediaPath { Self.replacing(path, with: storedPath, in: local) }

    private static func replacing(_ prefix: MediaPath, with other: MediaPath, in path: MediaPath) -> MediaPath {
        guard prefix != other, path == prefix || path.hasPrefix(directory: prefix) else { return path }
        return MediaPath(bytes: other.bytes + path.bytes.dropFirst(prefix.bytes.count))
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

    /// What is mounted at `path` when it is the mount point of a network file system (NFS, SMB/CIFS, SSHFS,
    /// 9p, Ceph, GlusterFS), as `/proc/self/mountinfo` says: its type and export ("nfs4 nas:/export/music"),
    /// else nil. Recorded when a host joins a share, so that a host adding the same export as a root of
    /// its own is told which share it is (`SQLStore.share(mountedFrom:)`): a suggestion, not a rule (one
    /// export may be mounted by address on one host and by name on another).
    public static func networkSource(of path: MediaPath, mountinfo: String? = nil) -> String? {
        let text = mountinfo ?? (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        var found: String?
        for line in text.split(separator: "\n") {
            // id parent major:minor root mount-point options [optional fields] - type source super-options
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 4, let dash = fields.firstIndex(of: "-"), dash > 4, fields.count > dash + 2 else { continue }
            let point = fields[4].replacingOccurrences(of: "\\040", with: " ").replacingOccurrences(of: "\\011", with: "\t")
            let type = fields[dash + 1]
            guard point == path.string, networkTypes.contains(where: { type == $0 || type.hasPrefix($0 + ".") }) else { continue }
            found = type + " " + fields[dash + 2]     // the last mount over the point is the one seen
        }
        return found
    }

    static let networkTypes = ["nfs", "nfs4", "cifs", "smb3", "smbfs", "fuse.sshfs", "9p", "ceph", "glusterfs"]

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
