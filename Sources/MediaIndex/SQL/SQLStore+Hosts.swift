import Foundation
import MediaModel

// The hosts of a shared library (PostgreSQL; an SQLite library has one host, and every answer here is the
// single-host one): which of some items live on another host, and a store's reads limited to this host's
// items for a server that can only play files it can reach.
extension SQLStore {
    /// Of the items `ids`, those that are another host's files, each with that host's name (its id where an
    /// mlib before host ids wrote it). The items of a share this host joined are its files too, at its mount
    /// point (`SharedRoot`). Empty on SQLite.
    public func itemsOfOtherHosts(ids: [Int64]) throws -> [Int64: String] {
        guard let host else { return [:] }
        return try hostLabels(ids: ids, where: """
             AND i.host <> \(host) AND i.host NOT IN (SELECT \(SharedRoot.prefix) || name FROM shares WHERE host = \(host))
            """)
    }

    /// Whose files the items `ids` are, as listings name them: the host's name (its id where an mlib before
    /// host ids wrote it), or `share:NAME` for a share's items. Empty on SQLite.
    public func hostLabels(ids: [Int64]) throws -> [Int64: String] {
        try hostLabels(ids: ids, where: "")
    }

    private func hostLabels(ids: [Int64], where condition: SQLStatement) throws -> [Int64: String] {
        guard host != nil, !ids.isEmpty else { return [:] }
        let rows = try read { x in
            try x.rows("""
                SELECT i.id, COALESCE(h.name, i.host) FROM items i LEFT JOIN hosts h ON h.id = i.host
                WHERE \(syntax.isIn("i.id", .integers(ids)))
                """ + condition)
        }
        return Dictionary(rows.compactMap { row in row.int64(0).map { ($0, row.text(1) ?? "") } }, uniquingKeysWith: { a, _ in a })
    }

    /// The host labels (`hostLabels(ids:)`) of the items `query` selects when they are the files of more
    /// than one host (or share), else nil: a listing then says whose each item is. On a library whose items
    /// are all one host's (every SQLite library) one short statement, and nil.
    public func hostLabels(ifSeveral query: MediaQuery) throws -> [Int64: String]? {
        guard host != nil else { return nil }
        let several = try read { x in
            try x.value("SELECT EXISTS (SELECT 1 FROM items WHERE host <> (SELECT host FROM items LIMIT 1))").integer == 1
        }
        guard several else { return nil }
        let labels = try hostLabels(ids: try itemIDs(query))
        return Set(labels.values).count > 1 ? labels : nil
    }

    /// This host's name (nil on SQLite, which has one host).
    public var thisHostName: String? { hostName }

    /// Whether reads (queries, look-ups by id or path, the view's change feed) see only this host's items
    /// (and those of the shares mounted here, `readShares`):
    /// what a server sets, so that it never lists a song it cannot play nor two songs under one path. Off
    /// by default (the CLI lists the whole library); no effect on SQLite.
    public var readsThisHostOnly: Bool {
        get { thisHostOnly.withLock { $0 } }
        set { thisHostOnly.withLock { $0 = newValue } }
    }

    /// `AND items.host = <this host>` while `readsThisHostOnly` (or one of the shares mounted here,
    /// `readShares`), else nothing.
    package var hostScope: SQLStatement {
        guard host != nil, readsThisHostOnly else { return "" }
        let shares = readableShares.withLock { $0 }
        guard !shares.isEmpty else { return " AND " + mine("items.host") }
        return " AND (" + mine("items.host") + " OR " + syntax.isIn("items.host", .texts(shares)) + ")"
    }

    /// `predicate` without its `host:` terms, and the SQL they make (`AND …`, "" when none): the store, not
    /// the dialect's compiler, answers them, since it knows this host and its shares. A host term is ANDed
    /// with the rest of the query (`^host:` negated); inside OR it is refused with a message. On SQLite (one
    /// host) `this` and this machine's host name match every item, any other name none.
    package func resolvingHosts(_ predicate: MediaModel.Predicate) throws -> (MediaModel.Predicate, SQLStatement) {
        var terms: [(name: String, negated: Bool)] = []
        func take(_ p: MediaModel.Predicate) -> MediaModel.Predicate? {
            switch p {
            case .host(let name): terms.append((name, false)); return nil
            case .not(.host(let name)): terms.append((name, true)); return nil
            default: return p
            }
        }
        var rest: MediaModel.Predicate
        if case .and(let parts) = predicate {
            let kept = parts.compactMap(take)
            rest = kept.count == parts.count ? predicate : (kept.isEmpty ? .all : .and(kept))
        } else {
            rest = take(predicate) ?? .all
        }
        if Self.containsHost(rest) {
            throw QueryError("host: filters the whole query (ANDed with it, ^host: negated); it cannot stand inside OR or a negated group")
        }
        var condition: SQLStatement = ""
        for term in terms {
            let matches = try hostCondition(term.name)
            condition += term.negated ? " AND NOT COALESCE((\(matches)), FALSE)" : " AND (\(matches))"
        }
        return (rest, condition)
    }

    /// SQL true for the items of the host(s) `name` names.
    private func hostCondition(_ name: String) throws -> SQLStatement {
        guard let host else {
            let here = HostName.current?.lowercased() ?? ""
            let wanted = name.lowercased()
            return wanted == "this" || (!here.isEmpty && (wanted == here || here.hasPrefix(wanted + "."))) ? "TRUE" : "FALSE"
        }
        if name.lowercased() == "this" {
            return "items.host = \(host) OR items.host IN (SELECT \(SharedRoot.prefix) || name FROM shares WHERE host = \(host))"
        }
        // By name (any case), by a prefix of the id long enough not to be a slip, or a share by its name.
        let byPrefix: SQLStatement = name.count >= 4 ? " OR starts_with(id, \(name))" : ""
        return """
            items.host IN (SELECT id FROM hosts WHERE lower(name) = lower(\(name))\(byPrefix)) OR items.host = \(SharedRoot.hostID(name))
            """
    }

    private static func containsHost(_ p: MediaModel.Predicate) -> Bool {
        switch p {
        case .host: true
        case .not(let inner): containsHost(inner)
        case .and(let ps), .or(let ps): ps.contains(where: containsHost)
        case .all, .none, .comparison, .search, .history: false
        }
    }
}
