import MediaModel

// The item change log (`ItemChangeLog`): `item_changes(item_id, token)` holds, per item ever written, the
// token of its last write, kept by triggers on `items` (SQLite "v11", PostgreSQL "pg v6"). A reader asks
// for the rows whose token is at least the one it holds; the token it takes away is the dialect's
// `SQLSyntax.nextChangeToken`, read in the same snapshot as the rows. The records of removed items are
// trimmed (`trimItemChanges`); the highest token trimmed is kept in `scan_state`, and a reader older
// than it gets nil (read everything again).
extension SQLStore {
    package static let trimmedChangesKey = "item_changes_trimmed"

    public func changeToken() throws -> Int64 {
        try read { x in try x.value("SELECT \(raw: syntax.nextChangeToken)").integer ?? 0 }
    }

    public func itemChanges(since token: Int64) throws -> ItemChanges? {
        try read { x in
            let trimmed = try x.value("SELECT value FROM scan_state WHERE key = \(Self.trimmedChangesKey)").integer
            if let trimmed, token <= trimmed { return nil }
            let next = try x.value("SELECT \(raw: syntax.nextChangeToken)").integer ?? 0
            var ids: [Int64] = [], tokens: [Int64] = []
            try x.forEachRow("SELECT item_id, token FROM item_changes WHERE token >= \(token)") { row in
                if let id = row.int64(0), let written = row.int64(1) {
                    ids.append(id)
                    tokens.append(written)
                }
            }
            return ItemChanges(ids: ids, tokens: tokens, token: next)
        }
    }

    public func trimItemChanges(keepingRemoved keep: Int) throws {
        let removed: SQLStatement = "NOT EXISTS (SELECT 1 FROM items i WHERE i.id = c.item_id)"
        try write { x in
            // The newest record of a removed item past the `keep` newest: it and every older one go.
            guard let newestDropped = try x.value("""
                SELECT c.token FROM item_changes c WHERE \(removed) ORDER BY c.token DESC LIMIT 1 OFFSET \(keep)
                """).integer else { return }
            // Never the highest record: on SQLite the next token is counted from it.
            try x.execute("""
                DELETE FROM item_changes AS c WHERE c.token <= \(newestDropped) AND \(removed)
                    AND c.token < (SELECT max(token) FROM item_changes)
                """)
            try x.execute("""
                INSERT INTO scan_state (key, value) VALUES (\(Self.trimmedChangesKey), \(newestDropped))
                ON CONFLICT (key) DO UPDATE SET value = CASE WHEN scan_state.value > excluded.value THEN scan_state.value ELSE excluded.value END
                """)
        }
    }
}
