import Foundation
import GRDB

// User data: kept by the library, never written by a rescan, carried along by moves (the row id stays).
extension SQLiteIndex {
    public func recordPlay(id: Int64, at date: Date = Date()) throws {
        try updateItem(id, sql: "UPDATE items SET playCount = COALESCE(playCount, 0) + 1, lastPlayedDate = ? WHERE id = ?",
                       arguments: [date.timeIntervalSince1970, id])
    }

    public func recordSkip(id: Int64) throws {
        try updateItem(id, sql: "UPDATE items SET skipCount = COALESCE(skipCount, 0) + 1 WHERE id = ?", arguments: [id])
    }

    /// Rating 0–5 (as MPMediaItem's), or nil to clear it.
    public func setRating(id: Int64, _ rating: Int?) throws {
        if let rating, !(0...5).contains(rating) {
            throw IndexError.invalidArgument(database: path, reason: "rating must be 0–5, got \(rating)")
        }
        try updateItem(id, sql: "UPDATE items SET rating = ? WHERE id = ?", arguments: [rating, id])
    }

    private func updateItem(_ id: Int64, sql: String, arguments: StatementArguments) throws {
        let changed = try write { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
        if changed == 0 { throw IndexError.itemNotFound(database: path, id: id) }
    }
}
