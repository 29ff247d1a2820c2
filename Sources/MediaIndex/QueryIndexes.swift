import Foundation
import GRDB
import MediaModel

/// Indexes the query compiler's grouping expressions rely on (`QueryCompiler.groupKeyExpressions`): with
/// them, `collections`/`collectionSummaries` for albums and album artists scan one index in group order
/// (covering, no temporary B-tree) instead of sorting every row. Single-property groupings (artist, genre,
/// composer, title) already use the `<name>_folded` indexes of the first migration.
enum QueryIndexes {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("query: grouping indexes for albums and album artists") { db in
            for grouping: MediaGrouping in [.album, .albumArtist] {
                // Index expressions may not name the table; the compiler's `items.x` matches them all the same.
                let keys = QueryCompiler.groupKeyExpressions(grouping).map { $0.replacingOccurrences(of: "items.", with: "") }
                    .joined(separator: ", ")
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \"items_group_\(grouping.rawValue)\" ON items(\(keys))")
            }
        }
    }
}
