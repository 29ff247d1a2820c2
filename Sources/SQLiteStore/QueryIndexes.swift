import Foundation
import GRDB
import MediaIndex
import MediaModel

/// Indexes the query compiler's grouping expressions rely on (`SQLQueryCompiler.groupKeys` over `SQLiteQueryDialect`): with
/// them, `collections`/`collectionSummaries` for albums and album artists scan one index in group order
/// (covering, no temporary B-tree) instead of sorting every row. Single-property groupings (artist, genre,
/// composer, title) already use the `<name>_folded` indexes of the first migration.
enum QueryIndexes {
    static func register(in migrator: inout DatabaseMigrator) {
        // Frozen as released: the expressions the query compiler gave for albums and album
        // artists (index expressions may not name the table; the compiler's `items.x` matches them all the same).
        migrator.registerMigration("query: grouping indexes for albums and album artists") { db in
            try db.execute(sql: """
                CREATE INDEX IF NOT EXISTS "items_group_album" ON items("albumTitle_folded", coalesce("albumArtist_folded", "artist_folded"))
                """)
            try db.execute(sql: """
                CREATE INDEX IF NOT EXISTS "items_group_albumArtist" ON items(coalesce("albumArtist_folded", "artist_folded"))
                """)
        }
    }
}
