import Foundation
import MediaModel

// Bookmarks (schema "v20" / "pg v17"), one text for both stores: one position per user and item. The owner's
// are stored under user '' (an owner account's name resolves to it, as its other values do: `dataUser`).
extension SQLStore: BookmarkStore {
    public func bookmarks(user: String?) throws -> [Bookmark] {
        try read { x in
            let own = try Self.dataUser(user, x, libraryName)
            return try x.rows("""
                SELECT b.item_id, b.position_ms, b.comment, b.created, b.changed FROM bookmarks b
                JOIN items ON items.id = b.item_id AND items.missing_gen IS NULL
                WHERE b.user_name = \(own ?? "") ORDER BY b.changed DESC, b.item_id
                """).map { Self.bookmark($0, user: own) }
        }
    }

    public func bookmark(ofItem id: Int64, user: String?) throws -> Bookmark? {
        try read { x in
            let own = try Self.dataUser(user, x, libraryName)
            return try x.row("""
                SELECT item_id, position_ms, comment, created, changed FROM bookmarks WHERE user_name = \(own ?? "") AND item_id = \(id)
                """).map { Self.bookmark($0, user: own) }
        }
    }

    public func setBookmark(ofItem id: Int64, user: String?, positionMs: Int64, comment: String?) throws {
        guard positionMs >= 0 else { throw invalid("a bookmark's position cannot be negative (\(positionMs) ms)") }
        let now = Date()
        try write { x in
            let own = try Self.dataUser(user, x, libraryName)
            let written = try x.execute("""
                INSERT INTO bookmarks (user_name, item_id, position_ms, comment, created, changed)
                SELECT \(own ?? ""), id, \(positionMs), \(comment), \(now), \(now) FROM items WHERE id = \(id)
                ON CONFLICT (user_name, item_id) DO UPDATE SET position_ms = excluded.position_ms, comment = excluded.comment,
                    changed = excluded.changed
                """)
            if written == 0 { throw invalid("no item with id \(id)") }
        }
    }

    @discardableResult
    public func deleteBookmark(ofItem id: Int64, user: String?) throws -> Bool {
        try write { x in
            let own = try Self.dataUser(user, x, libraryName)
            return try x.execute("DELETE FROM bookmarks WHERE user_name = \(own ?? "") AND item_id = \(id)") > 0
        }
    }

    private static func bookmark(_ row: SQLRow, user: String?) -> Bookmark {
        Bookmark(itemID: row.int64(0) ?? 0, user: user, positionMs: row.int64(1) ?? 0, comment: row.text(2),
                 created: row.double(3) ?? 0, changed: row.double(4) ?? 0)
    }
}
