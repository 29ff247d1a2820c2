import Foundation
import MediaModel

// The listening history (schema "v17" / "pg v14"), one text for both stores.
extension SQLStore: ListeningHistoryStore {
    public func recordListen(_ listen: Listen) throws {
        guard StoredBounds.contains(listen.date) else { throw invalid("a play's date must lie within the years 1–9999") }
        if let heard = listen.heard, !(heard.isFinite && heard >= 0) { throw invalid("the time heard must be 0 s or more, got \(heard)") }
        try write { x in
            // The counters first: an id that is no item changes nothing and writes no row. The owner's are the
            // item's own; another user's are their row of `user_item_data` (schema "v18").
            if let own = try Self.dataUser(listen.user, x, libraryName) {
                guard try x.row("SELECT 1 FROM items WHERE id = \(listen.itemID)") != nil else {
                    throw IndexError.itemNotFound(database: libraryName, id: listen.itemID)
                }
                try x.execute(Self.userCounterUpdate(listen.kind, user: own, id: listen.itemID, date: listen.date))
            } else if try x.execute(Self.counterUpdate(listen.kind, id: listen.itemID, date: listen.date)) == 0 {
                throw IndexError.itemNotFound(database: libraryName, id: listen.itemID)
            }
            try x.execute("""
                INSERT INTO history (item_id, kind, played_at, heard, front, user_name)
                VALUES (\(listen.itemID), \(listen.kind.rawValue), \(listen.date), \(listen.heard), \(listen.front.rawValue), \(listen.user))
                """)
        }
    }

    public func history(_ query: HistoryQuery) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        try forEachHistoryEntry(query) { entries.append($0) }
        return entries
    }

    public func forEachHistoryEntry(_ query: HistoryQuery, _ body: (HistoryEntry) throws -> Void) throws {
        var conditions: [SQLStatement] = []
        if let since = query.since { conditions.append("h.played_at >= \(since)") }
        if let whose = Self.userCondition(query.user, table: "h") { conditions.append(whose) }
        if let kind = query.kind { conditions.append("h.kind = \(kind.rawValue)") }
        var sql: SQLStatement = """
            SELECT h.id, h.item_id, h.kind, h.played_at, h.heard, h.front, h.user_name, i."title", i."artist", i."albumTitle", i.path
            FROM history h LEFT JOIN items i ON i.id = h.item_id
            """
        if !conditions.isEmpty { sql += " WHERE " + SQLStatement.joined(conditions, separator: " AND ") }
        sql += " ORDER BY h.played_at DESC, h.id DESC"
        if let limit = query.limit { sql += " LIMIT \(Int64(max(0, limit)))" }
        try read { x in
            try x.forEachRow(sql) { row in
                let listen = Listen(itemID: row.int64(1) ?? 0, kind: Listen.Kind(rawValue: row.text(2) ?? "") ?? .play,
                                    date: row.date(3) ?? Date(timeIntervalSince1970: 0), heard: row.double(4),
                                    front: Listen.Front(rawValue: row.text(5) ?? ""), user: row.text(6))
                try body(HistoryEntry(id: row.int64(0) ?? 0, listen: listen, title: row.text(7), artist: row.text(8),
                                      albumTitle: row.text(9), path: row.path(10)))
            }
        }
    }

    public func listenedAlongside(_ itemIDs: [Int64], user: HistoryQuery.UserFilter, window: TimeInterval) throws -> [Int64: CoListening] {
        guard !itemIDs.isEmpty, window.isFinite, window >= 0 else { return [:] }
        let seeds = SQLStatement(raw: Set(itemIDs).sorted().map(String.init).joined(separator: ", "))
        let mine = Self.userCondition(user, table: "s") ?? "1 = 1"
        // The same listener: both rows of one named user, or both of the owner's CLI and MPD plays (no name).
        let sql: SQLStatement = """
            SELECT o.item_id, COUNT(DISTINCT CASE WHEN \(mine) THEN s.id END), COUNT(DISTINCT CASE WHEN \(mine) THEN NULL ELSE s.id END)
            FROM history s JOIN history o
              ON o.played_at BETWEEN s.played_at - \(window) AND s.played_at + \(window)
             AND o.kind = 'play' AND o.item_id NOT IN (\(seeds))
             AND (o.user_name = s.user_name OR (o.user_name IS NULL AND s.user_name IS NULL))
            WHERE s.id IN (SELECT id FROM history WHERE item_id IN (\(seeds)) AND kind = 'play' ORDER BY played_at DESC LIMIT 500)
            GROUP BY o.item_id
            """
        var found: [Int64: CoListening] = [:]
        try read { x in
            try x.forEachRow(sql) { row in
                guard let id = row.int64(0) else { return }
                found[id] = CoListening(mine: Int(row.int64(1) ?? 0), others: Int(row.int64(2) ?? 0))
            }
        }
        return found
    }

    /// Whose rows of `history` (aliased `table`) a filter selects; nil for everyone's.
    static func userCondition(_ filter: HistoryQuery.UserFilter, table: String) -> SQLStatement? {
        switch filter {
        case .everyone: nil
        case .owner: "\(raw: table).user_name IS NULL"
        case .ownerAccount(let name): "(\(raw: table).user_name IS NULL OR \(raw: table).user_name = \(name))"
        case .named(let name): "\(raw: table).user_name = \(name)"
        }
    }

    public func historyCount() throws -> Int {
        try read { x in try x.value("SELECT COUNT(*) FROM history").integer.map(Int.init) ?? 0 }
    }

    /// What one play or skip does to the item's counters (`recordPlay`, `recordSkip` and `recordListen`).
    static func counterUpdate(_ kind: Listen.Kind, id: Int64, date: Date) -> SQLStatement {
        switch kind {
        case .play: #"UPDATE items SET "playCount" = COALESCE("playCount", 0) + 1, "lastPlayedDate" = \#(date) WHERE id = \#(id)"#
        case .skip: #"UPDATE items SET "skipCount" = COALESCE("skipCount", 0) + 1 WHERE id = \#(id)"#
        }
    }
}
