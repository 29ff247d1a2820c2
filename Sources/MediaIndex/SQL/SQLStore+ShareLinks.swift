import Foundation

// Shares (public links; schema "v23" / "pg v20"), one text for both stores. A share's items are rows of
// `share_link_items` by item id: they follow the item through a move (`fold`) and go with it.
extension SQLStore: ShareLinkStore {
    public func shareLinks(owner: String?) throws -> [ShareLink] {
        try read { x in
            var filter: SQLStatement = ""
            if let owner { filter = " WHERE user_name = \(owner)" }
            let shares = try x.rows(Self.shareSelect + filter + " ORDER BY created DESC, id")
            return try shares.map { try Self.share($0, x) }
        }
    }

    public func shareLink(id: String) throws -> ShareLink? {
        try read { x in try x.row(Self.shareSelect + " WHERE id = \(id)").map { try Self.share($0, x) } }
    }

    public func addShareLink(_ share: ShareLink) throws {
        try write { x in
            if try x.row("SELECT 1 FROM share_links WHERE id = \(share.id)") != nil { throw invalid("a share \(share.id) exists") }
            if try x.row("SELECT 1 FROM users WHERE name = \(share.owner)") == nil { throw invalid("no user named \"\(share.owner)\"") }
            try x.execute("""
                INSERT INTO share_links (id, user_name, description, created, expires, last_visited, visit_count)
                VALUES (\(share.id), \(share.owner), \(share.description), \(share.created), \(share.expires), \(share.lastVisited), \(share.visitCount))
                """)
            for (ordinal, item) in share.itemIDs.enumerated() {
                let written = try x.execute("""
                    INSERT INTO share_link_items (share_id, ordinal, item_id) SELECT \(share.id), \(ordinal), id FROM items WHERE id = \(item)
                    """)
                if written == 0 { throw invalid("no item with id \(item)") }
            }
        }
    }

    @discardableResult
    public func updateShareLink(id: String, description: String?, expires: Date?) throws -> Bool {
        try write { x in
            try x.execute("UPDATE share_links SET description = \(description), expires = \(expires) WHERE id = \(id)") > 0
        }
    }

    public func recordShareVisit(id: String, at date: Date) throws {
        try write { x in
            _ = try x.execute("UPDATE share_links SET visit_count = visit_count + 1, last_visited = \(date) WHERE id = \(id)")
        }
    }

    @discardableResult
    public func removeShareLink(id: String) throws -> Bool {
        try write { x in
            try x.execute("DELETE FROM share_link_items WHERE share_id = \(id)")
            return try x.execute("DELETE FROM share_links WHERE id = \(id)") > 0
        }
    }

    private static let shareSelect: SQLStatement =
        "SELECT id, user_name, description, created, expires, last_visited, visit_count FROM share_links"

    private static func share(_ row: SQLRow, _ x: any SQLExecutor) throws -> ShareLink {
        let id = row.text(0) ?? ""
        // Items that left the library (or hidden: missing) are not offered.
        let items = try x.rows("""
            SELECT s.item_id FROM share_link_items s JOIN items ON items.id = s.item_id AND items.missing_gen IS NULL
            WHERE s.share_id = \(id) ORDER BY s.ordinal
            """).compactMap { $0.int64(0) }
        return ShareLink(id: id, owner: row.text(1) ?? "", description: row.text(2), created: row.date(3) ?? Date(timeIntervalSince1970: 0),
                         expires: row.date(4), lastVisited: row.date(5), visitCount: row.int(6) ?? 0, itemIDs: items)
    }
}
