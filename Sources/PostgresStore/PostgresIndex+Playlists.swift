import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

// Playlists on PostgreSQL, as SQLiteIndex+Playlists.swift: entries reference item ids (ON DELETE CASCADE),
// positions are 0-based and contiguous; a mirror of a playlist file is this host's file.
extension PostgresIndex {
    @discardableResult
    public func createPlaylist(name: String, smart: SmartPlaylistRule? = nil) throws -> StoredPlaylist {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw IndexError.invalidArgument(database: databaseName, reason: "a playlist name cannot be empty")
        }
        let now = Date().timeIntervalSince1970
        try session.transaction { s in
            if try playlistID(s, name) != nil { throw IndexError.playlistExists(database: databaseName, name: name) }
            var q = SQLText()
            q.sql = """
                INSERT INTO playlists (name, query, sort, "limit", created, modified)
                VALUES (\(q.bind(name)), \(q.bind(smart?.predicate)), \(q.bind(smart?.sort)), \(q.bind(smart?.limit.map(Int64.init))),
                    \(q.bind(now)), \(q.bind(now)))
                """
            try s.execute(q)
        }
        return try playlist(named: name)!
    }

    public func playlists() throws -> [StoredPlaylist] {
        try session.run { s in try s.query(Self.playlistSelect + " ORDER BY p.name").map(Self.playlist) }
    }

    public func playlist(named name: String) throws -> StoredPlaylist? {
        var q = SQLText()
        q.sql = Self.playlistSelect + " WHERE p.name = \(q.bind(name))"
        return try session.run { s in try s.query(q).first.map(Self.playlist) }
    }

    public func appendToPlaylist(name: String, itemIDs: [Int64]) throws {
        try session.transaction { s in
            let id = try editablePlaylistID(s, name)
            var n = SQLText()
            n.sql = "SELECT COALESCE(max(position) + 1, 0)::bigint FROM playlist_entries WHERE playlist_id = \(n.bind(id))"
            let next = try s.scalar(n, as: Int64.self) ?? 0
            try insertEntries(s, id, itemIDs, from: next)
            try touch(s, id)
        }
    }

    public func removeFromPlaylist(name: String, positions: [Int]) throws {
        try session.transaction { s in
            let id = try editablePlaylistID(s, name)
            let entries = try entryIDs(s, id)
            if let bad = positions.first(where: { !entries.indices.contains($0) }) {
                throw IndexError.invalidArgument(database: databaseName, reason: "playlist \"\(name)\" has no position \(bad) (it has \(entries.count) entries)")
            }
            let drop = Set(positions)
            try rewriteEntries(s, id, entries.enumerated().filter { !drop.contains($0.offset) }.map(\.element))
        }
    }

    public func renamePlaylist(_ name: String, to newName: String) throws {
        try session.transaction { s in
            let id = try existingPlaylistID(s, name)
            if name != newName, try playlistID(s, newName) != nil {
                throw IndexError.playlistExists(database: databaseName, name: newName)
            }
            var q = SQLText()
            q.sql = "UPDATE playlists SET name = \(q.bind(newName)) WHERE id = \(q.bind(id))"
            try s.execute(q)
            try touch(s, id)
        }
    }

    public func deletePlaylist(name: String) throws {
        try session.transaction { s in
            let id = try existingPlaylistID(s, name)
            var q = SQLText()
            q.sql = "DELETE FROM playlists WHERE id = \(q.bind(id))"
            try s.execute(q)
        }
    }

    public func playlistItems(name: String) throws -> [MediaItem] {
        try session.transaction { s in
            let id = try existingPlaylistID(s, name)
            var q = SQLText()
            q.sql = """
                SELECT \(Self.selectColumns) FROM playlist_entries e JOIN items ON items.id = e.item_id
                WHERE e.playlist_id = \(q.bind(id)) AND items.missing_gen IS NULL ORDER BY e.position
                """
            return try s.query(q).map(Self.decodeItem)
        }
    }

    public func setPlaylistEntries(name: String, itemIDs: [Int64]) throws {
        try session.transaction { s in try rewriteEntries(s, try editablePlaylistID(s, name), itemIDs) }
    }

    @discardableResult
    public func removeMirrors(under directories: [MediaPath], except found: Set<MediaPath>) throws -> [String] {
        var q = SQLText()
        q.sql = "SELECT name, source FROM playlists WHERE source IS NOT NULL AND source_host = \(q.bind(host))"
        let stale = try session.run { s in
            try s.query(q).compactMap { row -> String? in
                let r = row.makeRandomAccess()
                let source = MediaPath(bytes: Array(r[1].value(Data.self) ?? Data()))
                guard !found.contains(source) && directories.contains(where: { source.hasPrefix(directory: $0) }) else { return nil }
                return r[0].value(String.self)
            }
        }
        guard !stale.isEmpty else { return [] }
        var d = SQLText()
        d.sql = "DELETE FROM playlists WHERE name = ANY(\(d.bind(stale)))"
        try session.run { s in try s.execute(d) }
        return stale
    }

    @discardableResult
    public func syncPlaylist(mirroring source: MediaPath, name: String, itemIDs: [Int64]) throws -> String {
        try session.transaction { s in
            var q = SQLText()
            q.sql = "SELECT id, name FROM playlists WHERE source_host = \(q.bind(host)) AND source = \(q.bind(Data(source.bytes)))"
            if let row = try s.query(q).first?.makeRandomAccess(), let id = row[0].value(Int64.self) {
                if try entryIDs(s, id) != itemIDs { try rewriteEntries(s, id, itemIDs) }
                return row[1].value(String.self) ?? name
            }
            var candidate = name, n = 1
            while try playlistID(s, candidate) != nil { n += 1; candidate = "\(name) (\(n))" }
            let now = Date().timeIntervalSince1970
            var i = SQLText()
            i.sql = """
                INSERT INTO playlists (name, created, modified, source_host, source)
                VALUES (\(i.bind(candidate)), \(i.bind(now)), \(i.bind(now)), \(i.bind(host)), \(i.bind(Data(source.bytes)))) RETURNING id
                """
            let id = try s.scalar(i, as: Int64.self) ?? 0
            try rewriteEntries(s, id, itemIDs)
            return candidate
        }
    }

    // MARK: helpers

    private static let playlistSelect = """
        SELECT p.id, p.name, p.query, p.sort, p."limit", p.created, p.modified, p.source,
               (SELECT count(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS entries
        FROM playlists p
        """

    private static func playlist(_ row: PostgresRow) -> StoredPlaylist {
        let r = row.makeRandomAccess()
        let query = r[2].value(String.self)
        return StoredPlaylist(id: r[0].value(Int64.self) ?? 0, name: r[1].value(String.self) ?? "",
                              smart: query.map { SmartPlaylistRule(predicate: $0, sort: r[3].value(String.self),
                                                                   limit: r[4].value(Int64.self).map(Int.init)) },
                              created: Date(timeIntervalSince1970: r[5].value(Double.self) ?? 0),
                              modified: Date(timeIntervalSince1970: r[6].value(Double.self) ?? 0),
                              entryCount: Int(r[8].value(Int64.self) ?? 0),
                              source: r[7].value(Data.self).map { MediaPath(bytes: Array($0)) })
    }

    private func playlistID(_ s: PostgresSession.Statements, _ name: String) throws -> Int64? {
        var q = SQLText()
        q.sql = "SELECT id FROM playlists WHERE name = \(q.bind(name))"
        return try s.scalar(q, as: Int64.self)
    }

    private func existingPlaylistID(_ s: PostgresSession.Statements, _ name: String) throws -> Int64 {
        guard let id = try playlistID(s, name) else { throw IndexError.playlistNotFound(database: databaseName, name: name) }
        return id
    }

    private func editablePlaylistID(_ s: PostgresSession.Statements, _ name: String) throws -> Int64 {
        let id = try existingPlaylistID(s, name)
        var q = SQLText()
        q.sql = "SELECT source FROM playlists WHERE id = \(q.bind(id))"
        if let source = try s.scalar(q, as: Data.self) {
            throw IndexError.invalidArgument(database: databaseName, reason: """
                playlist "\(name)" mirrors \(MediaPath(bytes: Array(source))), which each scan reads again: \
                edit that file, or copy the playlist under another name
                """)
        }
        return id
    }

    private func entryIDs(_ s: PostgresSession.Statements, _ id: Int64) throws -> [Int64] {
        var q = SQLText()
        q.sql = "SELECT item_id FROM playlist_entries WHERE playlist_id = \(q.bind(id)) ORDER BY position"
        return try s.query(q).compactMap { $0.makeRandomAccess()[0].value(Int64.self) }
    }

    private func rewriteEntries(_ s: PostgresSession.Statements, _ id: Int64, _ itemIDs: [Int64]) throws {
        var d = SQLText()
        d.sql = "DELETE FROM playlist_entries WHERE playlist_id = \(d.bind(id))"
        try s.execute(d)
        try insertEntries(s, id, itemIDs, from: 0)
        try touch(s, id)
    }

    /// Appends entries at `from`, `from + 1`…; every id must be an item (the first missing one is the error).
    private func insertEntries(_ s: PostgresSession.Statements, _ id: Int64, _ itemIDs: [Int64], from start: Int64) throws {
        guard !itemIDs.isEmpty else { return }
        var check = SQLText()
        check.sql = "SELECT id FROM items WHERE id = ANY(\(check.bind(Array(Set(itemIDs)))))"
        let known = Set(try s.query(check).compactMap { $0.makeRandomAccess()[0].value(Int64.self) })
        if let missing = itemIDs.first(where: { !known.contains($0) }) {
            throw IndexError.itemNotFound(database: databaseName, id: missing)
        }
        var q = SQLText()
        q.sql = """
            INSERT INTO playlist_entries (playlist_id, position, item_id)
            SELECT \(q.bind(id)), \(q.bind(start)) + ordinality - 1, item FROM unnest(\(q.bind(itemIDs))) WITH ORDINALITY AS t(item, ordinality)
            """
        try s.execute(q)
    }

    private func touch(_ s: PostgresSession.Statements, _ id: Int64) throws {
        var q = SQLText()
        q.sql = "UPDATE playlists SET modified = \(q.bind(Date().timeIntervalSince1970)) WHERE id = \(q.bind(id))"
        try s.execute(q)
    }
}
