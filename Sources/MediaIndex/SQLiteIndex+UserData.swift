import Foundation
import GRDB
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

    /// The user data `setUserData` edits: rating (0–5, nil clears it), play and skip counts (nil is 0),
    /// and the last played date (only cleared, with nil).
    public static let editableUserData: [MediaProperty] = [.rating, .playCount, .skipCount, .lastPlayedDate]

    /// Sets one user-data property of the items `ids` in one transaction; returns how many items changed.
    /// Throws `IndexError.invalidArgument` for a property or value outside `editableUserData`'s rules.
    @discardableResult
    public func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64]) throws -> Int {
        let bad: String? = switch property {
        case .rating: value.map { (0...5).contains($0) } == false ? "rating must be 0–5, got \(value!)" : nil
        case .playCount, .skipCount: (value ?? 0) < 0 ? "\(property.rawValue) cannot be negative" : nil
        case .lastPlayedDate: value != nil ? "lastPlayedDate can only be cleared" : nil
        default: "\(property.rawValue) is not user data (editable: rating, playCount, skipCount, lastPlayedDate)"
        }
        if let bad { throw IndexError.invalidArgument(database: path, reason: bad) }
        let stored: Int64? = property == .playCount || property == .skipCount ? (value ?? 0) : value
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
