import Foundation
import MediaModel

// Playlists. Entries reference item ids (ON DELETE CASCADE), so they survive rescans and moves, and an
// item that leaves the library leaves its playlists too. Positions are 0-based and kept contiguous. A mirror
// of a playlist file under a root follows the file (see `syncPlaylist`), on the host whose root holds it.
extension SQLStore {
    @discardableResult
    public func createPlaylist(name: String, smart: SmartPlaylistRule? = nil) throws -> StoredPlaylist {
        try createPlaylist(name: name, smart: smart, owner: nil, isPublic: true)
    }

    /// A playlist of `owner` (an API user; nil: the library's), seen by others only when `isPublic`.
    @discardableResult
    public func createPlaylist(name: String, smart: SmartPlaylistRule?, owner: String?, isPublic: Bool) throws -> StoredPlaylist {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid("a playlist name cannot be empty") }
        let now = Date()
        try write { x in
            if try playlistID(x, name) != nil { throw IndexError.playlistExists(database: libraryName, name: name) }
            try x.execute("""
                INSERT INTO playlists (name, query, sort, "limit", created, modified, owner, is_public)
                VALUES (\(name), \(smart?.predicate), \(smart?.sort), \(smart?.limit), \(now), \(now), \(owner), \(isPublic))
                """)
        }
        return try playlist(named: name)!
    }

    /// Makes a playlist public (others see it, read-only) or private (its owner and admins only).
    public func setPlaylistPublic(name: String, _ isPublic: Bool) throws {
        try write { x in
            let id = try existingPlaylistID(x, name)
            try x.execute("UPDATE playlists SET is_public = \(isPublic) WHERE id = \(id)")
            try touch(x, id)
        }
    }

    /// The tuple form of `createPlaylist(name:smart:)`.
    @discardableResult
    public func createPlaylist(name: String, smart: (predicate: String, sort: String?, limit: Int?)?) throws -> StoredPlaylist {
        try createPlaylist(name: name, smart: smart.map { SmartPlaylistRule(predicate: $0.predicate, sort: $0.sort, limit: $0.limit) })
    }

    public func playlists() throws -> [StoredPlaylist] {
        try read { x in try x.rows(Self.playlistSelect + " ORDER BY p.name").map(Self.playlist) }
    }

    public func playlist(named name: String) throws -> StoredPlaylist? {
        try read { x in try x.row(Self.playlistSelect + " WHERE p.name = \(name)").map(Self.playlist) }
    }

    public func appendToPlaylist(name: String, itemIDs: [Int64]) throws {
        try write { x in
            let id = try editablePlaylistID(x, name)
            let next = try x.value("SELECT COALESCE(max(position) + 1, 0) FROM playlist_entries WHERE playlist_id = \(id)").integer ?? 0
            try insertEntries(x, id, itemIDs, from: next)
            try touch(x, id)
        }
    }

    public func appendToPlaylist(name: String, matching query: MediaQuery) throws -> Int {
        let (matching, residual, order) = try compile(query)
        guard residual == nil, let order else {
            // Part of the query is evaluated in Swift, on items read first: a fold may still come between
            // (then the append says which item left).
            let ids = try items(query).map(\.persistentID)
            if !ids.isEmpty { try appendToPlaylist(name: name, itemIDs: ids) }
            return ids.count
        }
        let select = compiler.orderedSelect("items.id", matching, order: order, limit: query.limit, offset: query.offset)
        return try write { x in
            let id = try editablePlaylistID(x, name)
            let ids = try x.rows(select).compactMap { $0.int64(0) }
            guard !ids.isEmpty else { return 0 }
            let next = try x.value("SELECT COALESCE(max(position) + 1, 0) FROM playlist_entries WHERE playlist_id = \(id)").integer ?? 0
            try insertEntries(x, id, ids, from: next)
            try touch(x, id)
            return ids.count
        }
    }

    /// Removes the entries at these 0-based positions (as `playlistItems` lists them) and renumbers the rest.
    public func removeFromPlaylist(name: String, positions: [Int]) throws {
        try write { x in
            let id = try editablePlaylistID(x, name)
            let entries = try entryIDs(x, id)
            if let bad = positions.first(where: { !entries.indices.contains($0) }) {
                throw invalid("playlist \"\(name)\" has no position \(bad) (it has \(entries.count) entries)")
            }
            let drop = Set(positions)
            try rewriteEntries(x, id, entries.enumerated().filter { !drop.contains($0.offset) }.map(\.element))
        }
    }

    public func renamePlaylist(_ name: String, to newName: String) throws {
        try write { x in
            let id = try existingPlaylistID(x, name)
            if name != newName, try playlistID(x, newName) != nil {
                throw IndexError.playlistExists(database: libraryName, name: newName)
            }
            try x.execute("UPDATE playlists SET name = \(newName) WHERE id = \(id)")
            try touch(x, id)
        }
    }

    public func deletePlaylist(name: String) throws {
        try write { x in
            let id = try existingPlaylistID(x, name)
            try x.execute("DELETE FROM playlists WHERE id = \(id)")
        }
    }

    /// A static playlist's items in order (an item listed twice appears twice). Smart playlists have no
    /// entries: evaluate their rule with the query engine instead.
    ///
    /// One statement, so one snapshot on every store (issue 38: the playlist's id, then its entries, each saw
    /// the latest commit, and a playlist replaced by another host between them read as empty): a row per
    /// entry after the playlist's id, or one row of NULLs for an empty playlist, none when there is no such
    /// playlist. (One statement rather than `snapshotRead`: that is two more round trips on PostgreSQL.)
    public func playlistItems(name: String) throws -> [MediaItem] {
        let rows = try read { x in
            try x.rows("""
                SELECT p.id, e.item_id, \(raw: itemColumns) FROM playlists p
                LEFT JOIN (playlist_entries e JOIN items ON items.id = e.item_id AND items.missing_gen IS NULL) ON e.playlist_id = p.id
                WHERE p.name = \(name) ORDER BY e.position
                """)
        }
        guard !rows.isEmpty else { throw IndexError.playlistNotFound(database: libraryName, name: name) }
        return rows.filter { !$0[1].isNull }.map { ItemRow.item(SQLRow(Array($0.values.dropFirst(2)))) }
    }

    /// Replaces a static playlist's entries (used by importers and reordering).
    public func setPlaylistEntries(name: String, itemIDs: [Int64]) throws {
        try write { x in try rewriteEntries(x, try editablePlaylistID(x, name), itemIDs) }
    }

    /// Deletes the playlists mirroring files under `directories` (completely walked roots) whose file was
    /// not found again: a deleted playlist file takes its mirror with it. Returns their names.
    @discardableResult
    public func removeMirrors(under directories: [MediaPath], except found: Set<MediaPath>) throws -> [String] {
        // One read, and a write only when a mirror is stale (issue 38: a transaction of three round trips
        // after every rescan). The DELETE names the mirrors by name and source, so a playlist renamed or
        // re-sourced meanwhile is not taken with them.
        guard !directories.isEmpty else { return [] }
        let mirrors = try read { x in
            try x.rows("SELECT name, source FROM playlists WHERE source IS NOT NULL AND \(mine("source_host"))")
        }
        let stale = mirrors.compactMap { row -> (name: String, source: MediaPath)? in
            guard let name = row.text(0), let source = row.path(1), !found.contains(source),
                  directories.contains(where: { source.hasPrefix(directory: $0) }) else { return nil }
            return (name, source)
        }
        guard !stale.isEmpty else { return [] }
        return try write { x in
            try stale.compactMap { mirror in
                try x.execute("DELETE FROM playlists WHERE name = \(mirror.name) AND source = \(mirror.source)") > 0 ? mirror.name : nil
            }
        }
    }

    /// Keeps the playlist mirroring the playlist file at `source` (found under a root by a scan) equal to
    /// `itemIDs`: creates it on first sight, named `name` or, when the user already has a playlist of that
    /// name, `name (2)`, `name (3)`…; rewrites its entries only when they differ, so an unchanged rescan
    /// writes nothing. The user's own playlists are never touched. Returns the playlist's name.
    @discardableResult
    public func syncPlaylist(mirroring source: MediaPath, name: String, itemIDs: [Int64]) throws -> (name: String, changed: Bool) {
        let mirror: SQLStatement = "SELECT id, name FROM playlists WHERE \(mine("source_host")) AND source = \(source)"
        if let row = try read({ x in try x.row(mirror) }), let id = row.int64(0) {
            let changed = try read({ x in try entryIDs(x, id) }) != itemIDs
            if changed { try write { x in try rewriteEntries(x, id, itemIDs) } }
            return (row.text(1) ?? name, changed)
        }
        return try write { x in
            var candidate = name, n = 1
            while try playlistID(x, candidate) != nil { n += 1; candidate = "\(name) (\(n))" }
            let now = Date()
            let host = hostColumn("source_host")
            let id = try x.value("""
                INSERT INTO playlists (\(host.name)name, created, modified, source)
                VALUES (\(host.value)\(candidate), \(now), \(now), \(source)) RETURNING id
                """).integer ?? 0
            try rewriteEntries(x, id, itemIDs)
            return (candidate, true)
        }
    }

    // MARK: helpers

    private static let playlistSelect: SQLStatement = """
        SELECT p.id, p.name, p.query, p.sort, p."limit", p.created, p.modified, p.source,
               (SELECT count(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS entries, p.owner, p.is_public
        FROM playlists p
        """

    private static func playlist(_ row: SQLRow) -> StoredPlaylist {
        StoredPlaylist(id: row.int64(0) ?? 0, name: row.text(1) ?? "",
                       smart: row.text(2).map { SmartPlaylistRule(predicate: $0, sort: row.text(3), limit: row.int(4)) },
                       created: row.date(5) ?? Date(timeIntervalSince1970: 0), modified: row.date(6) ?? Date(timeIntervalSince1970: 0),
                       entryCount: row.int(8) ?? 0, source: row.path(7), owner: row.text(9), isPublic: row.bool(10) ?? true)
    }

    private func playlistID(_ x: any SQLExecutor, _ name: String) throws -> Int64? {
        try x.value("SELECT id FROM playlists WHERE name = \(name)").integer
    }

    private func existingPlaylistID(_ x: any SQLExecutor, _ name: String) throws -> Int64 {
        guard let id = try playlistID(x, name) else { throw IndexError.playlistNotFound(database: libraryName, name: name) }
        return id
    }

    /// A playlist whose entries the user may edit: not a mirror of a playlist file (the next scan would
    /// undo the edit).
    private func editablePlaylistID(_ x: any SQLExecutor, _ name: String) throws -> Int64 {
        let id = try existingPlaylistID(x, name)
        if let source = try x.value("SELECT source FROM playlists WHERE id = \(id)").bytes {
            throw invalid("""
                playlist "\(name)" mirrors \(MediaPath(bytes: source)), which each scan reads again: \
                edit that file, or copy the playlist under another name
                """)
        }
        return id
    }

    private func entryIDs(_ x: any SQLExecutor, _ id: Int64) throws -> [Int64] {
        try x.rows("SELECT item_id FROM playlist_entries WHERE playlist_id = \(id) ORDER BY position").compactMap { $0.int64(0) }
    }

    private func rewriteEntries(_ x: any SQLExecutor, _ id: Int64, _ itemIDs: [Int64]) throws {
        try x.execute("DELETE FROM playlist_entries WHERE playlist_id = \(id)")
        try insertEntries(x, id, itemIDs, from: 0)
        try touch(x, id)
    }

    /// Appends entries at `from`, `from + 1`…; every id must be an item (the first missing one is the error).
    private func insertEntries(_ x: any SQLExecutor, _ id: Int64, _ itemIDs: [Int64], from start: Int64) throws {
        guard !itemIDs.isEmpty else { return }
        let known = Set(try x.rows("SELECT id FROM items WHERE \(syntax.isIn("id", .integers(Array(Set(itemIDs)))))").compactMap { $0.int64(0) })
        if let missing = itemIDs.first(where: { !known.contains($0) }) {
            throw IndexError.itemNotFound(database: libraryName, id: missing)
        }
        try x.execute("""
            INSERT INTO playlist_entries (playlist_id, position, item_id)
            SELECT \(id), \(start) + l.position, l.value FROM \(syntax.listRows(.integers(itemIDs), as: "l")) ORDER BY l.position
            """)
    }

    private func touch(_ x: any SQLExecutor, _ id: Int64) throws {
        try x.execute("UPDATE playlists SET modified = \(Date()) WHERE id = \(id)")
    }
}
