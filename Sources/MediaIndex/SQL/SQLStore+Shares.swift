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
    /// playlists pass to the share with their ids and user data). Refused: on SQLite (one host); a path inside or around another root of
    /// this host; this host's own root at the path of a share that other hosts already made (two sets of
    /// items for one set of files: forget one first). Joined at a path other than the share's stored one
    /// (`SharedRoot.storedPath`), this host's reads and scans of it translate its paths.
    /// `source`: what is mounted at `path` (`SharedRoot.networkSource`, read here when nil).
    @discardableResult
    public func joinShare(_ name: String, at path: MediaPath, source: String? = nil) throws -> ShareJoin {
        guard let host else { throw invalid(SharedRoot.singleHostRefusal) }
        if let reason = SharedRoot.refusal(name: name) { throw invalid(reason) }
        let share = SharedRoot.hostID(name)
        let (own, joined) = try rootRows()
        if joined.contains(where: { $0.name == name && $0.path == path }) { return .already }
        if let other = joined.first(where: { $0.path == path || $0.name == name }) {
            throw invalid("this host joined the share '\(other.name)' at \(other.path.string) already; `mlib root forget \(other.path.string)` first")
        }
        let around = own.map(\.path) + joined.map(\.path)
        if let nested = around.first(where: { $0 != path && ($0.hasPrefix(directory: path) || path.hasPrefix(directory: $0)) }) {
            throw invalid("\(path.string) lies inside or around the root \(nested.string) of this host; a share cannot nest with another root")
        }
        let converting = own.contains { $0.path == path }
        defer {
            forgetRememberedRoots()
            _ = try? rootRows()     // which shares this host mounts elsewhere (`noteRelocatedShares`)
        }
        return try write { x in
            // Two hosts joining one new share at once take turns: one makes it, the other joins it.
            try x.execute("SELECT pg_advisory_xact_lock(hashtext(\("mlib share " + name)))")
            // The share's rows stay under its stored path (the first joiner's mount point); this host's mount
            // point is its row in `shares`, and its reads and scans translate (`SharedRoot.local`/`stored`).
            let existing = try x.row("SELECT path FROM roots WHERE host = \(share)").flatMap { $0.path(0) }
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
        defer {
            forgetRememberedRoots()
            _ = try? rootRows()
        }
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

    /// Makes a server's reads list the items of those of `joined` (the shares this host joined) that are
    /// mounted here, and remembers them for `recheckMountedShares`.
    public func readMountedShares(of joined: [SharedRoot]) {
        servedShares.withLock { $0 = joined }
        readShares(joined.filter(\.isMounted))
    }

    /// Looks again which of the shares a server lists are mounted here (`SharedRoot.isMounted`: a look at
    /// each mount point, no statement), and makes this store's reads and `other`'s (a view's change-feed
    /// store) list those. Returns whether that changed: a share mounted since appears, one unmounted
    /// disappears, nothing of it is deleted (issue 38: `serve` looked only when it started).
    package func recheckMountedShares(alsoFor other: SQLStore? = nil) -> Bool {
        let joined = servedShares.withLock { $0 }
        guard !joined.isEmpty, readsThisHostOnly else { return false }
        let mounted = joined.filter(\.isMounted).map(\.hostID)
        let changed = readableShares.withLock { shares in
            defer { shares = mounted }
            return shares != mounted
        }
        if let other, other !== self { other.readableShares.withLock { $0 = mounted } }
        return changed
    }

    // MARK: A share mounted at another path here

    /// Records which of `shares` (this host's, just read) this host mounts elsewhere than where their rows
    /// are stored: item reads give their paths as this host's.
    package func noteRelocatedShares(_ shares: [SharedRoot]) {
        let relocated = shares.filter(\.isRelocated)
        relocatedShares.withLock { $0 = relocated }
    }

    /// `ItemRow.selectColumns` with each item's path as this host reaches it: a share's item, stored under
    /// the share's stored path, at this host's mount point (`SharedRoot.local`, in SQL). Every item read that
    /// reaches a front (listings, look-ups, playlists, the view) selects these.
    package var itemColumns: String { localized(ItemRow.selectColumns) }

    /// A column list with `items."path"` as this host reaches it (see `itemColumns`).
    package func localized(_ columns: String) -> String {
        let shares = relocatedShares.withLock { $0 }
        guard !shares.isEmpty else { return columns }
        return columns.replacingOccurrences(of: #"items."path""#, with: Self.localPath(shares, text: false))
    }

    /// `sql` (a compiled filter or order) reading each item's path as this host reaches it: a user's
    /// `path:` on this host names this host's paths.
    package func withLocalPaths(_ sql: SQLStatement) -> SQLStatement {
        let shares = relocatedShares.withLock { $0 }
        guard !shares.isEmpty else { return sql }
        return SQLStatement(markedText: withLocalPaths(sql.text, shares), values: sql.values)
    }

    package func withLocalPaths(_ order: String) -> String {
        let shares = relocatedShares.withLock { $0 }
        guard !shares.isEmpty else { return order }
        return withLocalPaths(order, shares)
    }

    private func withLocalPaths(_ text: String, _ shares: [SharedRoot]) -> String {
        text.replacingOccurrences(of: #"items."path_text""#, with: Self.localPath(shares, text: true))
            .replacingOccurrences(of: "items.path ", with: Self.localPath(shares, text: false) + " ")
    }

    /// The SQL of an item's path (bytes, or its text form when `text`) at this host's mount point of the
    /// relocated `shares` (PostgreSQL: only it has shares). Literals, not parameters: the select list is
    /// text; a share's name is letters, digits, '.', '_' and '-' (`SharedRoot.refusal`), paths go in hex.
    private static func localPath(_ shares: [SharedRoot], text: Bool) -> String {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        var sql = "(CASE items.host"
        for share in shares {
            if text {
                sql += " WHEN '\(share.hostID)' THEN convert_from(decode('\(hex(Array(share.path.string.utf8)))', 'hex'), 'UTF8')"
                    + " || substring(items.\"path_text\" FROM \(share.storedPath.string.unicodeScalars.count + 1))"
            } else {
                sql += " WHEN '\(share.hostID)' THEN decode('\(hex(share.path.bytes))', 'hex') || substring(items.\"path\" FROM \(share.storedPath.bytes.count + 1))"
            }
        }
        return sql + (text ? " ELSE items.\"path_text\" END)" : " ELSE items.\"path\" END)")
    }

    /// Where the item at this host's `path` may be stored: the path itself, and in each relocated share
    /// that holds it, the stored path (with the share's pseudo-host).
    /// The condition on `items` that selects this host's `path`: the path itself in no share this host
    /// mounts elsewhere (their rows' paths are not this host's), or a relocated share's stored path of it.
    package func atLocalPath(_ path: MediaPath) -> SQLStatement {
        let shares = relocatedShares.withLock { $0 }
        guard !shares.isEmpty else { return "path = \(path)" }
        var at: SQLStatement = "(path = \(path) AND NOT \(syntax.isIn("host", .texts(shares.map(\.hostID)))))"
        for share in shares where path.hasPrefix(directory: share.path) {
            at += " OR (host = \(share.hostID) AND path = \(share.stored(path)))"
        }
        return at
    }
}
