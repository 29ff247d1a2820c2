import Foundation

/// A beets library (`library.db`; beets' developer documentation, "Library Database API": a table
/// `items` with `path` (bytes), `title`, `artist`, `album`, `length` (s), `mb_trackid` (the recording id),
/// and flexible attributes as rows of `item_attributes(entity_id, key, value)`). The attributes read are
/// those the mpdstats plugin writes (beets' documentation, "MPDStats Plugin"): `play_count`,
/// `skip_count`, `last_played` (seconds since 1970) and `rating` (0.0–1.0; mlib's stars are five times it,
/// rounded: 0.5 is 3). Only items with one of them are read.
public struct BeetsLibraryReader: UserDataReader {
    public let file: String
    public init(file: String) { self.file = file }

    public func read(_ body: (ImportedRecord) throws -> Void) throws {
        let db = try ForeignDatabase(file: file)
        try db.require(["items", "item_attributes"], format: "a beets library")
        var current: Int64?
        var record = ImportedRecord(track: ImportedTrack())
        let local = DateFormatter()
        local.dateFormat = "yyyy-MM-dd HH:mm:ss"
        try db.forEachRow("""
            SELECT i.id, i.path, i.title, i.artist, i.album, i.length, i.mb_trackid, a.key, a.value
            FROM items i JOIN item_attributes a ON a.entity_id = i.id
            WHERE a.key IN ('play_count', 'skip_count', 'last_played', 'rating') ORDER BY i.id
            """) { row in
            let id: Int64 = row["id"]
            if id != current {
                if current != nil, record.hasValues { try body(record) }
                current = id
                record = ImportedRecord(track: ImportedTrack(
                    path: row.text("path"), recordingID: row.text("mb_trackid"), artist: row.text("artist"),
                    album: row.text("album"), title: row.text("title"), duration: row.number("length")))
            }
            let value = row.number("value")
            switch row.text("key") {
            case "play_count": record.playCount = value.map { Int(max(0, $0)) }
            case "skip_count": record.skipCount = value.map { Int(max(0, $0)) }
            case "last_played":
                // A float of seconds as mpdstats stores it; a date as `beet modify` without the plugin's types.
                record.lastPlayed = value.map(Date.init(timeIntervalSince1970:)) ?? row.text("value").flatMap { local.date(from: $0) }
            case "rating": record.rating = value.map(RatingScale.fromUnit)
            default: break
            }
        }
        if current != nil, record.hasValues { try body(record) }
    }
}
