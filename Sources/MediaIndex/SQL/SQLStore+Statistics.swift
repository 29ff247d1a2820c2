import Foundation
import MediaModel

extension SQLStore {
    /// Totals over the whole library (every host's items), for `mlib stats` and MPD's `stats`: one snapshot,
    /// so that totals and counts agree while another host scans.
    public func statistics() throws -> LibraryStatistics {
        try connection.snapshotRead { x in
            let totals = try x.row("""
                SELECT count(*), COALESCE(sum("playbackDuration"), 0), COALESCE(sum("fileSize"), 0) FROM items WHERE missing_gen IS NULL
                """)
            func counts(_ expression: String, name: (SQLValue) -> String) throws -> [LibraryStatistics.Count] {
                try x.rows("""
                    SELECT \(raw: expression), count(*) FROM items WHERE missing_gen IS NULL GROUP BY 1 ORDER BY 2 DESC, 1
                    """).map { LibraryStatistics.Count(name: name($0[0]), count: $0.int(1) ?? 0) }
            }
            return LibraryStatistics(
                items: totals?.int(0) ?? 0, totalDuration: totals?.double(1) ?? 0, totalSize: totals?.int64(2) ?? 0,
                byMediaType: try counts(#"COALESCE("mediaType", 0)"#) { MediaType(rawValue: $0.integer ?? 0).name },
                byContainer: try counts("COALESCE(container, 'unknown')") { $0.text ?? "" },
                byFileType: try counts(#"COALESCE("fileType", 'unknown')"#) { $0.text ?? "" },
                partial: try x.value(#"SELECT count(*) FROM items WHERE "isPartial" = 1 AND missing_gen IS NULL"#).integer.map(Int.init) ?? 0,
                failures: try x.value("SELECT count(*) FROM failures").integer.map(Int.init) ?? 0,
                roots: try x.rows("SELECT path FROM roots WHERE \(mine()) ORDER BY path").compactMap { $0.path(0) },
                playlists: try x.value("SELECT count(*) FROM playlists").integer.map(Int.init) ?? 0)
        }
    }
}
