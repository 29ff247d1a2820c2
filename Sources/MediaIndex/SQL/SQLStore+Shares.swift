import Foundation
import MediaModel

// Shared roots (`SharedRoot`, PostgreSQL's "pg v13"): joining a share at this host's mount point, leaving it.
// The share's rows are those of its pseudo-host; a store whose `host` is that pseudo-host (PostgresIndex's
// `shareStore`) scans it with the scanner's rules unchanged.
extension SQLStore {
    /// The shares this host joined, with where it mounts each (none on SQLite).
    public func sharedRoots() throws -> [SharedRoot] {
        try rootRows().shares
    }

    /// What joining a share did.
    public enum ShareJoin: Sendable, Equatable {
        /// This host joined a share other hosts (or none yet) had.
        case joined
        /// This host's own root at that path became the share: its items are the share's, ids and user data kept.
        case converted
        /// This host had joined the share there already.
        case already
    }

    /// Joins the share `name` at `path`, this host's mount point of it. The first host to join makes it: an
    /// own root of this host at `path` becomes the share (its items, failures, mount records and mirrored
    /// playlists pass to the share with their ids and user data). Refused: on SQLite (one host); at a path
    /// other than the share's (every host mounts it at one path); a path inside or around another root of
    /// this host; this host's own root at the path of a share that other hosts already made (two sets of
    /// items for one set of files: forget one first).
    /// `source`: what is mounted at `path` (`SharedRoot.networkSource`, read here when nil).
    @discardableResult
    public func joinShare(_ name: String, at path: MediaPath, source: String? = nil) throws -> ShareJoin {
        guard let host else { throw invalid(SharedRoot.singleHostRefusal) }
        if let reason = SharedRoot.refusal(name: name) { throw invalid(reason) }
        let share = SharedRoot.hostID(name)
        let (own, joined) = try rootRows()
        if joined.contains(SharedRoot(name: name, path: path)) { return .already }
        if let other = joined.first(where: { $0.path == path || $0.name == name }) {
            throw invalid("this host joined the share '\(other.name)' at \(other.path.string) already; `mlib root forget \(other.path.string)` first")
        }
        let around = own.map(\.path) + joined.map(\.path)
        if let nested = around.first(where: { $0 != path && ($0.hasPrefix(directory: path) || path.hasPrefix(directory: $0)) }) {
            throw invalid("\(path.string) lies inside or around the root \(nested.string) of this host; a share cannot nest with another root")
        }
        let converting = own.contains { $0.path == path }
        defer { forgetRememberedRoots() }
        return try write { x in
            // Two hosts joining one new share at once take turns: one makes it, the other joins it.
            try x.execute("SELECT pg_advisory_xact_lock(hashtext(\("mlib share " + name)))")
            let existing = try x.row("SELECT path FROM roots WHERE host = \(share)").flatMap { $0.path(0) }
            if let existing, existing != path {
                throw invalid("""
                    the share '\(name)' is at \(existing.string) on the hosts that joined it; every host mounts a share \
                    at one path: mount it at \(existing.string) here too and join it there
                    """)
            }
            if converting {
                if existing != nil {
                    throw invalid("""
                        \(path.string) is a root of this host's own and the share '\(name)' has items of its own there: \
                        one file would be two items. `mlib root forget \(path.string)` first (its items' plays and ratings \
                        go with it), or join another share name
                        """)
                }
                for (table, column) in [("items", "dir"), ("failures", "dir"), ("mounts", "path")] {
                    try x.execute("UPDATE \(raw: table) SET host = \(share) WHERE \(mine()) AND \(under(path, column: column))")
                }
                try x.execute("UPDATE playlists SET source_host = \(share) WHERE \(mine("source_host")) AND \(under(path, column: "source"))")
                try x.execute("UPDATE roots SET host = \(share) WHERE \(mine()) AND path = \(path)")
            } else if existing == nil {
                try x.execute("INSERT INTO roots (host, path, path_text, added) VALUES (\(share), \(path), \(path.string), \(Date()))")
            }
            try x.execute("""
                INSERT INTO shares (name, host, path, path_text, source, added)
                VALUES (\(name), \(host), \(path), \(path.string), \(source ?? SharedRoot.networkSource(of: path) ?? ""), \(Date()))
                """)
            return converting ? .converted : .joined
        }
    }

    /// This host leaves `share`: the share, its items and their user data stay for the hosts still in it.
    /// The last host to leave forgets it, as forgetting a root does (its items, failures and mount records
    /// go). Returns how many hosts are still in it.
    @discardableResult
    public func leaveShare(_ share: SharedRoot) throws -> Int {
        guard let host else { throw invalid(SharedRoot.singleHostRefusal) }
        defer { forgetRememberedRoots() }
        return try write { x in
            try x.execute("SELECT pg_advisory_xact_lock(hashtext(\("mlib share " + share.name)))")
            try x.execute("DELETE FROM shares WHERE name = \(share.name) AND host = \(host)")
            let left = Int(try x.value("SELECT count(*) FROM shares WHERE name = \(share.name)").integer ?? 0)
            if left == 0 {
                for table in ["items", "failures", "mounts", "roots"] {
                    try x.execute("DELETE FROM \(raw: table) WHERE host = \(share.hostID)")
                }
            }
            return left
        }
    }

    /// The share that another host joined where `source` (`SharedRoot.networkSource`) was mounted, or nil:
    /// a host adding that export as a root of its own is told to join the share instead.
    public func share(mountedFrom source: String) throws -> String? {
        guard host != nil, !source.isEmpty else { return nil }
        return try read { x in try x.value("SELECT min(name) FROM shares WHERE source = \(source)").text }
    }

    /// The hosts in `share` (their names), for `mlib root list`.
    public func hostsOfShare(_ share: SharedRoot) throws -> [String] {
        guard host != nil else { return [] }
        return try read { x in
            try x.rows("""
                SELECT COALESCE(h.name, s.host) FROM shares s LEFT JOIN hosts h ON h.id = s.host WHERE s.name = \(share.name) ORDER BY 1
                """).compactMap { $0.text(0) }
        }
    }

    /// Makes a server's reads (`readsThisHostOnly`) list the items of `shares` beside this host's own: the
    /// shares mounted here.
    public func readShares(_ shares: [SharedRoot]) {
        readableShares.withLock { $0 = shares.map(\.hostID) }
    }
}
