import Foundation
import GRDB
import MediaIndex
import MediaModel

// Playlists. Entries reference item ids (ON DELETE CASCADE), so they survive rescans and moves, and an
// item that leaves the library leaves its playlists too. Positions are 0-based and kept contiguous.
extension SQLiteIndex {
    @discardableResult
    public func createPlaylist(name: String, smart: SmartPlaylistRule? = nil) throws -> StoredPlaylist {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw IndexError.invalidArgument(database: path, reason: "a playlist name cannot be empty")
        }
        let now = Date().timeIntervalSince1970
        try write { db in
            if try Self.playlistID(db, name) != nil { throw IndexError.playlistExists(database: path, name: name) }
            try db.execute(sql: """
                INSERT INTO playlists (name, query, sort, "limit", created, modified) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [name, smart?.predicate, smart?.sort, smart?.limit, now, now])
        }
        return try playlist(named: name)!
    }

    /// The contract's tuple form of `createPlaylist(name:smart:)`.
    @discardableResult
    public func createPlaylist(name: String, smart: (predicate: String, sort: String?, limit: Int?)?) throws -> StoredPlaylist {
        try createPlaylist(name: name, smart: smart.map { SmartPlaylistRule(predicate: $0.predicate, sort: $0.sort, limit: $0.limit) })
    }

    public func playlists() throws -> [StoredPlaylist] {
        try read { db in try Row.fetchAll(db, sql: Self.playlistSelect + " ORDER BY p.name").map(Self.playlist) }
    }

    public func playlist(named name: String) throws -> StoredPlaylist? {
        try read { db in try Row.fetchOne(db, sql: Self.playlistSelect + " WHERE p.name = ?", arguments: [name]).map(Self.playlist) }
    }

    public func appendToPlaylist(name: String, itemIDs: [Int64]) throws {
        try write { db in
            let id = try editablePlaylistID(db, name)
            var next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM playlist_entries WHERE playlist_id = ?",
                                        arguments: [id]) ?? 0
            let insert = try db.cachedStatement(sql: "INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (?, ?, ?)")
            for itemID in itemIDs {
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM items WHERE id = ?", arguments: [itemID]) != nil else {
                    throw IndexError.itemNotFound(database: path, id: itemID)
                }
                try insert.execute(arguments: [id, next, itemID])
                next += 1
            }
            try touch(db, id)
        }
    }

    /// Removes the entries at these 0-based positions (as `playlistItems` lists them) and renumbers the rest.
    public func removeFromPlaylist(name: String, positions: [Int]) throws {
        try write { db in
            let id = try editablePlaylistID(db, name)
            let entries = try Int64.fetchAll(db, sql: "SELECT item_id FROM playlist_entries WHERE playlist_id = ? ORDER BY position",
                                             arguments: [id])
            if let bad = positions.first(where: { !entries.indices.contains($0) }) {
                throw IndexError.invalidArgument(database: path, reason: "playlist \"\(name)\" has no position \(bad) (it has \(entries.count) entries)")
            }
            let drop = Set(positions)
            try rewriteEntries(db, id, entries.enumerated().filter { !drop.contains($0.offset) }.map(\.element))
        }
    }

    public func renamePlaylist(_ name: String, to newName: String) throws {
        try write { db in
            let id = try existingPlaylistID(db, name)
            if name != newName, try Self.playlistID(db, newName) != nil {
                throw IndexError.playlistExists(database: path, name: newName)
            }
            try db.execute(sql: "UPDATE playlists SET name = ? WHERE id = ?", arguments: [newName, id])
            try touch(db, id)
        }
    }

    public func deletePlaylist(name: String) throws {
        try write { db in
            let id = try existingPlaylistID(db, name)
            try db.execute(sql: "DELETE FROM playlists WHERE id = ?", arguments: [id])
        }
    }

    /// A static playlist's items in order (an item listed twice appears twice). Smart playlists have no
    /// entries: evaluate their rule with the query engine instead.
    public func playlistItems(name: String) throws -> [MediaItem] {
        try read { db in
            let id = try existingPlaylistID(db, name)
            return try Row.fetchAll(db, sql: """
                SELECT \(ItemRow.selectColumns) FROM playlist_entries e JOIN items ON items.id = e.item_id
                WHERE e.playlist_id = ? AND items.missing_gen IS NULL ORDER BY e.position
                """, arguments: [id]).map(ItemRow.decode)
        }
    }

    /// Replaces a static playlist's entries (used by importers and reordering).
    public func setPlaylistEntries(name: String, itemIDs: [Int64]) throws {
        try write { db in try rewriteEntries(db, try editablePlaylistID(db, name), itemIDs) }
    }

    /// Deletes the playlists mirroring files under `directories` (completely walked roots) whose file was
    /// not found again: a deleted playlist file takes its mirror with it. Returns their names.
    @discardableResult
    public func removeMirrors(under directories: [MediaPath], except found: Set<MediaPath>) throws -> [String] {
        let stale = try read { db in
            try Row.fetchAll(db, sql: "SELECT name, source FROM playlists WHERE source IS NOT NULL").filter { row in
                let source = MediaPath(bytes: Array(row[1] as Data))
                return !found.contains(source) && directories.contains { source.hasPrefix(directory: $0) }
            }.map { $0[0] as String }
        }
        guard !stale.isEmpty else { return [] }
        try write { db in
            for name in stale { try db.execute(sql: "DELETE FROM playlists WHERE name = ?", arguments: [name]) }
        }
        return stale
    }

    // MARK: helpers

    private static let playlistSelect = """
        SELECT p.id, p.name, p.query, p.sort, p."limit", p.created, p.modified, p.source,
               (SELECT COUNT(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS entries
        FROM playlists p
        """

    private static func playlist(_ row: Row) -> StoredPlaylist {
        let query: String? = row["query"]
        return StoredPlaylist(id: row["id"], name: row["name"],
                              smart: query.map { SmartPlaylistRule(predicate: $0, sort: row["sort"], limit: row["limit"]) },
                              created: Date(timeIntervalSince1970: row["created"]),
                              modified: Date(timeIntervalSince1970: row["modified"]), entryCount: row["entries"],
                              source: (row["source"] as Data?).map { MediaPath(bytes: Array($0)) })
    }

    private static func playlistID(_ db: Database, _ name: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM playlists WHERE name = ?", arguments: [name])
    }

    /// Keeps the playlist mirroring the playlist file at `source` (found under a root by a scan) equal to
    /// `itemIDs`: creates it on first sight, named `name` or, when the user already has a playlist of that
    /// name, `name (2)`, `name (3)`…; rewrites its entries only when they differ, so an unchanged rescan
    /// writes nothing. The user's own playlists are never touched. Returns the playlist's name.
    @discardableResult
    public func syncPlaylist(mirroring source: MediaPath, name: String, itemIDs: [Int64]) throws -> String {
        let existing = try read { db in
            try Row.fetchOne(db, sql: "SELECT id, name FROM playlists WHERE source = ?", arguments: [Data(source.bytes)])
                .map { (id: $0["id"] as Int64, name: $0["name"] as String) }
        }
        if let existing {
            let current = try read { db in
                try Int64.fetchAll(db, sql: "SELECT item_id FROM playlist_entries WHERE playlist_id = ? ORDER BY position",
                                   arguments: [existing.id])
            }
            if current != itemIDs {
                try write { db in
                    try rewriteEntries(db, existing.id, itemIDs)
                    try db.execute(sql: "UPDATE playlists SET modified = ? WHERE id = ?",
                                   arguments: [Date().timeIntervalSince1970, existing.id])
                }
            }
            return existing.name
        }
        return try write { db in
            var candidate = name, n = 1
            while try Self.playlistID(db, candidate) != nil { n += 1; candidate = "\(name) (\(n))" }
            let now = Date().timeIntervalSince1970
            try db.execute(sql: "INSERT INTO playlists (name, created, modified, source) VALUES (?, ?, ?, ?)",
                           arguments: [candidate, now, now, Data(source.bytes)])
            try rewriteEntries(db, db.lastInsertedRowID, itemIDs)
            return candidate
        }
    }

    /// A playlist whose entries the user may edit: not a mirror of a playlist file (the next scan would
    /// undo the edit).
    private func editablePlaylistID(_ db: Database, _ name: String) throws -> Int64 {
        let id = try existingPlaylistID(db, name)
        if let source = try Data.fetchOne(db, sql: "SELECT source FROM playlists WHERE id = ?", arguments: [id]) {
            throw IndexError.invalidArgument(database: path, reason: """
                playlist "\(name)" mirrors \(MediaPath(bytes: Array(source))), which each scan reads again: \
                edit that file, or copy the playlist under another name
                """)
        }
        return id
    }

    private func existingPlaylistID(_ db: Database, _ name: String) throws -> Int64 {
        guard let id = try Self.playlistID(db, name) else { throw IndexError.playlistNotFound(database: path, name: name) }
        return id
    }

    private func rewriteEntries(_ db: Database, _ id: Int64, _ itemIDs: [Int64]) throws {
        try db.execute(sql: "DELETE FROM playlist_entries WHERE playlist_id = ?", arguments: [id])
        let insert = try db.cachedStatement(sql: "INSERT INTO playlist_entries (playlist_id, position, item_id) VALUES (?, ?, ?)")
        for (position, itemID) in itemIDs.enumerated() {
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM items WHERE id = ?", arguments: [itemID]) != nil else {
                throw IndexError.itemNotFound(database: path, id: itemID)
            }
            try insert.execute(arguments: [id, position, itemID])
        }
        try touch(db, id)
    }

    private func touch(_ db: Database, _ id: Int64) throws {
        try db.execute(sql: "UPDATE playlists SET modified = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
    }
}
