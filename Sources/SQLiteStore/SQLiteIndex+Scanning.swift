import Foundation
import GRDB
import MediaIndex
import MediaModel

// The scanner's batched writes on SQLite (the other primitives are `SQLStore`'s, in MediaIndex).
extension SQLiteIndex {
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
                    if addedGeneration == nil { addedGeneration = try SQLStore.bumpGeneration(SQLiteConnection.Executor(db: db)) }
                    try Self.stage(db, id: nil, item, stamp, fingerprint, device, ends, reader, dateAdded: now, generation: addedGeneration!)
                    staged = true
                case .update(let id, let item, let stamp, let fingerprint, let device, let ends, let reader):
                    try Self.stage(db, id: id, item, stamp, fingerprint, device, ends, reader, dateAdded: now, generation: 0)
                    staged = true
                case .move(let id, let path):
                    try applyMove(SQLiteConnection.Executor(db: db), id: id, to: path)
                case .fail(let path, let stamp, let code, let message, let reader):
                    try applyFailure(SQLiteConnection.Executor(db: db), path, stamp, code: code, message: message, reader: reader,
                                     at: Date(timeIntervalSince1970: now))
                case .removeFailure(let path):
                    try deleteFailure(SQLiteConnection.Executor(db: db), path)
                }
            }
            if staged {
                for sql in Self.writeStagedSQL { try db.cachedStatement(sql: sql).execute() }
            }
        }
    }

    // The staging table and the statements that move it into `items` are built once: composing ~100
    // column names per row, then hashing the text to find the cached statement, cost more than the insert.
    private static let stagingColumns = ["item_id", "date_added", "added_gen"] + ItemRow.scanColumnNames
    private static let createStagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS scan_batch (\(stagingColumns.map(ItemRow.quoted).joined(separator: ", ")))
        """
    private static let stageSQL = """
        INSERT INTO temp.scan_batch VALUES (\(Array(repeating: "?", count: stagingColumns.count).joined(separator: ", ")))
        """
    private static let writeStagedSQL: [String] = {
        let names = ItemRow.scanColumnNames.map(ItemRow.quoted)
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
            [id.databaseValue, dateAdded.databaseValue, generation.databaseValue]
                + ItemRow.scanRowValues(item, stamp, fingerprint, device, ends, reader).map(SQLiteConnection.Executor.databaseValue)))
    }

}
