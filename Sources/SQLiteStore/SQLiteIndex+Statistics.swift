import Foundation
import GRDB
import MediaIndex
import MediaModel

extension SQLiteIndex {
    public func statistics() throws -> LibraryStatistics {
        try read { db in
            let totals = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), COALESCE(SUM(playbackDuration), 0), COALESCE(SUM(fileSize), 0) FROM items WHERE missing_gen IS NULL
                """)!
            let byType = try Row.fetchAll(db, sql: """
                SELECT COALESCE(mediaType, 0), COUNT(*) FROM items WHERE missing_gen IS NULL GROUP BY 1 ORDER BY 2 DESC, 1
                """).map { row in
                LibraryStatistics.Count(name: MediaType(rawValue: row[0]).name, count: row[1])
            }
            let byContainer = try Row.fetchAll(db, sql: """
                SELECT COALESCE(container, 'unknown'), COUNT(*) FROM items WHERE missing_gen IS NULL GROUP BY 1 ORDER BY 2 DESC, 1
                """).map { LibraryStatistics.Count(name: $0[0], count: $0[1]) }
            let byFileType = try Row.fetchAll(db, sql: """
                SELECT COALESCE("fileType", 'unknown'), COUNT(*) FROM items WHERE missing_gen IS NULL GROUP BY 1 ORDER BY 2 DESC, 1
                """).map { LibraryStatistics.Count(name: $0[0], count: $0[1]) }
            return LibraryStatistics(
                items: totals[0], totalDuration: totals[1], totalSize: totals[2],
                byMediaType: byType, byContainer: byContainer, byFileType: byFileType,
                partial: try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM items WHERE "isPartial" = 1 AND missing_gen IS NULL"#) ?? 0,
                failures: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM failures") ?? 0,
                roots: try Data.fetchAll(db, sql: "SELECT path FROM roots ORDER BY path").map { MediaPath(bytes: Array($0)) },
                playlists: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM playlists") ?? 0)
        }
    }
}
