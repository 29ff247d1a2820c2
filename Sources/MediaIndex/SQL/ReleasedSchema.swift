/// What the first released schemas of both stores share, as data: SQLite's "v1" and PostgreSQL's "pg v1"
/// (and "pg v5", which re-indexes the folded columns) render their column and index lists from these, each
/// in its own types. Frozen, like the steps: a property added to mlib later is not here (it comes with a
/// step of its own); `FrozenSchemaTests` proves the rendered steps are byte for byte the released ones.
package enum ReleasedSchema {
    package typealias Column = (name: String, type: SQLColumnType)

    /// The property columns of the first `items` table, in their order (after `tags`).
    package static let firstPropertyColumns: [Column] = [
        ("fileSize", .integer), ("modificationDate", .real), ("mediaType", .integer), ("title", .text), ("albumTitle", .text),
        ("artist", .text), ("albumArtist", .text), ("genre", .text), ("composer", .text), ("grouping", .text),
        ("albumTrackNumber", .integer), ("albumTrackCount", .integer), ("discNumber", .integer), ("discCount", .integer),
        ("isCompilation", .integer), ("releaseDate", .text), ("year", .integer), ("beatsPerMinute", .integer), ("comments", .text),
        ("lyrics", .text), ("hasArtwork", .integer), ("musicBrainzTrackID", .text), ("musicBrainzReleaseTrackID", .text),
        ("musicBrainzAlbumID", .text), ("musicBrainzArtistID", .text), ("musicBrainzAlbumArtistID", .text),
        ("musicBrainzReleaseGroupID", .text), ("replayGainTrackGain", .real), ("replayGainTrackPeak", .real),
        ("replayGainAlbumGain", .real), ("replayGainAlbumPeak", .real), ("playbackDuration", .real), ("container", .text),
        ("audioCodec", .text), ("videoCodec", .text), ("bitRate", .integer), ("sampleRate", .integer), ("channels", .integer),
        ("bitDepth", .integer), ("width", .integer), ("height", .integer), ("frameRate", .real), ("playCount", .integer),
        ("skipCount", .integer), ("lastPlayedDate", .real), ("rating", .integer), ("dateAdded", .real),
    ]

    /// The columns SQLite's "v6" added and "pg v1" already had, after `dateAdded`.
    package static let fileTypeColumns: [Column] = [("fileType", .text), ("isPartial", .integer), ("partialReason", .text), ("chapterCount", .integer)]

    /// The searchable properties of the first schema: each has a folded twin `<name>_folded`, indexed.
    package static let firstFoldedProperties = ["title", "albumTitle", "artist", "albumArtist", "genre", "composer"]

    /// The multi-valued properties SQLite's "v10" and PostgreSQL's "pg v4"/"pg v5" index the several-valued rows of.
    package static let firstMultiValuedProperties = ["artist", "albumArtist", "genre", "composer"]

    package static var firstFoldedColumns: [Column] { firstFoldedProperties.map { ($0 + "_folded", .text) } }

    /// `CREATE INDEX "items_title_folded" ON items("title_folded")`, … as both first schemas wrote them.
    package static var firstFoldedIndexes: [String] {
        firstFoldedProperties.map { #"CREATE INDEX "items_\#($0)_folded" ON items("\#($0)_folded")"# }
    }

    /// SQLite's "v13" and PostgreSQL's "pg v8" (the API server's users, their stars and play queues), one
    /// text for both with each dialect's words in braces (`words`): `{sorted}` is text compared by bytes,
    /// `{primary key}` is spelled with NOT NULL in SQLite, which allows NULL in a primary key that is not a rowid.
    package static let usersTables = """
        CREATE TABLE users (
            name {sorted} {primary key},
            password {text} NOT NULL,
            api_key {text} UNIQUE,
            admin {integer} NOT NULL DEFAULT 0,
            created {real} NOT NULL);
        CREATE TABLE user_stars (
            user_name {sorted} NOT NULL REFERENCES users(name) ON DELETE CASCADE ON UPDATE CASCADE,
            kind {text} NOT NULL,
            key {sorted} NOT NULL,
            starred {real} NOT NULL,
            PRIMARY KEY (user_name, kind, key));
        CREATE TABLE play_queues (
            user_name {sorted} {primary key} REFERENCES users(name) ON DELETE CASCADE ON UPDATE CASCADE,
            item_ids {text} NOT NULL,
            current {integer},
            position {integer} NOT NULL DEFAULT 0,
            changed {real} NOT NULL,
            changed_by {text} NOT NULL);
        """

    /// A shared step's text in a dialect: each `{word}` replaced by the dialect's spelling of it.
    package static func render(_ template: String, plainText: String, primaryKey: String, _ typeName: (SQLColumnType) -> String) -> String {
        let words = ["{sorted}": typeName(.text), "{text}": plainText, "{integer}": typeName(.integer), "{real}": typeName(.real),
                     "{primary key}": primaryKey]
        return words.reduce(template) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    /// Column definitions as the steps wrote them: `"name" type,`, one per line, the lines after the first
    /// indented by four spaces (the interpolation stands where the first one did).
    package static func definitions(_ columns: [Column], _ typeName: (SQLColumnType) -> String) -> String {
        columns.map { "\"\($0.name)\" \(typeName($0.type))," }.joined(separator: "\n    ")
    }
}
