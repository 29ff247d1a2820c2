import GRDB
import MediaModel

/// Named migrations. Property columns come from `MediaProperty.allCases` (through `ItemRow`); a property added
/// later gets its column from `addMissingPropertyColumns`, so adding a property needs no migration text.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: items, roots, failures, playlists, FTS") { db in
            try db.execute(sql: """
                CREATE TABLE roots (
                    id INTEGER PRIMARY KEY,
                    path BLOB NOT NULL UNIQUE,
                    path_text TEXT NOT NULL,
                    added REAL NOT NULL)
                """)
            // AUTOINCREMENT: an id is never reused, so a deleted item's id cannot come back as someone else's.
            let propertyColumns = ItemRow.stored.map { "\(ItemRow.quoted($0.rawValue)) \(ItemRow.sqlType($0.spec.type))" }
            let foldedColumns = ItemRow.searchable.map { "\(ItemRow.quoted(ItemRow.foldedColumn($0))) TEXT" }
            try db.execute(sql: """
                CREATE TABLE items (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    path BLOB NOT NULL UNIQUE,
                    path_text TEXT NOT NULL,
                    dir BLOB NOT NULL,
                    tags TEXT,
                    \((propertyColumns + foldedColumns).joined(separator: ",\n    ")),
                    scan_mtime INTEGER,
                    scan_inode INTEGER,
                    fingerprint INTEGER,
                    scan_failed INTEGER NOT NULL DEFAULT 0)
                """)
            try db.execute(sql: "CREATE INDEX items_dir ON items(dir)")
            try db.execute(sql: "CREATE INDEX items_identity ON items(fileSize, fingerprint)")
            try db.execute(sql: "CREATE INDEX items_path_text ON items(path_text)")
            for p in ItemRow.searchable {
                let c = ItemRow.foldedColumn(p)
                try db.execute(sql: "CREATE INDEX \(ItemRow.quoted("items_" + c)) ON items(\(ItemRow.quoted(c)))")
            }
            for p: MediaProperty in [.mediaType, .year, .dateAdded, .lastPlayedDate, .playCount, .rating, .container] {
                try db.execute(sql: "CREATE INDEX \(ItemRow.quoted("items_" + p.rawValue)) ON items(\(ItemRow.quoted(p.rawValue)))")
            }

            try db.execute(sql: """
                CREATE TABLE failures (
                    path BLOB PRIMARY KEY,
                    path_text TEXT NOT NULL,
                    dir BLOB NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    code TEXT NOT NULL,
                    message TEXT NOT NULL,
                    item_id INTEGER REFERENCES items(id) ON DELETE SET NULL,
                    seen REAL NOT NULL)
                """)
            try db.execute(sql: "CREATE INDEX failures_dir ON failures(dir)")

            try db.execute(sql: """
                CREATE TABLE playlists (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    query TEXT,
                    sort TEXT,
                    "limit" INTEGER,
                    created REAL NOT NULL,
                    modified REAL NOT NULL)
                """)
            try db.execute(sql: """
                CREATE TABLE playlist_entries (
                    playlist_id INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    PRIMARY KEY (playlist_id, position))
                """)
            try db.execute(sql: "CREATE INDEX playlist_entries_item ON playlist_entries(item_id)")

            try createFullTextSearch(db)
        }
        QueryIndexes.register(in: &migrator)     // the query engineer's indexes (QueryIndexes.swift)
        migrator.registerMigration("v2: playlists mirror the playlist files found under roots") { db in
            // The exact path bytes of the file a playlist was imported from by a scan; NULL for the user's own.
            try db.execute(sql: "ALTER TABLE playlists ADD COLUMN source BLOB")
            try db.execute(sql: "CREATE UNIQUE INDEX playlists_source ON playlists(source) WHERE source IS NOT NULL")
        }
        migrator.registerMigration("v3: move-detection watermark") { db in
            // Rows with a larger id were added since the last complete scan: the candidates a vanished item
            // may have moved to. Kept across a killed scan, so the next one still pairs a move it began.
            try db.execute(sql: "CREATE TABLE scan_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID")
            try db.execute(sql: """
                INSERT INTO scan_state VALUES ('moveWatermark',
                    COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'items'), 0))
                """)
        }
        migrator.registerMigration("v4: identity: generations per root, devices, mount points, zero play counts") { db in
            // A counter bumped by each scan that adds rows; a row remembers the generation that added it, a
            // root the generation at which it was last walked completely. A vanished item under a root may
            // have moved to any row added since: the window is per root, so a scan of another root (or of a
            // subtree) no longer closes it, and a killed scan's rows stay candidates.
            try db.execute(sql: "ALTER TABLE items ADD COLUMN added_gen INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE items ADD COLUMN scan_device INTEGER")
            try db.execute(sql: "ALTER TABLE items ADD COLUMN head_hash INTEGER")
            try db.execute(sql: "ALTER TABLE items ADD COLUMN tail_hash INTEGER")
            // Set when a scan that did not walk every root lost sight of the item: hidden from every query, but
            // kept with its id and user data until a scan of all roots shows it gone (it may have moved to a
            // root that was not walked); a later scan that finds it again clears it.
            try db.execute(sql: "ALTER TABLE items ADD COLUMN missing_gen INTEGER")
            try db.execute(sql: "CREATE INDEX items_missing ON items(missing_gen) WHERE missing_gen IS NOT NULL")
            try db.execute(sql: "CREATE INDEX items_inode ON items(scan_inode)")
            try db.execute(sql: "CREATE INDEX items_added_gen ON items(added_gen)")
            try db.execute(sql: "ALTER TABLE roots ADD COLUMN complete_gen INTEGER NOT NULL DEFAULT 0")
            // Mount points seen under each root by its last complete walk: one that is no longer a mount
            // point (an unmounted disk) hides its items; they are not taken as deleted.
            try db.execute(sql: "CREATE TABLE mounts (path BLOB PRIMARY KEY, device INTEGER NOT NULL) WITHOUT ROWID")
            try db.execute(sql: "INSERT INTO scan_state VALUES ('generation', 1)")
            try db.execute(sql: """
                UPDATE items SET added_gen = 1
                WHERE id > COALESCE((SELECT value FROM scan_state WHERE key = 'moveWatermark'), 0)
                """)
            try db.execute(sql: "DELETE FROM scan_state WHERE key = 'moveWatermark'")
            // MPMediaItem's playCount and skipCount are 0, never nil: `plays:0` finds the never-played.
            try db.execute(sql: "UPDATE items SET playCount = COALESCE(playCount, 0), skipCount = COALESCE(skipCount, 0)")
        }
        return migrator
    }

    /// `items_fts` indexes the folded searchable columns (external content: no second copy of the text).
    /// Triggers keep it in step; an update that leaves those columns alone (a move) does not touch it.
    static func createFullTextSearch(_ db: Database) throws {
        let names = ItemRow.searchable.map { ItemRow.quoted($0.rawValue) }.joined(separator: ", ")
        let new = ItemRow.searchable.map { "new." + ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        let old = ItemRow.searchable.map { "old." + ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        let folded = ItemRow.searchable.map { ItemRow.quoted(ItemRow.foldedColumn($0)) }.joined(separator: ", ")
        try db.execute(sql: """
            CREATE VIRTUAL TABLE items_fts USING fts5(\(names), content='items', content_rowid='id',
                tokenize='unicode61 remove_diacritics 2');
            CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
                INSERT INTO items_fts(rowid, \(names)) VALUES (new.id, \(new));
            END;
            CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
                INSERT INTO items_fts(items_fts, rowid, \(names)) VALUES ('delete', old.id, \(old));
            END;
            CREATE TRIGGER items_fts_update AFTER UPDATE OF \(folded) ON items BEGIN
                INSERT INTO items_fts(items_fts, rowid, \(names)) VALUES ('delete', old.id, \(old));
                INSERT INTO items_fts(rowid, \(names)) VALUES (new.id, \(new));
            END;
            """)
    }

    /// Adds a column for any property that appeared after the database was created (reads first, so an
    /// up-to-date database is not written to).
    static func addMissingPropertyColumns(_ writer: any DatabaseWriter) throws {
        let existing = try writer.read { db in Set(try db.columns(in: "items").map(\.name)) }
        let missing = ItemRow.stored.filter { !existing.contains($0.rawValue) }
        guard !missing.isEmpty else { return }
        try writer.write { db in
            for p in missing {
                try db.execute(sql: "ALTER TABLE items ADD COLUMN \(ItemRow.quoted(p.rawValue)) \(ItemRow.sqlType(p.spec.type))")
            }
        }
    }
}
