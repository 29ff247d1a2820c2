import Foundation
import MediaModel

// Per-user values (schema "v18" / "pg v15"), one text for both stores.
extension SQLStore: UserItemDataStore {
    public func dataUser(_ user: String?) throws -> String? {
        try read { x in try Self.dataUser(user, x, libraryName) }
    }

    /// `dataUser(_:)` inside a transaction (a listen resolves its user where it writes).
    static func dataUser(_ user: String?, _ x: any SQLExecutor, _ libraryName: String) throws -> String? {
        guard let user else { return nil }
        guard let row = try x.row("SELECT is_owner FROM users WHERE name = \(user)") else {
            throw IndexError.invalidArgument(database: libraryName, reason: "no user named \"\(user)\" (mlib user list shows the users)")
        }
        return row.bool(0) == true ? nil : user
    }

    public func userValues(of user: String, ids: [Int64]?) throws -> [Int64: UserItemValues] {
        var sql: SQLStatement = "SELECT item_id, rating, play_count, skip_count, last_played FROM user_item_data WHERE user_name = \(user)"
        if let ids { sql += " AND \(syntax.isIn("item_id", .integers(ids)))" }
        return try read { x in
            var values: [Int64: UserItemValues] = [:]
            try x.forEachRow(sql) { row in
                guard let id = row.int64(0) else { return }
                values[id] = UserItemValues(rating: row.int64(1).map(Int.init), playCount: Int(row.int64(2) ?? 0),
                                            skipCount: Int(row.int64(3) ?? 0), lastPlayed: row.date(4))
            }
            return values
        }
    }

    @discardableResult
    public func setUserData(_ property: MediaProperty, to value: Int64?, ids: [Int64], user: String?) throws -> Int {
        if let bad = UserDataEdits.problem(property, value) { throw invalid(bad) }
        return try write { x in
            guard let own = try Self.dataUser(user, x, libraryName) else { return try Self.setItemUserData(property, value, ids, x, syntax) }
            let column = Self.userDataColumn(property)
            let stored: SQLValue = property == .lastPlayedDate
                ? value.map { Date(timeIntervalSince1970: Double($0)) }.sqlValue : UserDataEdits.stored(property, value).sqlValue
            return try x.execute("""
                INSERT INTO user_item_data (user_name, item_id, \(raw: column))
                SELECT \(own), id, \(stored) FROM items WHERE \(syntax.isIn("id", .integers(ids)))
                ON CONFLICT (user_name, item_id) DO UPDATE SET \(raw: column) = excluded.\(raw: column)
                """)
        }
    }

    /// The owner's values: the items' own columns.
    static func setItemUserData(_ property: MediaProperty, _ value: Int64?, _ ids: [Int64], _ x: any SQLExecutor, _ syntax: any SQLSyntax) throws -> Int {
        let column = ItemRow.quoted(ItemRow.column(property))
        if property == .lastPlayedDate, let value {
            // Stored as recordPlay stores it: a date, whatever each store's column makes of one.
            let date = Date(timeIntervalSince1970: Double(value))
            return try x.execute("UPDATE items SET \(raw: column) = \(date) WHERE \(syntax.isIn("id", .integers(ids)))")
        }
        return try x.execute("UPDATE items SET \(raw: column) = \(UserDataEdits.stored(property, value)) WHERE \(syntax.isIn("id", .integers(ids)))")
    }

    /// `user_item_data`'s column for one of `UserDataEdits.editable`.
    static func userDataColumn(_ property: MediaProperty) -> String {
        switch property {
        case .rating: "rating"
        case .playCount: "play_count"
        case .skipCount: "skip_count"
        default: "last_played"
        }
    }

    /// What one play or skip of a user who is not the owner writes (the owner's: `counterUpdate`).
    static func userCounterUpdate(_ kind: Listen.Kind, user: String, id: Int64, date: Date) -> SQLStatement {
        switch kind {
        case .play: """
            INSERT INTO user_item_data (user_name, item_id, play_count, last_played) VALUES (\(user), \(id), 1, \(date))
            ON CONFLICT (user_name, item_id) DO UPDATE SET play_count = user_item_data.play_count + 1, last_played = excluded.last_played
            """
        case .skip: """
            INSERT INTO user_item_data (user_name, item_id, skip_count) VALUES (\(user), \(id), 1)
            ON CONFLICT (user_name, item_id) DO UPDATE SET skip_count = user_item_data.skip_count + 1
            """
        }
    }

    /// Carries the per-user values of the item row `row` over to `item` (a move folded into the item it
    /// was, `fold`), summed as the item's own are; before `row` goes (its rows go with it).
    static func foldUserValues(from row: Int64, into item: Int64, _ x: any SQLExecutor) throws {
        try x.execute("""
            INSERT INTO user_item_data (user_name, item_id, rating, play_count, skip_count, last_played)
            SELECT user_name, \(item), rating, play_count, skip_count, last_played FROM user_item_data WHERE item_id = \(row)
            ON CONFLICT (user_name, item_id) DO UPDATE SET
                play_count = user_item_data.play_count + excluded.play_count,
                skip_count = user_item_data.skip_count + excluded.skip_count,
                last_played = CASE WHEN COALESCE(user_item_data.last_played, 0) >= COALESCE(excluded.last_played, 0)
                    THEN user_item_data.last_played ELSE excluded.last_played END,
                rating = COALESCE(user_item_data.rating, excluded.rating)
            """)
    }
}
