import Foundation
import GRDB
import MediaModel

/// What the scanner remembers of a file to tell, without reading it, whether it changed.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var inode: Int64
    public init(size: Int64, mtimeNanoseconds: Int64, inode: Int64) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
    }
}

/// The index's view of one directory: its items and its recorded failures, by path.
public struct DirectoryState: Sendable {
    public struct Item: Sendable { public var id: Int64; public var stamp: FileStamp; public var fingerprint: Int64? }
    public var items: [MediaPath: Item] = [:]
    public var failures: [MediaPath: FileStamp] = [:]
    public var isEmpty: Bool { items.isEmpty && failures.isEmpty }
}

/// An indexed file that was not found by this scan: removed, unless a new file is the same file moved.
public struct VanishedItem: Sendable, Hashable {
    public var id: Int64
    public var path: MediaPath
    public var size: Int64
    public var fingerprint: Int64?
    public init(id: Int64, path: MediaPath, size: Int64, fingerprint: Int64?) {
        self.id = id
        self.path = path
        self.size = size
        self.fingerprint = fingerprint
    }
}

/// One edit from a scan. The scanner sends them in batches; each batch is one transaction.
public enum ScanChange: Sendable {
    /// A new file (or, after an interrupted scan, one already there: then it is refreshed like `update`).
    case add(MediaItem, FileStamp, fingerprint: Int64)
    /// A known file that changed: file-derived columns are rewritten, user data is not.
    case update(id: Int64, MediaItem, FileStamp, fingerprint: Int64)
    /// A file that could not be read. If it is indexed, its row keeps its metadata and is flagged.
    case fail(MediaPath, FileStamp, code: String, message: String)
    /// A failure record whose file is gone.
    case removeFailure(MediaPath)
}

/// What `finishScan` did with the vanished items.
public struct VanishedOutcome: Sendable, Hashable {
    public var moved: [(from: MediaPath, to: MediaPath)] = []
    public var removed = 0
    public static func == (a: Self, b: Self) -> Bool {
        a.removed == b.removed && a.moved.map(\.from) == b.moved.map(\.from) && a.moved.map(\.to) == b.moved.map(\.to)
    }
    public func hash(into h: inout Hasher) { h.combine(removed); h.combine(moved.map(\.to)) }
}

/// A file a scan could not read, as recorded.
public struct ScanFailure: Sendable, Hashable {
    public var path: MediaPath
    public var code: String
    public var message: String
    public var size: Int64
    /// Set when the file is indexed: its row keeps the metadata of its last good read.
    public var itemID: Int64?
    public var seen: Date
}

// The scanner's side of the index: roots, per-directory state, batched edits, and the end-of-scan
// resolution of moves and removals.
extension SQLiteIndex {
    // MARK: Roots

    public func roots() throws -> [MediaPath] {
        try read { db in try Data.fetchAll(db, sql: "SELECT path FROM roots ORDER BY path").map { MediaPath(bytes: Array($0)) } }
    }

    /// Adds a root; returns false when it was already there (no write then).
    @discardableResult
    public func addRoot(_ root: MediaPath) throws -> Bool {
        if try read({ db in try Bool.fetchOne(db, sql: "SELECT 1 FROM roots WHERE path = ?", arguments: [Data(root.bytes)]) }) != nil {
            return false
        }
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO roots (path, path_text, added) VALUES (?, ?, ?)",
                           arguments: [Data(root.bytes), root.string, Date().timeIntervalSince1970])
        }
        return true
    }

    /// Forgets a root and everything indexed under it.
    public func removeRoot(_ root: MediaPath) throws {
        let (lower, upper) = Self.prefixRange(root)
        try write { db in
            try db.execute(sql: "DELETE FROM roots WHERE path = ?", arguments: [Data(root.bytes)])
            for table in ["items", "failures"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE dir = ? OR (dir >= ? AND dir < ?)",
                               arguments: [Data(root.bytes), lower, upper])
            }
        }
    }

    // MARK: Reading state

    public func directoryState(_ directory: MediaPath) throws -> DirectoryState {
        // Called once per directory: skip the BEGIN/COMMIT a `read` wraps around its work (two single
        // SELECTs need no snapshot, and the scan lock keeps other scans from writing meanwhile).
        try unsafeRead { db in
            var state = DirectoryState()
            let dir = Data(directory.bytes)
            let items = try Row.fetchCursor(db.cachedStatement(sql:
                "SELECT id, path, fileSize, scan_mtime, scan_inode, fingerprint FROM items WHERE dir = ?"), arguments: [dir])
            while let row = try items.next() {
                let stamp = FileStamp(size: row[2] ?? -1, mtimeNanoseconds: row[3] ?? -1, inode: row[4] ?? -1)
                state.items[MediaPath(bytes: Array(row[1] as Data))] = .init(id: row[0], stamp: stamp, fingerprint: row[5])
            }
            let failures = try Row.fetchCursor(db.cachedStatement(sql:
                "SELECT path, size, mtime, inode FROM failures WHERE dir = ?"), arguments: [dir])
            while let row = try failures.next() {
                state.failures[MediaPath(bytes: Array(row[0] as Data))] =
                    FileStamp(size: row[1], mtimeNanoseconds: row[2], inode: row[3])
            }
            return state
        }
    }

    /// Every directory holding items or failures under `root` (root included), in byte order.
    public func indexedDirectories(under root: MediaPath) throws -> [MediaPath] {
        let (lower, upper) = Self.prefixRange(root)
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
        let (lower, upper) = Self.prefixRange(root)
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items WHERE dir = ? OR (dir >= ? AND dir < ?)",
                             arguments: [Data(root.bytes), lower, upper]) ?? 0
        }
    }

    /// The highest item id so far: rows added by a scan have larger ids (AUTOINCREMENT never reuses).
    public func maxItemID() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'items'") ?? 0 }
    }

    // MARK: Writing

    /// Applies a batch of edits in one transaction.
    ///
    /// Read files are staged in a temporary table and written to `items` by two statements per batch rather
    /// than one per row: FTS5 flushes its pending terms to a new segment at the start of every statement
    /// that fires its triggers, so row-by-row writes made one tiny segment (and merges) per file.
    public func apply(_ changes: [ScanChange]) throws {
        guard !changes.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try write { db in
            try db.execute(sql: Self.createStagingSQL)
            var staged = false
            for change in changes {
                switch change {
                case .add(let item, let stamp, let fingerprint):
                    try Self.stage(db, id: nil, item, stamp, fingerprint, dateAdded: now)
                    staged = true
                case .update(let id, let item, let stamp, let fingerprint):
                    try Self.stage(db, id: id, item, stamp, fingerprint, dateAdded: now)
                    staged = true
                case .fail(let path, let stamp, let code, let message):
                    try db.cachedStatement(sql: "UPDATE items SET scan_failed = 1 WHERE path = ? AND scan_failed = 0")
                        .execute(arguments: [Data(path.bytes)])
                    try db.cachedStatement(sql: """
                        INSERT OR REPLACE INTO failures (path, path_text, dir, size, mtime, inode, code, message, item_id, seen)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM items WHERE path = ?), ?)
                        """).execute(arguments: [Data(path.bytes), path.string, Data(path.directory.bytes), stamp.size,
                                                 stamp.mtimeNanoseconds, stamp.inode, code, message, Data(path.bytes), now])
                case .removeFailure(let path):
                    try Self.deleteFailure(db, path)
                }
            }
            if staged {
                for sql in Self.writeStagedSQL { try db.cachedStatement(sql: sql).execute() }
            }
        }
    }

    /// The id after which rows count as added since the last complete scan (see `finishScan`).
    public func moveWatermark() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM scan_state WHERE key = 'moveWatermark'") ?? 0 }
    }

    /// Ends a scan that walked its roots completely: each vanished item whose size and fingerprint match a
    /// row added since the last complete scan (id > `addedAfter`, the `moveWatermark()` read when this scan
    /// began, so rows a killed scan added still count) was moved — it takes that row's path and file data and
    /// keeps its own id, user data and playlist entries, and the new row goes. The other vanished items are
    /// removed. Then the watermark moves up to the newest row (written only when it changed, so an unchanged
    /// rescan still writes nothing).
    public func finishScan(vanished: [VanishedItem], addedAfter: Int64) throws -> VanishedOutcome {
        let newest = try maxItemID()
        if vanished.isEmpty && newest == addedAfter { return VanishedOutcome() }
        return try write { db in
            var outcome = VanishedOutcome()
            let columns = ItemRow.fileColumnNames + ["scan_mtime", "scan_inode", "fingerprint", "scan_failed"]
            let assignments = columns.map { "\(ItemRow.quoted($0)) = ?" }.joined(separator: ", ")
            let selectNew = columns.map(ItemRow.quoted).joined(separator: ", ")
            // A row that is itself gone (a killed scan's new row whose file moved on again) is no move target.
            let vanishedIDs = "[" + vanished.map { String($0.id) }.joined(separator: ",") + "]"
            for item in vanished {
                if let fingerprint = item.fingerprint,
                   let newRow = try Row.fetchOne(db.cachedStatement(sql: """
                       SELECT id, \(selectNew) FROM items WHERE fileSize = ? AND fingerprint = ? AND id > ?
                       AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1
                       """), arguments: [item.size, fingerprint, addedAfter, vanishedIDs]) {
                    let newID: Int64 = newRow[0]
                    let values = (1...columns.count).map { newRow[$0] as DatabaseValue }
                    try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [newID])
                    try db.execute(sql: "UPDATE items SET \(assignments) WHERE id = ?",
                                   arguments: StatementArguments(values + [item.id.databaseValue]))
                    try db.execute(sql: "UPDATE failures SET item_id = ? WHERE item_id IS NULL AND path = ?",
                                   arguments: [item.id, values[0]])
                    outcome.moved.append((item.path, MediaPath(bytes: Array(Data.fromDatabaseValue(values[0]) ?? Data()))))
                } else {
                    try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [item.id])
                    try Self.deleteFailure(db, item.path)
                    outcome.removed += 1
                }
            }
            try db.execute(sql: "UPDATE scan_state SET value = ? WHERE key = 'moveWatermark'", arguments: [newest])
            return outcome
        }
    }

    private static let fileColumnList = (ItemRow.fileColumnNames + ["scan_mtime", "scan_inode", "fingerprint", "scan_failed"])

    // The staging table and the statements that move it into `items` are built once: composing ~100
    // column names per row, then hashing the text to find the cached statement, cost more than the insert.
    private static let stagingColumns = ["item_id", "date_added"] + fileColumnList
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
            INSERT INTO items (\(names.joined(separator: ", ")), dateAdded)
            SELECT \(names.joined(separator: ", ")), date_added FROM temp.scan_batch WHERE item_id IS NULL ORDER BY rowid
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
                              dateAdded: Double) throws {
        try db.cachedStatement(sql: stageSQL).execute(arguments: StatementArguments(
            [id.databaseValue, dateAdded.databaseValue] + ItemRow.fileColumnValues(item)
                + [stamp.mtimeNanoseconds.databaseValue, stamp.inode.databaseValue, fingerprint.databaseValue, 0.databaseValue]))
    }

    private static func deleteFailure(_ db: Database, _ path: MediaPath) throws {
        try db.cachedStatement(sql: "DELETE FROM failures WHERE path = ?").execute(arguments: [Data(path.bytes)])
    }

    /// Byte range of paths strictly below `root`: [root + "/", root + "0") — "0" is the byte after "/".
    static func prefixRange(_ root: MediaPath) -> (Data, Data) {
        let prefix = root.bytes.last == UInt8(ascii: "/") ? root.bytes : root.bytes + [UInt8(ascii: "/")]
        return (Data(prefix), Data(prefix.dropLast() + [UInt8(ascii: "0")]))
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
