import Foundation
import MediaModel

// Lyrics (schema "v20" / "pg v17"), one text for both stores: read by the scan with the file they belong to
// (`ScanChange.lyrics`, written in the batch's transaction after its read files), read back by `mlib lyrics`
// and the servers. They are file data: a fold gives the item the row's (`foldLyricsAndBookmarks`).
extension SQLStore: LyricsStore {
    public func lyrics(ofItem id: Int64) throws -> [StoredLyrics] {
        try read { x in
            try x.rows("""
                SELECT source, origin, language, synced, text, body, sidecar_path, sidecar_size, sidecar_mtime, sidecar_inode
                FROM lyrics WHERE item_id = \(id) ORDER BY ordinal
                """).map { row in
                StoredLyrics(source: row.text(0) ?? "", origin: row.text(1), language: row.text(2), isSynced: row.bool(3) ?? false,
                             text: row.text(4) ?? "", body: row.text(5) ?? "", sidecar: Self.sidecar(row, from: 6))
            }
        }
    }

    public func lyricsSidecars(under root: MediaPath) throws -> [Int64: [SidecarStamp]] {
        try read { x in
            var found: [Int64: [SidecarStamp]] = [:]
            try x.forEachRow("""
                SELECT l.item_id, l.sidecar_path, l.sidecar_size, l.sidecar_mtime, l.sidecar_inode FROM lyrics l
                JOIN items ON items.id = l.item_id
                WHERE l.sidecar_path IS NOT NULL AND \(mine("items.host")) AND \(under(root, column: "items.dir"))
                """) { row in
                guard let id = row.int64(0), let stamp = Self.sidecar(row, from: 1) else { return }
                found[id, default: []].append(stamp)
            }
            return found
        }
    }

    private static func sidecar(_ row: SQLRow, from i: Int) -> SidecarStamp? {
        guard let name = row.values[i].bytes else { return nil }
        return SidecarStamp(name: name, stamp: FileStamp(size: row.int64(i + 1) ?? -1, mtimeNanoseconds: row.int64(i + 2) ?? -1,
                                                         inode: row.int64(i + 3) ?? -1))
    }

    /// The `.lyrics` changes of a scan batch, inside its transaction, after its read files are written (a new
    /// file's row must be there to be found by its path): each replaces what the file's item held.
    package func writeLyrics(_ changes: [ScanChange], _ x: any SQLExecutor) throws {
        var replaced: [Int64] = []
        var sets: [(path: MediaPath, id: Int64?, lyrics: [StoredLyrics])] = []
        for case let .lyrics(path, id, lyrics) in changes {
            if let id { replaced.append(id) }
            if !lyrics.isEmpty { sets.append((path, id, lyrics)) }
        }
        // A read file's earlier lyrics go in one statement per batch (most files have none to write).
        for start in stride(from: 0, to: replaced.count, by: Self.maximumQueryTerms) {
            let ids = Array(replaced[start..<min(start + Self.maximumQueryTerms, replaced.count)])
            try x.execute("DELETE FROM lyrics WHERE \(syntax.isIn("item_id", .integers(ids)))")
        }
        for (path, id, lyrics) in sets {
            // A new file's row (or one an interrupted scan left at its path): found by its path.
            let item: SQLStatement = id.map { "\($0)" } ?? "(SELECT id FROM items WHERE \(mine()) AND path = \(path))"
            if id == nil { try x.execute("DELETE FROM lyrics WHERE item_id = \(item)") }
            for (ordinal, set) in lyrics.enumerated() {
                try x.execute("""
                    INSERT INTO lyrics (item_id, ordinal, source, origin, language, synced, text, body,
                        sidecar_path, sidecar_size, sidecar_mtime, sidecar_inode)
                    SELECT id, \(ordinal), \(set.source), \(set.origin), \(set.language), \(set.isSynced), \(set.text), \(set.body),
                        \(set.sidecar.map { SQLValue.bytes($0.name) } ?? .null), \(set.sidecar?.stamp.size),
                        \(set.sidecar?.stamp.mtimeNanoseconds), \(set.sidecar?.stamp.inode)
                    FROM items WHERE id = \(item)
                    """)
            }
        }
    }

    /// A fold (`fold`): the item takes the row's lyrics (read from the file as it is now) and, where the item
    /// has none of that user's, the bookmarks given to the row meanwhile; before the row goes (its own go
    /// with it, ON DELETE CASCADE).
    package static func foldLyricsAndBookmarks(from row: Int64, into item: Int64, _ x: any SQLExecutor) throws {
        try x.execute("DELETE FROM lyrics WHERE item_id = \(item)")
        try x.execute("UPDATE lyrics SET item_id = \(item) WHERE item_id = \(row)")
        try x.execute("""
            INSERT INTO bookmarks (user_name, item_id, position_ms, comment, created, changed)
            SELECT user_name, \(item), position_ms, comment, created, changed FROM bookmarks WHERE item_id = \(row)
            ON CONFLICT (user_name, item_id) DO NOTHING
            """)
    }
}
