import MediaModel

/// The one table from mlib's tag fields to TagLib's PropertyMap keys, the vocabulary mlib's reader
/// (MediaProbe's TagMapping) reads tags in, so what `mlib tag` writes is what `mlib scan` reads back.
/// TagLib maps each key to the format's own spelling:
///
/// | key | Vorbis/FLAC/APE | ID3v2.3/2.4 | MP4 | ASF | RIFF INFO |
/// |---|---|---|---|---|---|
/// | TITLE | TITLE | TIT2 | ©nam | Title | INAM |
/// | ARTIST | ARTIST | TPE1 | ©ART | Author | IART |
/// | ALBUM | ALBUM | TALB | ©alb | WM/AlbumTitle | IPRD |
/// | ALBUMARTIST | ALBUMARTIST | TPE2 | aART | WM/AlbumArtist | – |
/// | TRACKNUMBER (+ TRACKTOTAL) | TRACKNUMBER, TRACKTOTAL | TRCK n/total | trkn | WM/TrackNumber | IPRT |
/// | other keys | KEY | TXXX:KEY | ----:com.apple.iTunes:KEY | KEY | – (reported unsupported) |
///
/// (`man mlib` has the full table.) Any other upper-case key (MOOD, LABEL, ISRC…) is written as given.
public enum TagFieldMapping {
    public static let keys: [MediaProperty: String] = [
        .title: "TITLE", .artist: "ARTIST", .albumTitle: "ALBUM", .albumArtist: "ALBUMARTIST",
        .genre: "GENRE", .composer: "COMPOSER", .grouping: "GROUPING", .comments: "COMMENT", .lyrics: "LYRICS",
        .albumTrackNumber: "TRACKNUMBER", .albumTrackCount: "TRACKTOTAL",
        .discNumber: "DISCNUMBER", .discCount: "DISCTOTAL",
        .isCompilation: "COMPILATION", .releaseDate: "DATE", .year: "DATE", .beatsPerMinute: "BPM",
        .musicBrainzTrackID: "MUSICBRAINZ_TRACKID", .musicBrainzReleaseTrackID: "MUSICBRAINZ_RELEASETRACKID",
        .musicBrainzAlbumID: "MUSICBRAINZ_ALBUMID", .musicBrainzArtistID: "MUSICBRAINZ_ARTISTID",
        .musicBrainzAlbumArtistID: "MUSICBRAINZ_ALBUMARTISTID", .musicBrainzReleaseGroupID: "MUSICBRAINZ_RELEASEGROUPID",
        .replayGainTrackGain: "REPLAYGAIN_TRACK_GAIN", .replayGainTrackPeak: "REPLAYGAIN_TRACK_PEAK",
        .replayGainAlbumGain: "REPLAYGAIN_ALBUM_GAIN", .replayGainAlbumPeak: "REPLAYGAIN_ALBUM_PEAK",
    ]

    /// The PropertyMap key a FIELD names: an mlib field or alias (`title`, `album`, `track`…), or a key
    /// given in upper case as is (`MOOD`, `LABEL`). nil for what is not a writable tag.
    public static func key(forField field: String) -> String? {
        if let property = MediaProperty(name: field) { return keys[property] }
        let allowed = field.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == " " }
        return allowed && !field.isEmpty && field.first != " " ? field : nil
    }

    /// The fields `mlib tag` writes, by mlib name (for help and errors).
    public static var fieldNames: [String] {
        MediaProperty.allCases.filter { keys[$0] != nil }.map(\.rawValue)
    }
}
