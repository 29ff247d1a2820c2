import Foundation

/// A Navidrome database (`navidrome.db`). Its schema is its migrations (github.com/navidrome/navidrome,
/// `db/migrations/`: 20200130083147_create_schema.go, 20250701010102_add_annotation_user_foreign_key.sql,
/// 20240511220020_add_library_table.go, 20230616214944_rename_musicbrainz_recording_id.go): per-user
/// values are rows of `annotation(user_id, item_id, item_type, play_count, play_date, rating, starred,
/// starred_at)`; `item_type` 'media_file' are songs, whose `media_file` row has `path`, `title`, `artist`,
/// `album`, `duration` (s) and `mbz_recording_id` (`mbz_track_id` before 2023); `user(id, user_name)`
/// names the user. Since 0.55 `path` is relative to its `library(id, path)`: joined back here. Ratings are
/// 0–5 stars already; `starred` becomes a star of the user's; dates are text ("2026-03-16 12:00:00+00:00",
/// or RFC 3339 before the 2026 migration).
public struct NavidromeReader: UserDataReader {
    public let file: String
    public init(file: String) { self.file = file }

    public func read(_ body: (ImportedRecord) throws -> Void) throws {
        let db = try ForeignDatabase(file: file)
        try db.require(["annotation", "media_file", "user"], format: "a Navidrome database")
        let columns = try db.columns(of: "media_file")
        let recording = columns.contains("mbz_recording_id") ? "m.mbz_recording_id" : columns.contains("mbz_track_id") ? "m.mbz_track_id" : "NULL"
        let hasLibrary = columns.contains("library_id") && (try? db.require(["library"], format: "")) != nil
        let path = hasLibrary
            ? "CASE WHEN substr(m.path, 1, 1) = '/' THEN m.path ELSE rtrim(l.path, '/') || '/' || m.path END"
            : "m.path"
        let join = hasLibrary ? "LEFT JOIN library l ON l.id = m.library_id" : ""
        try db.forEachRow("""
            SELECT u.user_name, \(path) AS path, \(recording) AS mbid, m.title, m.artist, m.album, m.duration,
                   a.play_count, a.play_date, a.rating, a.starred
            FROM annotation a JOIN media_file m ON m.id = a.item_id JOIN user u ON u.id = a.user_id \(join)
            WHERE a.item_type = 'media_file' ORDER BY u.user_name, m.path
            """) { row in
            var record = ImportedRecord(track: ImportedTrack(
                path: row.text("path"), recordingID: row.text("mbid"), artist: row.text("artist"),
                album: row.text("album"), title: row.text("title"), duration: row.number("duration")))
            record.sourceUser = row.text("user_name")
            record.playCount = row.number("play_count").map { Int(max(0, $0)) }
            record.lastPlayed = row.text("play_date").flatMap(Self.date)
            record.rating = row.number("rating").map { RatingScale.fromStars(Int($0)) }
            record.loved = (row.number("starred") ?? 0) != 0
            if record.hasValues { try body(record) }
        }
    }

    /// Navidrome's dates: "2026-03-16 12:00:00+00:00" (fractions allowed), or RFC 3339 "…T…Z".
    static func date(_ text: String) -> Date? { ImportDates.iso8601(text) }
}
