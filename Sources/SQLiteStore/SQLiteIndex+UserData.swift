import Foundation
import GRDB
import MediaIndex
import MediaModel

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

    /// Sets one user-data property of the items `ids` in one transaction; returns how many items changed.
    /// Throws `IndexError.invalidArgument` for a property or value outside `UserDataEdits`' rules.
    @discardableResult
    public func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64]) throws -> Int {
        if let bad = UserDataEdits.problem(property, value) { throw IndexError.invalidArgument(database: path, reason: bad) }
        let stored = UserDataEdits.stored(property, value)
        let column = ItemRow.quoted(ItemRow.column(property))
        return try write { db in
            var changed = 0
            let statement = try db.cachedStatement(sql: "UPDATE items SET \(column) = ? WHERE id = ?")
            for id in ids {
                try statement.execute(arguments: [stored, id])
                changed += db.changesCount
            }
            return changed
        }
    }

    private func updateItem(_ id: Int64, sql: String, arguments: StatementArguments) throws {
        let changed = try write { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
        if changed == 0 { throw IndexError.itemNotFound(database: path, id: id) }
    }
}
