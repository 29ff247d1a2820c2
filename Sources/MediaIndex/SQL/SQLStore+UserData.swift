import Foundation
import MediaModel

// User data: kept by the library, never written by a rescan, carried along by moves (the row id stays).
extension SQLStore {
    public func recordPlay(id: Int64, at date: Date = Date()) throws {
        guard StoredBounds.contains(date) else { throw invalid("a play's date must lie within the years 1–9999") }
        try updateItem(id, Self.counterUpdate(.play, id: id, date: date))
    }

    public func recordSkip(id: Int64) throws {
        try updateItem(id, Self.counterUpdate(.skip, id: id, date: Date()))
    }

    /// Rating 0–5 (as MPMediaItem's), or nil to clear it.
    public func setRating(id: Int64, _ rating: Int?) throws {
        if let rating, !(0...5).contains(rating) { throw invalid("rating must be 0–5, got \(rating)") }
        try updateItem(id, "UPDATE items SET rating = \(rating) WHERE id = \(id)")
    }

    /// Sets one user-data property of the items `ids` in one transaction; returns how many items changed.
    /// Throws `IndexError.invalidArgument` for a property or value outside `UserDataEdits`' rules.
    @discardableResult
    public func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64]) throws -> Int {
        if let bad = UserDataEdits.problem(property, value) { throw invalid(bad) }
        let column = ItemRow.quoted(ItemRow.column(property))
        return try write { x in
            if property == .lastPlayedDate, let value {
                // Stored as recordPlay stores it: a date, whatever each store's column makes of one.
                let date = Date(timeIntervalSince1970: Double(value))
                return try x.execute("UPDATE items SET \(raw: column) = \(date) WHERE \(syntax.isIn("id", .integers(ids)))")
            }
            return try x.execute("UPDATE items SET \(raw: column) = \(UserDataEdits.stored(property, value)) WHERE \(syntax.isIn("id", .integers(ids)))")
        }
    }

    private func updateItem(_ id: Int64, _ sql: SQLStatement) throws {
        if try write({ x in try x.execute(sql) }) == 0 { throw IndexError.itemNotFound(database: libraryName, id: id) }
    }
}
