import MediaModel

/// MPD's tag names and the `MediaProperty` (or raw tag) each one reads. One table serves `tagtypes`,
/// song output, filters and `list`.
struct MPDTag: Sendable, Hashable {
    /// As MPD spells it in output ("AlbumArtist"); matched case-insensitively in requests.
    var name: String
    /// The property it reads, when mlib indexes it as one (so filters compile to SQL).
    var property: MediaProperty?
    /// Else the upper-case raw tag key in `MediaItem.tags`.
    var rawKey: String?

    /// In MPD's `tagtypes` order (only the tags mlib can give back).
    static let all: [MPDTag] = [
        MPDTag(name: "Artist", property: .artist),
        MPDTag(name: "ArtistSort", rawKey: "ARTISTSORT"),
        MPDTag(name: "Album", property: .albumTitle),
        MPDTag(name: "AlbumSort", rawKey: "ALBUMSORT"),
        MPDTag(name: "AlbumArtist", property: .albumArtist),
        MPDTag(name: "AlbumArtistSort", rawKey: "ALBUMARTISTSORT"),
        MPDTag(name: "Title", property: .title),
        MPDTag(name: "Track", property: .albumTrackNumber),
        MPDTag(name: "Name", rawKey: "NAME"),
        MPDTag(name: "Genre", property: .genre),
        MPDTag(name: "Date", property: .releaseDate),
        MPDTag(name: "OriginalDate", rawKey: "ORIGINALDATE"),
        MPDTag(name: "Composer", property: .composer),
        MPDTag(name: "ComposerSort", rawKey: "COMPOSERSORT"),
        MPDTag(name: "Performer", rawKey: "PERFORMER"),
        MPDTag(name: "Conductor", rawKey: "CONDUCTOR"),
        MPDTag(name: "Work", rawKey: "WORK"),
        MPDTag(name: "Movement", rawKey: "MOVEMENTNAME"),
        MPDTag(name: "MovementNumber", rawKey: "MOVEMENT"),
        MPDTag(name: "Ensemble", rawKey: "ENSEMBLE"),
        MPDTag(name: "Location", rawKey: "LOCATION"),
        MPDTag(name: "Grouping", property: .grouping),
        MPDTag(name: "Disc", property: .discNumber),
        MPDTag(name: "Label", rawKey: "LABEL"),
        MPDTag(name: "MUSICBRAINZ_ARTISTID", property: .musicBrainzArtistID),
        MPDTag(name: "MUSICBRAINZ_ALBUMID", property: .musicBrainzAlbumID),
        MPDTag(name: "MUSICBRAINZ_ALBUMARTISTID", property: .musicBrainzAlbumArtistID),
        MPDTag(name: "MUSICBRAINZ_TRACKID", property: .musicBrainzTrackID),
        MPDTag(name: "MUSICBRAINZ_RELEASETRACKID", property: .musicBrainzReleaseTrackID),
        MPDTag(name: "MUSICBRAINZ_WORKID", rawKey: "MUSICBRAINZ_WORKID"),
    ]

    private static let byLowercasedName: [String: MPDTag] =
        Dictionary(uniqueKeysWithValues: all.map { ($0.name.lowercased(), $0) })

    static func named(_ name: String) -> MPDTag? { byLowercasedName[name.lowercased()] }

    /// MPD's fallbacks for `list`, `count … group` and filters: a song without an album artist counts
    /// under its artist, a missing sort tag under the plain one.
    var fallbacks: [MPDTag] {
        switch name {
        case "AlbumArtist": [MPDTag.named("Artist")!]
        case "AlbumArtistSort": ["AlbumArtist", "ArtistSort", "Artist"].map { MPDTag.named($0)! }
        case "ArtistSort": [MPDTag.named("Artist")!]
        case "AlbumSort": [MPDTag.named("Album")!]
        case "ComposerSort": [MPDTag.named("Composer")!]
        default: []
        }
    }

    /// The value with MPD's fallbacks applied.
    func valueWithFallback(in item: MediaItem) -> String? {
        if let own = value(in: item) { return own }
        for tag in fallbacks { if let v = tag.value(in: item) { return v } }
        return nil
    }

    /// The tag's value in `item` as MPD prints it, or nil.
    func value(in item: MediaItem) -> String? {
        if let property {
            if property == .releaseDate, item[.releaseDate] == nil, let year = item[.year]?.integer {
                return String(year)
            }
            guard let value = item[property] else { return nil }
            switch value {
            case .text(let s): return s.isEmpty ? nil : s
            case .integer(let i): return i == 0 && (property == .albumTrackNumber || property == .discNumber) ? nil : String(i)
            case .real(let d): return String(d)
            case .bool(let b): return b ? "1" : "0"
            }
        }
        guard let rawKey, let value = item.tags[rawKey], !value.isEmpty else { return nil }
        return value
    }
}
