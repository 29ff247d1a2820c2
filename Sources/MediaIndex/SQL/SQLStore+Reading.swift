import Foundation
import MediaModel

// Reading: queries (filter, sort, paging, grouping) and look-ups, written once over the dialect's
// `QueryCompiling`. Where the SQL is the whole answer it streams; where the dialect leaves a residual or an
// order only Swift knows, the SQL selects a superset and the in-memory reference (`MediaQuery.apply(to:)`,
// `collections(from:)`) finishes it, so both stores give the same answers.
extension SQLStore {
    /// The compiled query: `FROM items WHERE …` (hidden items never selected), the residual, the order.
    func compile(_ query: MediaQuery) throws -> (matching: SQLStatement, residual: MediaModel.Predicate?, order: String?) {
        // Counted before normalizing: a query too large to run is refused at once.
        let terms = Self.terms(query.filter)
        if terms > Self.maximumQueryTerms {
            throw QueryError("the query is too large: it has \(terms) terms; mlib runs at most \(Self.maximumQueryTerms) in one query")
        }
        let (predicate, hosts) = try resolvingHosts(try query.filter.normalized())
        let filter = try compiler.filter(predicate)
        let matching: SQLStatement = "FROM items WHERE items.missing_gen IS NULL\(hostScope)\(hosts) AND (\(withLocalPaths(filter.condition)))"
        return (matching, filter.residual, compiler.orderBy(query.effectiveSort).map(withLocalPaths))
    }

    /// The comparisons and searches in a predicate (what makes its SQL large).
    private static func terms(_ p: MediaModel.Predicate) -> Int {
        switch p {
        case .all, .none: 0
        case .comparison, .search, .host, .history: 1
        case .not(let inner): terms(inner)
        case .and(let ps), .or(let ps): ps.reduce(0) { $0 + terms($1) }
        }
    }

    public func items(_ query: MediaQuery) throws -> [MediaItem] {
        var result: [MediaItem] = []
        try forEachItem(query) { result.append($0) }
        return result
    }

    /// Streams the matching items in order: in bounded memory however many match, when the SQL is the whole
    /// answer (rows come through a cursor on PostgreSQL). Errors thrown by `body` leave unchanged.
    public func forEachItem(_ query: MediaQuery, _ body: (MediaItem) throws -> Void) throws {
        let (matching, residual, order) = try compile(query)
        if residual == nil, let order {
            let select = compiler.orderedSelect(itemColumns, matching, order: order, limit: query.limit, offset: query.offset)
            try streamRows(select) { try body(ItemRow.item($0)) }
            return
        }
        let superset = try read { x in try x.rows("SELECT \(raw: itemColumns) \(matching)").map(ItemRow.item) }
        for item in try query.apply(to: superset) { try body(item) }
    }

    /// Streams `query`'s items holding only `properties` (and id and path): `LibraryReader`'s projection.
    /// With `rating` comes `tagRating` (an item's rating is the user's, else the file's); with `tags`, the
    /// tag map (its JSON column, decoded).
    public func forEachItem(_ query: MediaQuery, reading properties: [MediaProperty], tags: Bool, _ body: (MediaItem) throws -> Void) throws {
        let (matching, residual, order) = try compile(query)
        guard residual == nil, let order else { return try forEachItem(query, body) }
        var wanted = Set(properties)
        if wanted.contains(.rating) { wanted.insert(.tagRating) }
        let read = ItemRow.stored.filter(wanted.contains)
        let names = ["id", "path"] + (tags ? ["tags"] : []) + read.map(\.rawValue)
        let columns = localized(names.map { "items." + ItemRow.quoted($0) }.joined(separator: ", "))
        let select = compiler.orderedSelect(columns, matching, order: order, limit: query.limit, offset: query.offset)
        try streamRows(select) { try body(ItemRow.item($0.values, withTags: tags, properties: read)) }
    }

    /// Runs `body` on each row outside the connection's own error mapping: an error `body` throws leaves as
    /// it is (a broken pipe while printing is not a database error).
    private func streamRows(_ sql: SQLStatement, _ body: (SQLRow) throws -> Void) throws {
        var bodyError: (any Error)?
        try read { x in
            try x.forEachRow(sql) { row in
                guard bodyError == nil else { return }
                do { try body(row) } catch { bodyError = error }
            }
        }
        if let bodyError { throw bodyError }
    }

    public func count(_ query: MediaQuery) throws -> Int {
        let (matching, residual, order) = try compile(query)
        guard residual == nil else { return try items(query).count }
        if query.limit == nil && query.offset == 0 {
            return try read { x in try x.value("SELECT count(*) \(matching)").integer.map(Int.init) ?? 0 }
        }
        guard let order else { return try items(query).count }
        let page = compiler.orderedSelect("items.id", matching, order: order, limit: query.limit, offset: query.offset)
        return try read { x in try x.value("SELECT count(*) FROM (\(page)) AS paged").integer.map(Int.init) ?? 0 }
    }

    /// The ids `items(query)` returns, in the same order, read alone when the SQL is the whole answer.
    public func itemIDs(_ query: MediaQuery) throws -> [Int64] {
        let (matching, residual, order) = try compile(query)
        guard residual == nil, let order else { return try items(query).map(\.persistentID) }
        let select = compiler.orderedSelect("items.id", matching, order: order, limit: query.limit, offset: query.offset)
        return try read { x in try x.rows(select).compactMap { $0.int64(0) } }
    }

    public func item(id: Int64) throws -> MediaItem? {
        try read { x in
            try x.row("SELECT \(raw: itemColumns) FROM items WHERE id = \(id) AND missing_gen IS NULL\(hostScope)").map(ItemRow.item)
        }
    }

    /// The item at `path` (on a shared library, this host's file before another host's at the same path).
    public func item(path: MediaPath) throws -> MediaItem? {
        let preferMine: SQLStatement = host == nil ? "" : " ORDER BY CASE WHEN \(mine()) THEN 0 ELSE 1 END"
        // A share this host mounts elsewhere stores the file under the share's path (`SharedRoot.stored`).
        return try read { x in
            try x.row("SELECT \(raw: itemColumns) FROM items WHERE (\(atLocalPath(path))) AND missing_gen IS NULL\(hostScope)\(preferMine) LIMIT 1")
                .map(ItemRow.item)
        }
    }

    /// Items by id, in the order given (ids not in the library are left out).
    public func items(ids: [Int64]) throws -> [MediaItem] {
        guard !ids.isEmpty else { return [] }
        let rows = try read { x in
            try x.rows("SELECT \(raw: itemColumns) FROM items WHERE \(syntax.isIn("id", .integers(ids))) AND missing_gen IS NULL\(hostScope)")
        }
        let byID = Dictionary(rows.map(ItemRow.item).map { ($0.persistentID, $0) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { byID[$0] }
    }

    // MARK: Collections

    /// Items grouped by `query.grouping`: collections in key order (folded, missing last), items in the
    /// query's effective sort; `limit`/`offset` count collections. `.playlist` grouping yields the library's
    /// playlists, each filtered by the query.
    public func collections(_ query: MediaQuery) throws -> [MediaCollection] {
        if query.grouping == .playlist { return try playlistCollections(query) }
        var all = query
        all.limit = nil
        all.offset = 0
        let (matching, residual, order) = try compile(all)
        guard residual == nil, let order, let keys = compiler.groupKeys(query.grouping) else {
            return try query.collections(from: try items(all))
        }
        let (from, keyColumns) = groupedRows(query.grouping, keys)
        let keyOrder = keyColumns.flatMap { ["(\($0)) IS NULL", $0] }.joined(separator: ", ")
        let sql: SQLStatement = """
            SELECT \(raw: itemColumns), \(raw: keyColumns.joined(separator: ", ")) \(from) \(matching.droppingFrom)
            ORDER BY \(raw: keyOrder), \(raw: order)
            """
        let skip = max(0, query.offset), end = query.limit.map { skip + max(0, $0) } ?? Int.max
        var result: [MediaCollection] = []
        var groupIndex = -1
        var currentKey: [SQLValue]?
        var previousID: Int64?
        try read { x in
            try x.forEachRow(sql) { row in
                guard groupIndex < end else { return }
                let key = Array(row.values.suffix(keyColumns.count))
                if currentKey != key {
                    currentKey = key
                    previousID = nil
                    groupIndex += 1
                    if groupIndex >= end { return }
                    if groupIndex >= skip { result.append(MediaCollection(name: nil, items: [])) }
                }
                guard groupIndex >= skip else { return }
                let item = ItemRow.item(row)
                // Two values of one item that fold alike put it in the group twice, on adjacent rows.
                if item.persistentID == previousID { return }
                previousID = item.persistentID
                if result[result.count - 1].items.isEmpty {
                    result[result.count - 1].name = query.grouping.name(of: item, key: key[0].text)
                }
                result[result.count - 1].items.append(item)
            }
        }
        return result
    }

    /// Collections without their items: name, count and a representative item (the group's lowest id),
    /// in key order, paged by `limit`/`offset`. One grouped statement where the dialect can group exactly.
    public func collectionSummaries(_ query: MediaQuery) throws -> [MediaCollectionSummary] {
        var result: [MediaCollectionSummary] = []
        try forEachCollectionSummary(query) { result.append($0) }
        return result
    }

    /// Streams `collectionSummaries`. Errors thrown by `body` are rethrown unchanged.
    public func forEachCollectionSummary(_ query: MediaQuery, _ body: (MediaCollectionSummary) throws -> Void) throws {
        if query.grouping == .playlist {
            for c in try playlistCollections(query) {
                guard let first = c.items.first else { continue }
                try body(MediaCollectionSummary(name: c.name, count: c.count, representativeItem: first,
                                                totalDuration: c.items.reduce(0) { $0 + $1.playbackDuration }))
            }
            return
        }
        let (matching, residual, _) = try compile(query)
        guard residual == nil, let keys = compiler.groupKeys(query.grouping) else {
            var all = query
            all.limit = nil
            all.offset = 0
            for summary in try query.collectionSummaries(from: try items(all)) { try body(summary) }
            return
        }
        let named = keys.enumerated().map { "\($1) AS g\($0)" }.joined(separator: ", ")
        let groupBy = keys.indices.map { "g\($0)" }.joined(separator: ", ")
        let keyOrder = keys.indices.flatMap { ["g.g\($0) IS NULL", "g.g\($0)"] }.joined(separator: ", ")
        let duration = ItemRow.valueExpression(.playbackDuration)
        let groups: SQLStatement
        if query.grouping.groupsByEachValue {
            // Each (item, value) once: an item's values may fold alike.
            let (from, _) = groupedRows(query.grouping, keys)
            groups = """
                SELECT min(u.id) AS rid, count(*) AS n, COALESCE(sum(u.duration), 0) AS d, u.g0 AS g0
                FROM (SELECT DISTINCT items.id AS id, \(raw: duration) AS duration, \(raw: keys[0]) AS g0 \(from) \(matching.droppingFrom)) AS u
                GROUP BY u.g0
                """
        } else {
            groups = "SELECT min(items.id) AS rid, count(*) AS n, COALESCE(sum(\(raw: duration)), 0) AS d, \(raw: named) \(matching) GROUP BY \(raw: groupBy)"
        }
        // The representative is a whole item (`ls --group albums -f '$size $track'` prints its fields).
        let sql: SQLStatement = """
            SELECT \(raw: itemColumns), g.n, g.d, g.g0 FROM (\(groups)) AS g JOIN items ON items.id = g.rid
            ORDER BY \(raw: keyOrder)
            """ + compiler.page(limit: query.limit, offset: query.offset)
        try streamRows(sql) { row in
            let item = ItemRow.item(row)
            let extra = row.values.count - 3
            try body(MediaCollectionSummary(name: query.grouping.name(of: item, key: row.text(extra + 2)),
                                            count: row.int(extra) ?? 0, representativeItem: item,
                                            totalDuration: row.double(extra + 1) ?? 0))
        }
    }

    /// The FROM of a grouped query (`items`, joined to each folded value `gv` for a grouping by value) and
    /// the key columns to select.
    private func groupedRows(_ grouping: MediaGrouping, _ keys: [String]) -> (from: SQLStatement, keys: [String]) {
        guard grouping.groupsByEachValue else { return ("FROM items", keys) }
        return ("FROM items LEFT JOIN \(raw: compiler.eachValue(of: grouping, as: "gv")) ON TRUE", keys)
    }

    /// Each playlist as a collection named after it, with what it holds now (a static playlist's entries in
    /// order, a smart playlist's rule evaluated, its limit included) narrowed by `query.filter`. Empty results
    /// are kept (a playlist exists even when nothing in it matches).
    /// All of it on one snapshot (`inOneSnapshot`): the list and each playlist's items agree.
    private func playlistCollections(_ query: MediaQuery) throws -> [MediaCollection] {
        let evaluator = try PredicateEvaluator(query.filter)
        return try inOneSnapshot {
            let stored = try playlists().sorted { TextMatching.compare(TextFolding.folded($0.name), TextFolding.folded($1.name)) < 0 }
            return try stored.dropFirst(max(0, query.offset)).prefix(query.limit ?? Int.max).map { playlist in
                let items = try playlist.smart.map { try self.items(try $0.query()) } ?? playlistItems(name: playlist.name)
                return MediaCollection(name: playlist.name, items: items.filter(evaluator.matches))
            }
        }
    }
}

extension SQLStatement {
    /// `FROM items WHERE …` without its `FROM items` (to put another FROM before the WHERE).
    fileprivate var droppingFrom: SQLStatement {
        SQLStatement(markedText: String(text.dropFirst("FROM items ".count)), values: values)
    }
}
