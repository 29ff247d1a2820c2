import Foundation
import PostgresNIO
import MediaIndex
import MediaModel

// Collection summaries grouped by the server: `mlib ls --albums` over a whole library reads one row per
// album, not every item. The keys are the folded columns, written by every scan with the TextFolding that
// `MediaGrouping.key(of:)` applies in memory, so the groups are the same; they are ordered and paged in
// Swift (`MediaGrouping.compareKeys`, as the in-memory reference does) and their representatives (each
// group's lowest id) read by id.
extension PostgresIndex {
    /// The summaries, or nil when the server cannot group this query exactly (a residual filter, a key
    /// property without a folded column): the caller then groups in Swift.
    func groupedSummaries(_ query: MediaQuery) throws -> [MediaCollectionSummary]? {
        guard query.grouping != .playlist else { return nil }
        // A multi-valued key (artists, genres, …) puts an item in one group per value: grouped in Swift.
        guard !query.grouping.groupsByEachValue else { return nil }
        var keys: [String] = []
        for part in query.grouping.keyParts {
            let properties = [part.property] + (part.fallback.map { [$0] } ?? [])
            guard properties.allSatisfy(ItemRow.searchable.contains) else { return nil }
            let columns = properties.map(PostgresDialect.foldedColumn)
            keys.append(columns.count == 1 ? columns[0] : "COALESCE(\(columns.joined(separator: ", ")))")
        }
        var dialect = PostgresDialect()
        let plan = QueryPlan.plan(try query.filter.normalized(), &dialect)
        guard plan.residual == nil else { return nil }
        var sql = dialect.sql
        let list = keys.joined(separator: ", ")
        sql.sql = """
            SELECT min(items.id), count(*), COALESCE(sum(items."playbackDuration"), 0)::double precision, \(list)
            FROM items WHERE items.missing_gen IS NULL AND (\(plan.condition)) GROUP BY \(list)
            """
        let groups = try session.run { s in try s.query(sql) }.map { row in
            let r = row.makeRandomAccess()
            return (id: r[0].value(Int64.self) ?? 0, count: Int(r[1].value(Int64.self) ?? 0), duration: r[2].value(Double.self) ?? 0,
                    key: (0..<keys.count).map { r[3 + $0].value(String.self) })
        }
        .sorted { MediaGrouping.compareKeys($0.key, $1.key) < 0 }
        .dropFirst(max(0, query.offset)).prefix(query.limit ?? Int.max)
        let representatives = Dictionary(try items(ids: groups.map(\.id)).map { ($0.persistentID, $0) }, uniquingKeysWith: { a, _ in a })
        return groups.compactMap { group in
            representatives[group.id].map {
                MediaCollectionSummary(name: query.grouping.name(of: $0), count: group.count, representativeItem: $0, totalDuration: group.duration)
            }
        }
    }
}
