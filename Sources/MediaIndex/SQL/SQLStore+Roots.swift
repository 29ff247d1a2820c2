import Foundation
import MediaModel

// Library roots (this host's): adding, forgetting (nested roots keep what they cover), relocating, and what
// the scanner records about each (the generation of its last complete walk, the mount points under it).
extension SQLStore {
    /// This host's roots: its own and the shares it joined (`SharedRoot`), in byte order.
    public func roots() throws -> [MediaPath] {
        let rows = try rootRows()
        return (rows.states.map(\.path) + rows.shares.map(\.path)).sorted()
    }

    /// This host's own roots (not the shares it joined: their state is the share's, `SharedRoot.hostID`).
    public func rootStates() throws -> [RootState] {
        try rootRows().states
    }

    /// This host's roots and the shares it joined, in one read (remembered during a scan, with the rest of
    /// the scan's facts).
    func rootRows() throws -> (states: [RootState], shares: [SharedRoot]) {
        if let facts = try rememberedScanFacts() { return (facts.roots, facts.shares) }
        // The shares this host joined come in the same statement (PostgreSQL only: SQLite has no shares).
        var joined: SQLStatement = ""
        if let host { joined = " UNION ALL \(joinedShares(host))" }
        let rows = try read { x in
            try x.rows("""
                SELECT path, complete_gen, excludes, \(raw: host == nil ? "NULL, NULL" : "NULL::text, NULL::bytea") FROM roots WHERE \(mine())\(joined)
                ORDER BY 1
                """)
        }
        var states: [RootState] = [], shares: [SharedRoot] = []
        for row in rows {
            let path = row.path(0) ?? MediaPath(bytes: [])
            if let name = row.text(3) {
                shares.append(SharedRoot(name: name, path: path, storedPath: row.path(4)))
            } else {
                states.append(RootState(path: path, completeGeneration: row.int64(1) ?? 0,
                                        excludes: (row.text(2) ?? "").split(separator: "\n").map(String.init)))
            }
        }
        noteRelocatedShares(shares)
        return (states, shares)
    }

    /// The shares `host` joined: its mount point, 0, '', the share's name and where the share's rows are stored
    /// (the share's root row), the columns of `rootRows`.
    private func joinedShares(_ host: String) -> SQLStatement {
        """
        SELECT s.path, 0, '', s.name, r.path FROM shares s LEFT JOIN roots r ON r.host = \(SharedRoot.prefix) || s.name
        WHERE s.host = \(host)
        """
    }

    /// Between `rememberRoots(true)` and `rememberRoots(false)` (nested calls count), what a scan asks about
    /// this host (`ScanFacts`: its roots, mounts, hidden items…) is read in one statement and answered from
    /// memory after, until this store writes (issue 38: a rescan asked for the roots 5 times, the mounts twice,
    /// a round trip each over a slow link). `Library.scan` remembers them for a scan (this host's roots change
    /// only by this host's scans and `mlib root`, which take the same locks). The scan's reader shares them.
    public func rememberRoots(_ on: Bool) {
        scanFacts.remember(on)
    }

    /// A root written, or the scan lock taken (`Library.scan`): what is remembered may be stale.
    package func forgetRememberedRoots() {
        scanFacts.forget()
    }

    /// The scan's facts while they are remembered (read now if not yet), else nil.
    package func rememberedScanFacts() throws -> ScanFacts? {
        try scanFacts.facts { try read { x in try readScanFacts(x) } }
    }

    /// `ScanFacts` in one statement: a row per root, share joined (PostgreSQL), mount point and hidden item,
    /// and one of counts, told apart by the first column. (The first branch types the columns: PostgreSQL
    /// types a UNION pairwise.)
    private func readScanFacts(_ x: any SQLExecutor) throws -> ScanFacts {
        var facts = ScanFacts()
        var storedPaths: [String: MediaPath] = [:]
        var joined: SQLStatement = ""
        if let host {
            joined = """

                UNION ALL SELECT 4, path, NULL, NULL, NULL, NULL, name FROM shares WHERE host = \(host)
                UNION ALL SELECT 5, r.path, NULL, NULL, NULL, NULL, s.name FROM shares s JOIN roots r ON r.host = \(SharedRoot.prefix) || s.name
                    WHERE s.host = \(host)
                """
        }
        for row in try x.rows("""
            SELECT 0, path, complete_gen, CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), excludes FROM roots WHERE \(mine())
            UNION ALL SELECT 1, path, device, NULL, NULL, NULL, NULL FROM mounts WHERE \(mine())
            UNION ALL SELECT 2, path, id, "fileSize", fingerprint, added_gen, CAST(missing_gen AS TEXT) FROM items WHERE \(mine()) AND missing_gen IS NOT NULL
            UNION ALL SELECT 3, NULL, CASE WHEN EXISTS (SELECT 1 FROM items WHERE \(mine())) THEN 1 ELSE 0 END,
                (SELECT min(COALESCE(reader_version, 0)) FROM items WHERE \(mine())),
                (SELECT min(COALESCE(reader_version, 0)) FROM failures WHERE \(mine())), NULL, NULL\(joined)
            """) {
            let path = row.path(1) ?? MediaPath(bytes: [])
            switch row.int(0) ?? -1 {
            case 0:
                facts.roots.append(RootState(path: path, completeGeneration: row.int64(2) ?? 0,
                                             excludes: (row.text(6) ?? "").split(separator: "\n").map(String.init)))
            case 1:
                facts.mounts.append(MountPoint(path: path, device: row.int64(2) ?? 0))
            case 2:
                facts.hidden.append(VanishedItem(id: row.int64(2) ?? 0, path: path, size: row.int64(3) ?? -1, fingerprint: row.int64(4),
                                                 window: row.int64(5) ?? 0, missing: true, hiddenAt: row.text(6).flatMap { Int64($0) }))
            case 4:
                facts.shares.append(SharedRoot(name: row.text(6) ?? "", path: path))
            case 5:
                storedPaths[row.text(6) ?? ""] = path
            default:
                facts.hasItems = row.int64(2) == 1
                facts.oldestReader = min(row.int(3) ?? Int.max, row.int(4) ?? Int.max)
            }
        }
        facts.roots.sort { $0.path < $1.path }
        for i in facts.shares.indices { facts.shares[i].storedPath = storedPaths[facts.shares[i].name] ?? facts.shares[i].path }
        facts.shares.sort { $0.path < $1.path }
        facts.mounts.sort { $0.path < $1.path }
        return facts
    }

    /// Replaces a root's stored exclude list (patterns as in a .mlibignore at the root). The next scan of
    /// the root hides what the list leaves out and brings back, with their ids, what it no longer does.
    public func setExcludes(_ patterns: [String], of root: MediaPath) throws {
        if try rootRows().shares.contains(where: { $0.path == root }) {
            throw invalid("a share's stored exclude list is not kept yet: put the patterns in a .mlibignore file at \(root.string), which every host reads")
        }
        defer { forgetRememberedRoots() }
        try write { x in
            try x.execute("UPDATE roots SET excludes = \(patterns.joined(separator: "\n")) WHERE \(mine()) AND path = \(root)")
        }
    }

    /// Adds a root; returns false when it was already there (no write then).
    @discardableResult
    public func addRoot(_ root: MediaPath) throws -> Bool {
        if let host, let hostName {
            // A host of another id but this name with this root: two machines named alike (two Raspberry Pis,
            // containers of one --hostname), whose files at one path cannot be told apart by their users.
            let holders = try read { x in
                try x.rows("""
                    SELECT r.host, h.name FROM roots r LEFT JOIN hosts h ON h.id = r.host
                    WHERE r.path = \(root) AND (r.host = \(host) OR h.name = \(hostName))
                    """)
            }
            if holders.contains(where: { $0.text(0) == host }) { return false }
            if let other = holders.first {
                throw invalid("""
                    another host named '\(hostName)' (id \(other.text(0) ?? "")) already has the root \(root.string); two machines \
                    with one name cannot be told apart: give this host a name of its own (MLIB_HOST=NAME, or its host name)
                    """)
            }
        } else if try read({ x in try x.row("SELECT 1 FROM roots WHERE \(mine()) AND path = \(root)") }) != nil {
            return false
        }
        let host = hostColumn()
        defer { forgetRememberedRoots() }
        return try write { x in
            try x.execute("""
                INSERT INTO roots (\(host.name)path, path_text, added) VALUES (\(host.value)\(root), \(root.string), \(Date()))
                ON CONFLICT DO NOTHING
                """) > 0
        }
    }

    /// Forgets a root and everything indexed under it that no other root covers: forgetting a root nested in
    /// another removes no item, and forgetting the outer one keeps what the nested one holds.
    public func removeRoot(_ root: MediaPath) throws {
        let others = try roots().filter { $0 != root }
        defer { forgetRememberedRoots() }
        try write { x in
            try x.execute("DELETE FROM roots WHERE \(mine()) AND path = \(root)")
            try x.execute("DELETE FROM mounts WHERE \(mine()) AND path = \(root)")
            guard !others.contains(where: { root.hasPrefix(directory: $0) }) else { return }
            var condition = mine() + " AND " + under(root)
            for nested in others where nested.hasPrefix(directory: root) { condition += " AND NOT " + under(nested) }
            for table in ["items", "failures"] {
                try x.execute("DELETE FROM \(raw: table) WHERE \(condition)")
            }
            try x.execute("DELETE FROM mounts WHERE \(mine()) AND \(under(root, column: "path"))")
        }
    }

    /// Moves a root and everything under it to a new place (`/mnt/nas` → `/media/nas`): every path is
    /// rewritten, ids, user data and playlist entries stay. The next scan of the new root then finds the
    /// files where the index says they are. Each path is rewritten in Swift: its text form (`path_text`) is
    /// MediaPath's repaired string, which PostgreSQL cannot make from bytes that are not UTF-8.
    public func relocateRoot(_ old: MediaPath, to new: MediaPath) throws {
        if let reason = RootRelocation.refusal(roots: try roots(), old: old, new: new) { throw invalid(reason) }
        if let share = try rootRows().shares.first(where: { $0.path == old }), let host {
            // A share mounted elsewhere on this host: only this host's mount point moves (its rows keep the
            // share's stored paths, `SharedRoot`).
            defer {
                forgetRememberedRoots()
                _ = try? rootRows()
            }
            try write { x in
                try x.execute("UPDATE shares SET path = \(new), path_text = \(new.string) WHERE name = \(share.name) AND host = \(host)")
            }
            return
        }
        func moved(_ bytes: [UInt8]) -> MediaPath { MediaPath(bytes: new.bytes + bytes.dropFirst(old.bytes.count)) }
        defer { forgetRememberedRoots() }
        try write { x in
            for (table, key) in [("items", "id"), ("failures", "path")] {
                for row in try x.rows("SELECT \(raw: key), path FROM \(raw: table) WHERE \(mine()) AND \(under(old))") {
                    let path = moved(row[1].bytes ?? [])
                    try x.execute("""
                        UPDATE \(raw: table) SET path = \(path), path_text = \(path.string), dir = \(path.directory)
                        WHERE \(mine()) AND \(raw: key) = \(row[0])
                        """)
                }
            }
            for (table, column, hostColumn) in [("playlists", "source", "source_host"), ("mounts", "path", "host")] {
                for row in try x.rows("SELECT \(raw: column) FROM \(raw: table) WHERE \(mine(hostColumn)) AND \(under(old, column: column))") {
                    try x.execute("""
                        UPDATE \(raw: table) SET \(raw: column) = \(moved(row[0].bytes ?? [])) WHERE \(mine(hostColumn)) AND \(raw: column) = \(row[0])
                        """)
                }
            }
            try x.execute("UPDATE roots SET path = \(new), path_text = \(new.string) WHERE \(mine()) AND path = \(old)")
        }
    }

    /// Records a complete walk of `root`: rows added after `generation` are the candidates for items that
    /// vanish from it later, and `mounts` are the mount points found under it (written only when changed,
    /// so an unchanged rescan writes nothing).
    public func completeWalk(of root: MediaPath, generation: Int64, mounts: [MountPoint]) throws {
        let known = try self.mounts(under: root)
        let recorded = try rememberedScanFacts().map { $0.roots.first { $0.path == root }?.completeGeneration }
            ?? read { x in try x.value("SELECT complete_gen FROM roots WHERE \(mine()) AND path = \(root)").integer }
        guard recorded != generation || Set(known) != Set(mounts) else { return }
        let host = hostColumn()
        defer { forgetRememberedRoots() }
        try write { x in
            try x.execute("UPDATE roots SET complete_gen = \(generation) WHERE \(mine()) AND path = \(root)")
            try x.execute("DELETE FROM mounts WHERE \(mine()) AND \(under(root, column: "path"))")
            for mount in mounts {
                try x.execute("""
                    INSERT INTO mounts (\(host.name)path, device) VALUES (\(host.value)\(mount.path), \(mount.device)) ON CONFLICT DO NOTHING
                    """)
            }
        }
    }

    /// The mount points recorded under `root` (itself included).
    public func mounts(under root: MediaPath) throws -> [MountPoint] {
        if let facts = try rememberedScanFacts() { return facts.mounts.filter { $0.path == root || $0.path.hasPrefix(directory: root) } }
        return try read { x in
            try x.rows("SELECT path, device FROM mounts WHERE \(mine()) AND \(under(root, column: "path")) ORDER BY path").map {
                MountPoint(path: $0.path(0) ?? MediaPath(bytes: []), device: $0.int64(1) ?? 0)
            }
        }
    }
}
