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
