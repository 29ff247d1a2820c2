import Foundation

/// An MPD sticker database (mpd.conf's `sticker_file`; MPD's user manual, "Stickers": a table
/// `sticker(type, uri, name, value)`, values as text, `uri` relative to the music directory). The song
/// stickers read are myMPD's (its documentation, "Statistics and ratings"): `playCount`, `skipCount`,
/// `lastPlayed` (seconds since 1970), `rating` (0–10: two to a star, so mlib's 0–5 is half of it, halves
/// rounded up), and `like` (2: loved). MPD's URIs are relative: the matcher tries them under each of the
/// library's roots (or use --map with the music directory).
public struct MPDStickerReader: UserDataReader {
    public let file: String
    public init(file: String) { self.file = file }

    public func read(_ body: (ImportedRecord) throws -> Void) throws {
        let db = try ForeignDatabase(file: file)
        try db.require(["sticker"], format: "an MPD sticker database")
        var current: String?
        var record = ImportedRecord(track: ImportedTrack())
        // Ordered by uri: one song's stickers are consecutive, so one record is in memory at a time.
        try db.forEachRow("SELECT uri, name, value FROM sticker WHERE type = 'song' ORDER BY uri") { row in
            guard let uri = row.text("uri") else { return }
            if uri != current {
                if current != nil, record.hasValues { try body(record) }
                current = uri
                record = ImportedRecord(track: ImportedTrack(path: uri))
            }
            let value = row.number("value")
            switch row.text("name") {
            case "playCount": record.playCount = value.map { Int(max(0, $0)) }
            case "skipCount": record.skipCount = value.map { Int(max(0, $0)) }
            case "lastPlayed": record.lastPlayed = value.flatMap { $0 > 0 ? Date(timeIntervalSince1970: $0) : nil }
            case "rating": record.rating = value.map(RatingScale.fromTen)
            case "like": record.loved = value == 2
            default: break
            }
        }
        if current != nil, record.hasValues { try body(record) }
    }
}
