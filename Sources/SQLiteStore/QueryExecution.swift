import Foundation
import GRDB
import MediaIndex
import MediaModel

// Running compiled queries: collections (full and summarised) and playlists as collections. Items, counts
// and single lookups are in SQLiteIndex+Reading.swift; all SQL comes from QueryCompiler.
extension SQLiteIndex {
    /// The persistent IDs of the items `items(query)` returns, in the same order, without building items
    /// (to fill a playlist or a play queue from a query).
    public func itemIDs(_ query: MediaQuery) throws -> [Int64] {
        let (sql, arguments) = try QueryCompiler.idsSQL(query)
        return try read { db in try Int64.fetchAll(db, sql: sql, arguments: arguments) }
    }

    /// Items grouped by `query.grouping`: collections in key order (folded, missing last), items in the
    /// query's effective sort; `limit`/`offset` count collections. `.playlist` grouping yields the
    /// library's playlists, each filtered by the query.
    func queryCollections(_ query: MediaQuery) throws -> [MediaCollection] {
        if query.grouping == .playlist { return try playlistCollections(query) }
        let (sql, arguments) = try QueryCompiler.collectionsSQL(query)
        let skip = max(0, query.offset), end = query.limit.map { skip + max(0, $0) } ?? Int.max
        return try read { db in
            var result: [MediaCollection] = []
            var groupIndex = -1
            var currentKey: DatabaseValue?
            var previousID: Int64?
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let key: DatabaseValue = row["group_key"]
                if currentKey == nil || currentKey! != key {
                    currentKey = key
                    previousID = nil
                    groupIndex += 1
                    if groupIndex >= end { break }
                    if groupIndex >= skip { result.append(MediaCollection(name: nil, items: [])) }
                }
                guard groupIndex >= skip else { continue }
                let item = ItemRow.decode(row)
                // Two values of one item that fold alike put it in the group twice, on adjacent rows.
                if item.persistentID == previousID { continue }
                previousID = item.persistentID
                if result[result.count - 1].items.isEmpty {
                    result[result.count - 1].name = query.grouping.name(of: item, key: String.fromDatabaseValue(key))
                }
                result[result.count - 1].items.append(item)
            }
            return result
        }
    }

    /// Collections without their items: name, count and a representative item (the group's lowest id),
    /// in key order, paged by `limit`/`offset`. One grouped SQL query; cheap on large libraries.
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
        let (sql, arguments) = try QueryCompiler.collectionSummariesSQL(query)
        var bodyError: (any Error)?
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            let properties = QueryCompiler.summaryProperties
            while let row = try rows.next() {
                // id, path, the summary properties, then count, duration and key (`summaryColumns`).
                let values = Array(row.databaseValues)
                let item = ItemRow.item(values, withTags: false, properties: properties)
                let extra = 2 + properties.count
                let key = String.fromDatabaseValue(values[extra + 2])
                let summary = MediaCollectionSummary(name: query.grouping.name(of: item, key: key),
                                                     count: Int.fromDatabaseValue(values[extra]) ?? 0,
                                                     representativeItem: item,
                                                     totalDuration: Double.fromDatabaseValue(values[extra + 1]) ?? 0)
                do { try body(summary) } catch { bodyError = error; return }
            }
        }
        if let bodyError { throw bodyError }
    }

    /// Each playlist as a collection named after it: a static playlist's entries in order, a smart
    /// playlist's rule evaluated; both filtered by `query.filter`. Empty results are kept (a playlist
    /// exists even when nothing in it matches).
    private func playlistCollections(_ query: MediaQuery) throws -> [MediaCollection] {
        let filter = try QueryCompiler.whereClause(query.filter)
        var result: [MediaCollection] = []
        let stored = try playlists().sorted { TextMatching.compare(TextFolding.folded($0.name), TextFolding.folded($1.name)) < 0 }
        for playlist in stored.dropFirst(max(0, query.offset)).prefix(query.limit ?? Int.max) {
            if let rule = playlist.smart {
                var q = try rule.query()
                q.filter = q.filter && query.filter
                result.append(MediaCollection(name: playlist.name, items: try items(q)))
                continue
            }
            let items = try read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(ItemRow.selectColumns) FROM playlist_entries e JOIN items ON items.id = e.item_id
                    WHERE e.playlist_id = ? AND (\(filter.sql)) ORDER BY e.position
                    """, arguments: StatementArguments([playlist.id.databaseValue] + filter.arguments)).map(ItemRow.decode)
            }
            result.append(MediaCollection(name: playlist.name, items: items))
        }
        return result
    }
}
