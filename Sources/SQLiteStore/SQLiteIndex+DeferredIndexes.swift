#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import MediaIndex

// A first scan's secondary indexes built once at its end (issue 50). Kept row by row, every 500-row commit
// rewrites the index pages it touched, so the writer's cost per row grows with the library: writer-bench
// measured 73 µs/row at 100,000 rows against 42 with the indexes and the full-text index built after
// (20 with none), and no gain at 10,000. Crash-safe: what is dropped is recorded in `scan_state`, in the
// transaction that drops it, and put back by the scan's end, the next scan, or the next writable open
// when no scan holds the library's lock (a scan killed midway).
extension SQLiteIndex {
    /// The key prefix of a dropped index's or trigger's record in `scan_state`; its value is the object's
    /// SQL as `sqlite_master` stored it, so that putting it back leaves the schema byte-identical.
    static let deferredKeyPrefix = "deferred:"

    /// Drops the secondary indexes on `items` and the full-text index's triggers, recording each in the
    /// same transaction. Kept: the unique path index (a first scan's upsert needs it) and `items_dir` (the
    /// scan reads each directory's state by it). Returns whether anything was dropped.
    public func deferIndexes() throws -> Bool {
        try write { db in
            let objects = try Row.fetchAll(db, sql: """
                SELECT type, name, sql FROM sqlite_master
                WHERE tbl_name = 'items' AND sql IS NOT NULL AND (
                    (type = 'index' AND name <> 'items_dir' AND sql NOT LIKE 'CREATE UNIQUE%')
                    OR (type = 'trigger' AND name LIKE 'items\\_fts\\_%' ESCAPE '\\'))
                ORDER BY type, name
                """)
            for object in objects {
                let type: String = object["type"], name: String = object["name"], sql: String = object["sql"]
                try db.execute(sql: "INSERT INTO scan_state (key, value) VALUES (?, ?)", arguments: [Self.deferredKeyPrefix + name, sql])
                try db.execute(sql: "DROP \(type == "index" ? "INDEX" : "TRIGGER") \(ItemRow.quoted(name))")
            }
            return !objects.isEmpty
        }
    }

    /// Puts back what `deferIndexes` dropped, in one transaction: each index from its recorded SQL and, if
    /// the triggers were dropped, the full-text index filled again from every item before they come back.
    /// Does nothing (and writes nothing) when nothing is recorded.
    public func restoreDeferredIndexes() throws {
        guard try hasDeferredIndexes() else { return }
        try write { db in
            let records = try Row.fetchAll(db, sql: "SELECT substr(key, ?), value FROM scan_state WHERE key LIKE ? ESCAPE '\\'",
                                           arguments: [Self.deferredKeyPrefix.count + 1, Self.deferredKeyLike])
            let existing = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master"))
            var triggers: [String] = []
            for record in records {
                let name: String = record[0], sql: String = record[1]
                if sql.hasPrefix("CREATE TRIGGER") { triggers.append(sql); continue }
                if !existing.contains(name) { try db.execute(sql: sql) }
            }
            if !triggers.isEmpty {
                // Rows written while the triggers were gone are missing from it, and rows written before
                // are in it: emptied and filled from every row, it holds each once.
                try db.execute(sql: "INSERT INTO items_fts(items_fts) VALUES ('delete-all')")
                try Schema.fillFullTextSearch(db)
                for record in records where triggers.contains(record[1]) && !existing.contains(record[0] as String) {
                    try db.execute(sql: record[1])
                }
            }
            try db.execute(sql: "DELETE FROM scan_state WHERE key LIKE ? ESCAPE '\\'", arguments: [Self.deferredKeyLike])
        }
    }

    /// Whether a scan's deferred indexes are recorded as dropped (one read).
    func hasDeferredIndexes() throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM scan_state WHERE key LIKE ? ESCAPE '\\')", arguments: [Self.deferredKeyLike]) ?? false
        }
    }

    private static var deferredKeyLike: String { deferredKeyPrefix + "%" }

    /// At a writable open: indexes a killed scan left dropped are put back, unless a scan holds the
    /// library's lock (`<library>.lock`, MediaScanner's `ScanLock`: it is still running and puts them back
    /// itself). The lock is held meanwhile, so no scan starts halfway through.
    func restoreIndexesOfAKilledScan() throws {
        guard path != ":memory:", try hasDeferredIndexes() else { return }
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }              // no lock to take: the next scan puts them back
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return }
        defer { flock(fd, LOCK_UN) }
        try restoreDeferredIndexes()
    }
}
