import Foundation
import GRDB
import MediaIndex
import MediaModel

// The scanner's primitives: per-directory state, look-ups by inode, batched edits, move candidates,
// folding a moved row into the item it was, removal, and generations. Which of them to call, and when,
// is the scanner's policy (MediaScanner's `Moves`), not the store's.
extension SQLiteIndex {
    // MARK: Reading state

    public func directoryState(_ directory: MediaPath) throws -> DirectoryState {
        // Called once per directory: skip the BEGIN/COMMIT a `read` wraps around its work (two single
        // SELECTs need no snapshot, and the scan lock keeps other scans from writing meanwhile).
        try unsafeRead { db in
            var state = DirectoryState()
            let dir = Data(directory.bytes)
            let items = try Row.fetchCursor(db.cachedStatement(sql:
                """
                SELECT id, path, fileSize, scan_mtime, scan_inode, fingerprint, missing_gen IS NOT NULL, added_gen,
                    COALESCE(reader_version, 0) FROM items WHERE dir = ?
                """),
                arguments: [dir])
            while let row = try items.next() {
                let stamp = FileStamp(size: row[2] ?? -1, mtimeNanoseconds: row[3] ?? -1, inode: row[4] ?? -1)
                state.items[MediaPath(bytes: Array(row[1] as Data))] = .init(id: row[0], stamp: stamp, fingerprint: row[5],
                                                                            missing: row[6], addedGeneration: row[7],
                                                                            readerVersion: row[8])
            }
            let failures = try Row.fetchCursor(db.cachedStatement(sql:
                "SELECT path, size, mtime, inode, code, COALESCE(reader_version, 0) FROM failures WHERE dir = ?"), arguments: [dir])
            while let row = try failures.next() {
                let path = MediaPath(bytes: Array(row[0] as Data))
                state.failures[path] = FileStamp(size: row[1], mtimeNanoseconds: row[2], inode: row[3])
                state.failureCodes[path] = row[4]
                state.failureReaderVersions[path] = row[5]
            }
            return state
        }
    }

    /// Every directory holding items or failures under `root` (root included), in byte order.
    public func indexedDirectories(under root: MediaPath) throws -> [MediaPath] {
        let (lower, upper) = root.rangeBelow
        return try read { db in
            try Data.fetchAll(db, sql: """
                SELECT dir FROM items WHERE dir = ?1 OR (dir >= ?2 AND dir < ?3)
                UNION SELECT dir FROM failures WHERE dir = ?1 OR (dir >= ?2 AND dir < ?3)
                ORDER BY 1
                """, arguments: [Data(root.bytes), lower, upper]).map { MediaPath(bytes: Array($0)) }
        }
    }

    /// Number of items under `root` (for a progress estimate).
    public func itemCount(under root: MediaPath) throws -> Int {
        let (lower, upper) = root.rangeBelow
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items WHERE dir = ? OR (dir >= ? AND dir < ?)",
                             arguments: [Data(root.bytes), lower, upper]) ?? 0
        }
    }

    /// Items and failures under `root` recorded by a reader older than `readerVersion` (a scan reads them again).
    public func itemCount(under root: MediaPath, readBefore readerVersion: Int) throws -> Int {
        let (lower, upper) = root.rangeBelow
        return try read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM items WHERE (dir = ?1 OR (dir >= ?2 AND dir < ?3)) AND COALESCE(reader_version, 0) < ?4)
                    + (SELECT COUNT(*) FROM failures WHERE (dir = ?1 OR (dir >= ?2 AND dir < ?3)) AND COALESCE(reader_version, 0) < ?4)
                """, arguments: [Data(root.bytes), lower, upper, readerVersion]) ?? 0
        }
    }

    /// Items whose recorded inode is one of `inodes` (a file found at an unknown path may be one of them renamed).
    public func items(withInodes inodes: [Int64]) throws -> [Int64: [InodeMatch]] {
        guard !inodes.isEmpty else { return [:] }
        return try unsafeRead { db in
            var matches: [Int64: [InodeMatch]] = [:]
            for chunk in stride(from: 0, to: inodes.count, by: 500).map({ Array(inodes[$0..<min($0 + 500, inodes.count)]) }) {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT id, path, fileSize, scan_mtime, scan_inode, scan_device FROM items
                    WHERE scan_inode IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))
                    """, arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    let inode: Int64 = row[4]
                    matches[inode, default: []].append(InodeMatch(
                        id: row[0], path: MediaPath(bytes: Array(row[1] as Data)),
                        stamp: FileStamp(size: row[2] ?? -1, mtimeNanoseconds: row[3] ?? -1, inode: inode), device: row[5]))
                }
            }
            return matches
        }
    }

    /// Whether the library holds no item at all (a first scan has nothing to look up).
    public func isEmpty() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM items)") ?? true }
    }

    // MARK: Generations

    /// The newest generation handed out so far.
    public func currentGeneration() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM scan_state WHERE key = 'generation'") ?? 0 }
    }

    /// Hands out the next generation: the rows a scan adds carry it. Called by a scan when it first adds a
    /// row, so that a scan that adds nothing writes nothing.
    public func newGeneration() throws -> Int64 {
        try write { db in try Self.bumpGeneration(db) }
    }

    private static func bumpGeneration(_ db: Database) throws -> Int64 {
        try db.execute(sql: "UPDATE scan_state SET value = value + 1 WHERE key = 'generation'")
        return try Int64.fetchOne(db, sql: "SELECT value FROM scan_state WHERE key = 'generation'") ?? 0
    }

    // MARK: Writing

    /// Applies a batch of edits in one transaction. Rows it adds carry `generation` (a new one when nil).
    ///
    /// Read files are staged in a temporary table and written to `items` by two statements per batch rather
    /// than one per row: FTS5 flushes its pending terms to a new segment at the start of every statement
    /// that fires its triggers, so row-by-row writes made one tiny segment (and merges) per file.
    public func apply(_ changes: [ScanChange], generation: Int64? = nil) throws {
        guard !changes.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try write { db in
            try db.execute(sql: Self.createStagingSQL)
            var staged = false
            var addedGeneration = generation
            for change in changes {
                switch change {
                case .add(let item, let stamp, let fingerprint, let device, let ends, let reader):
                    if addedGeneration == nil { addedGeneration = try Self.bumpGeneration(db) }
                    try Self.stage(db, id: nil, item, stamp, fingerprint, device, ends, reader, dateAdded: now, generation: addedGeneration!)
                    staged = true
                case .update(let id, let item, let stamp, let fingerprint, let device, let ends, let reader):
                    try Self.stage(db, id: id, item, stamp, fingerprint, device, ends, reader, dateAdded: now, generation: 0)
                    staged = true
                case .move(let id, let path):
                    try db.cachedStatement(sql: "UPDATE items SET path = ?, path_text = ?, dir = ?, missing_gen = NULL WHERE id = ?")
                        .execute(arguments: [Data(path.bytes), path.string, Data(path.directory.bytes), id])
                    try Self.deleteFailure(db, path)
                case .fail(let path, let stamp, let code, let message, let reader):
                    try db.cachedStatement(sql: "UPDATE items SET scan_failed = 1 WHERE path = ? AND scan_failed = 0")
                        .execute(arguments: [Data(path.bytes)])
                    try db.cachedStatement(sql: """
                        INSERT OR REPLACE INTO failures (path, path_text, dir, size, mtime, inode, code, message, item_id, seen, reader_version)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM items WHERE path = ?), ?, ?)
                        """).execute(arguments: [Data(path.bytes), path.string, Data(path.directory.bytes), stamp.size,
                                                 stamp.mtimeNanoseconds, stamp.inode, code, message, Data(path.bytes), now, reader])
                case .removeFailure(let path):
                    try Self.deleteFailure(db, path)
                }
            }
            if staged {
                for sql in Self.writeStagedSQL { try db.cachedStatement(sql: sql).execute() }
            }
        }
    }

    // MARK: Moves and removals

    /// Rows added after each sought item's window that may be that item moved, by one kind of evidence:
    /// `.content`, size and fingerprint (through the `items_identity` index); `.audio`, one unchanged end
    /// (`EndHashes`), container and duration; `.musicBrainz`, the recording ID; `.tags`, title, artist,
    /// album, container and duration. `vanished` is every item this scan did not find (none of them is a
    /// candidate); `seeking` the ids among them to find rows for (all when nil). The scanner chooses among
    /// the candidates and asks for weaker evidence only for what is left (`Moves`).
    public func moveCandidates(for vanished: [VanishedItem], seeking: Set<Int64>? = nil,
                               evidence: MoveCandidate.Evidence) throws -> [MoveCandidate] {
        guard !vanished.isEmpty, seeking?.isEmpty != true else { return [] }
        return try write { db in       // a temporary table: written on the writer connection, committed nowhere
            try db.execute(sql: """
                CREATE TEMP TABLE IF NOT EXISTS vanished (id INTEGER PRIMARY KEY, size INTEGER, fingerprint INTEGER,
                    window INTEGER, seeking INTEGER)
                """)
            try db.execute(sql: "DELETE FROM temp.vanished")
            let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO temp.vanished VALUES (?, ?, ?, ?, ?)")
            for item in vanished {
                try insert.execute(arguments: [item.id, item.size, item.fingerprint, item.window, seeking?.contains(item.id) ?? true])
            }
            defer { try? db.execute(sql: "DELETE FROM temp.vanished") }
            let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(window) FROM temp.vanished WHERE seeking") ?? 0
            let sql: String
            switch evidence {
            case .sameFile:
                sql = """
                    SELECT v.id, i.id, i.path, i.added_gen FROM temp.vanished v JOIN items o ON o.id = v.id
                    JOIN items i ON i.scan_inode = o.scan_inode AND i.scan_device IS o.scan_device
                        AND (i.head_hash = o.head_hash OR i.tail_hash = o.tail_hash) AND i.added_gen > v.window
                    WHERE v.seeking AND o.scan_inode IS NOT NULL AND o.head_hash IS NOT NULL
                        AND i.id NOT IN (SELECT id FROM temp.vanished)
                    """
            case .content:
                sql = """
                    SELECT v.id, i.id, i.path, i.added_gen FROM temp.vanished v
                    JOIN items i ON i.fileSize = v.size AND i.fingerprint = v.fingerprint
                    WHERE v.seeking AND i.added_gen > v.window AND i.id NOT IN (SELECT id FROM temp.vanished)
                    """
            // The rest look only at rows added in the window (the `items_added_gen` index).
            case .audio:
                sql = """
                    SELECT v.id, i.id, i.path, i.added_gen FROM temp.vanished v JOIN items o ON o.id = v.id
                    JOIN items i ON i.added_gen > \(oldest) AND i.added_gen > v.window
                        AND (i.head_hash = o.head_hash OR i.tail_hash = o.tail_hash)
                        AND i.container IS o.container AND abs(i.playbackDuration - o.playbackDuration) < 0.05
                    WHERE v.seeking AND o.head_hash IS NOT NULL AND i.id NOT IN (SELECT id FROM temp.vanished)
                    """
            case .musicBrainz:
                sql = """
                    SELECT v.id, i.id, i.path, i.added_gen FROM temp.vanished v JOIN items o ON o.id = v.id
                    JOIN items i ON i.added_gen > \(oldest) AND i.added_gen > v.window AND i.musicBrainzTrackID = o.musicBrainzTrackID
                    WHERE v.seeking AND o.musicBrainzTrackID IS NOT NULL AND i.id NOT IN (SELECT id FROM temp.vanished)
                    """
            case .tags:
                sql = """
                    SELECT v.id, i.id, i.path, i.added_gen FROM temp.vanished v JOIN items o ON o.id = v.id
                    JOIN items i ON i.added_gen > \(oldest) AND i.added_gen > v.window AND i.title = o.title
                        AND i.artist IS o.artist AND i.albumTitle IS o.albumTitle AND i.container IS o.container
                        AND abs(i.playbackDuration - o.playbackDuration) < 1.0
                    WHERE v.seeking AND o.title IS NOT NULL AND o.playbackDuration IS NOT NULL
                        AND i.id NOT IN (SELECT id FROM temp.vanished)
                    """
            }
            return try Row.fetchAll(db, sql: sql).map { row in
                MoveCandidate(vanishedID: row[0], rowID: row[1], rowPath: MediaPath(bytes: Array(row[2] as Data)),
                              rowGeneration: row[3], evidence: evidence)
            }
        }
    }

    /// Folds each moved row into the item it was, in one transaction: the item takes the row's path and file
    /// data and keeps its id; what the user did meanwhile with the row (plays, skips, a rating, playlist
    /// entries) is carried over to the item; then the row goes.
    public func fold(_ pairs: [(item: Int64, row: Int64)]) throws {
        guard !pairs.isEmpty else { return }
        try write { db in
            let select = try db.cachedStatement(sql: "SELECT \(Self.foldSelect) FROM items WHERE id = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM items WHERE id = ?")
            let update = try db.cachedStatement(sql: Self.foldUpdate)
            let entries = try db.cachedStatement(sql: "UPDATE playlist_entries SET item_id = ? WHERE item_id = ?")
            let failures = try db.cachedStatement(sql: "UPDATE failures SET item_id = ? WHERE path = ?")
            for (item, row) in pairs {
                guard let values = try Row.fetchOne(select, arguments: [row]) else { continue }
                try entries.execute(arguments: [item, row])
                try delete.execute(arguments: [row])
                try update.execute(arguments: StatementArguments(values.databaseValues + [item.databaseValue]))
                try failures.execute(arguments: [item, values[0] as DatabaseValue])
            }
        }
    }

    /// Removes items (their playlist entries go with them) and their failure records, in one transaction.
    public func removeItems(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let failures = try db.cachedStatement(sql: "DELETE FROM failures WHERE path = (SELECT path FROM items WHERE id = ?)")
            let delete = try db.cachedStatement(sql: "DELETE FROM items WHERE id = ?")
            for id in ids {
                try failures.execute(arguments: [id])
                try delete.execute(arguments: [id])
            }
        }
    }

    /// The items hidden by partial scans (`hideItems`), as vanished items whose window is the generation
    /// that added them (the scanner raises it to their root's): a scan pairs them with what it adds, so a file moved out of a subtree and
    /// found by a later scan of another part gets its identity back at once.
    public func hiddenItems() throws -> [VanishedItem] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, path, fileSize, fingerprint, added_gen FROM items WHERE missing_gen IS NOT NULL").map {
                VanishedItem(id: $0[0], path: MediaPath(bytes: Array($0[1] as Data)), size: $0[2] ?? -1, fingerprint: $0[3],
                             window: $0[4], missing: true)
            }
        }
    }

    /// Hides items a partial scan did not find (`missing_gen`): out of every query, but kept, with their ids
    /// and user data, for the scan that finds them again or a scan of every root that shows them gone.
    public func hideItems(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            let generation = try Int64.fetchOne(db, sql: "SELECT value FROM scan_state WHERE key = 'generation'") ?? 0
            let hide = try db.cachedStatement(sql: "UPDATE items SET missing_gen = ? WHERE id = ? AND missing_gen IS NULL")
            for id in ids { try hide.execute(arguments: [generation, id]) }
        }
    }

    /// The file columns a fold copies from the moved row, then the user data it adds to the item's.
    private static let foldColumns = fileColumnList
    private static let foldSelect = (foldColumns.map(ItemRow.quoted)
        + ["COALESCE(playCount, 0)", "COALESCE(skipCount, 0)", "lastPlayedDate", "rating"]).joined(separator: ", ")
    private static let foldUpdate = """
        UPDATE items SET \(foldColumns.map { "\(ItemRow.quoted($0)) = ?" }.joined(separator: ", ")),
            playCount = COALESCE(playCount, 0) + ?, skipCount = COALESCE(skipCount, 0) + ?,
            lastPlayedDate = MAX(COALESCE(lastPlayedDate, 0), COALESCE(?, 0)),
            rating = COALESCE(rating, ?)
        WHERE id = ?
        """

    /// Every column a read of the file rewrites (`missing_gen` too: a file read is a file found).
    private static let fileColumnList = ItemRow.fileColumnNames
        + ["scan_mtime", "scan_inode", "scan_device", "fingerprint", "head_hash", "tail_hash", "scan_failed", "missing_gen",
           "reader_version"]

    // The staging table and the statements that move it into `items` are built once: composing ~100
    // column names per row, then hashing the text to find the cached statement, cost more than the insert.
    private static let stagingColumns = ["item_id", "date_added", "added_gen"] + fileColumnList
    private static let createStagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS scan_batch (\(stagingColumns.map(ItemRow.quoted).joined(separator: ", ")))
        """
    private static let stageSQL = """
        INSERT INTO temp.scan_batch VALUES (\(Array(repeating: "?", count: stagingColumns.count).joined(separator: ", ")))
        """
    private static let writeStagedSQL: [String] = {
        let names = fileColumnList.map(ItemRow.quoted)
        return [
            // New files, in the order they were read (ids follow it); a path already there (left by an
            // interrupted scan) is refreshed like an update, keeping its id and user data.
            """
            INSERT INTO items (\(names.joined(separator: ", ")), dateAdded, added_gen, playCount, skipCount)
            SELECT \(names.joined(separator: ", ")), date_added, added_gen, 0, 0 FROM temp.scan_batch WHERE item_id IS NULL ORDER BY rowid
            ON CONFLICT(path) DO UPDATE SET \(names.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """,
            // Changed files: file-derived columns only; user data stays.
            """
            UPDATE items SET \(names.map { "\($0) = b.\($0)" }.joined(separator: ", "))
            FROM temp.scan_batch AS b WHERE b.item_id IS NOT NULL AND items.id = b.item_id
            """,
            "DELETE FROM failures WHERE path IN (SELECT path FROM temp.scan_batch)",
            "DELETE FROM temp.scan_batch",
        ]
    }()

    private static func stage(_ db: Database, id: Int64?, _ item: MediaItem, _ stamp: FileStamp, _ fingerprint: Int64,
                              _ device: Int64?, _ ends: EndHashes?, _ reader: Int?, dateAdded: Double, generation: Int64) throws {
        try db.cachedStatement(sql: stageSQL).execute(arguments: StatementArguments(
            [id.databaseValue, dateAdded.databaseValue, generation.databaseValue] + ItemRow.fileColumnValues(item)
                + [stamp.mtimeNanoseconds.databaseValue, stamp.inode.databaseValue, device.databaseValue,
                   fingerprint.databaseValue, ends?.head.databaseValue ?? .null, ends?.tail.databaseValue ?? .null,
                   0.databaseValue, DatabaseValue.null, reader.databaseValue]))
    }

    private static func deleteFailure(_ db: Database, _ path: MediaPath) throws {
        try db.cachedStatement(sql: "DELETE FROM failures WHERE path = ?").execute(arguments: [Data(path.bytes)])
    }
    // MARK: Reports

    public func failures() throws -> [ScanFailure] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT path, code, message, size, item_id, seen FROM failures ORDER BY path").map { row in
                ScanFailure(path: MediaPath(bytes: Array(row[0] as Data)), code: row[1], message: row[2], size: row[3],
                            itemID: row[4], seen: Date(timeIntervalSince1970: row[5]))
            }
        }
    }
}
