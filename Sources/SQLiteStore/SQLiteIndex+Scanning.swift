import Foundation
import GRDB
import GRDBSQLite
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
            // Created only when missing: GRDB's authorizer counts any CREATE as a schema change, even
            // "IF NOT EXISTS" finding the table there, and empties the statement cache, so every batch
            // prepared its five ~100-column statements again (~2 % of a full scan's CPU).
            if try Bool.fetchOne(db.cachedStatement(sql: Self.stagingExistsSQL)) != true {
                try db.execute(sql: Self.createStagingSQL)
            }
            // Looked up once per batch: the cache is keyed by the ~3 KB text, hashed on every lookup.
            let stageStatement = try db.cachedStatement(sql: Self.stageSQL)
            var staged = false
            try applyChanges(changes, generation: generation, at: Date(timeIntervalSince1970: now), SQLiteConnection.Executor(db: db)) { id, row, generation in
                try Self.stage(stageStatement, id: id, row, dateAdded: now, generation: generation)
                staged = true
            }
            if staged {
                for sql in Self.writeStagedSQL { try db.cachedStatement(sql: sql).execute() }
            }
            try writeLyrics(changes, SQLiteConnection.Executor(db: db))
        }
    }

    // The staging table and the statements that move it into `items` are built once: composing ~100
    // column names per row, then hashing the text to find the cached statement, cost more than the insert.
    private static let stagingColumns = ["item_id", "date_added", "added_gen"] + ItemRow.scanColumnNames
    private static let createStagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS scan_batch (\(stagingColumns.map(ItemRow.quoted).joined(separator: ", ")))
        """
    private static let stagingExistsSQL = "SELECT EXISTS (SELECT 1 FROM temp.sqlite_master WHERE name = 'scan_batch')"
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

    /// Stages one row, its ~100 values bound straight from `SQLValue`s with `sqlite3_bind_*`: building
    /// GRDB's `StatementArguments` (an array of DatabaseValues, validated against the statement, then bound
    /// one by one) cost ~7% of a full scan's CPU. GRDB still runs the statement (`execute()`, which resets
    /// it without clearing the bindings), so its transaction bookkeeping and error handling are unchanged.
    private static func stage(_ statement: Statement, id: Int64?, _ row: [SQLValue], dateAdded: Double, generation: Int64) throws {
        // `execute()` without arguments runs the bound values only once GRDB counts them as bound; the first
        // use of the cached statement binds placeholders through GRDB so that it does.
        if statement.arguments.isEmpty {
            statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: stagingColumns.count)))
        }
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)                         // binding needs a statement that is not mid-run
        var index: CInt = 1
        func bind(_ value: SQLValue) {
            bindValue(value, to: raw, at: index)
            index += 1
        }
        bind(id.sqlValue)
        bind(.real(dateAdded))
        bind(.integer(generation))
        for value in row { bind(value) }
        try statement.execute()
    }

    /// Binds as GRDB binds the same DatabaseValue (`SQLiteConnection.Executor.databaseValue`): text as a C
    /// string, bytes as a blob (through `Data` when empty, which GRDB binds as it does), lists as their JSON.
    private static func bindValue(_ value: SQLValue, to raw: OpaquePointer, at index: CInt) {
        switch value {
        case .null: sqlite3_bind_null(raw, index)
        case .integer(let i): sqlite3_bind_int64(raw, index, i)
        case .real(let d): sqlite3_bind_double(raw, index, d)
        case .text(let s): s.withCString { _ = sqlite3_bind_text(raw, index, $0, -1, transient) }
        case .bytes(let b) where !b.isEmpty:
            b.withUnsafeBytes { _ = sqlite3_bind_blob(raw, index, $0.baseAddress, CInt($0.count), transient) }
        default: _ = SQLiteConnection.Executor.databaseValue(value).bind(to: raw, at: index)
        }
    }

    /// SQLite copies the value before the bind returns (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

}
