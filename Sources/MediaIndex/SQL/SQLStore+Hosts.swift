import Foundation
import MediaModel

// The hosts of a shared library (PostgreSQL; an SQLite library has one host, and every answer here is the
// single-host one): which of some items live on another host, and a store's reads limited to this host's
// items for a server that can only play files it can reach.
extension SQLStore {
    /// Of the items `ids`, those that are another host's files, each with that host's name (its id where an
    /// mlib before host ids wrote it). Empty on SQLite.
    public func itemsOfOtherHosts(ids: [Int64]) throws -> [Int64: String] {
        guard let host, !ids.isEmpty else { return [:] }
        let rows = try read { x in
            try x.rows("""
                SELECT i.id, COALESCE(h.name, i.host) FROM items i LEFT JOIN hosts h ON h.id = i.host
                WHERE \(syntax.isIn("i.id", .integers(ids))) AND i.host <> \(host)
                """)
        }
        return Dictionary(rows.compactMap { row in row.int64(0).map { ($0, row.text(1) ?? "") } }, uniquingKeysWith: { a, _ in a })
    }

    /// This host's name (nil on SQLite, which has one host).
    public var thisHostName: String? { hostName }

    /// Whether reads (queries, look-ups by id or path, the view's change feed) see only this host's items:
    /// what a server sets, so that it never lists a song it cannot play nor two songs under one path. Off
    /// by default (the CLI lists the whole library); no effect on SQLite.
    public var readsThisHostOnly: Bool {
        get { thisHostOnly.withLock { $0 } }
        set { thisHostOnly.withLock { $0 = newValue } }
    }

    /// `AND items.host = <this host>` while `readsThisHostOnly`, else nothing.
    package var hostScope: SQLStatement {
        guard host != nil, readsThisHostOnly else { return "" }
        return " AND " + mine("items.host")
    }
}
