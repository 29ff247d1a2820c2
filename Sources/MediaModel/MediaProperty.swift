/// The one list of media item properties. Everything that is generic over properties (JSON output, the
/// index schema, predicate compilation and evaluation, `--format` templates, sorting) reads this table, so
/// adding a property is one `case` plus one line in `spec` (and an index migration adding its column).
///
/// Names follow Apple's `MPMediaItem` property keys where one exists (`albumTitle`, `playbackDuration`,
/// `albumTrackNumber`…); the technical ones follow ffprobe/mediainfo vocabulary.
public enum MediaProperty: String, CaseIterable, Sendable, Codable, Comparable {
    // Identity and file
    case persistentID, path, fileSize, modificationDate
    // Tags (MPMediaItem)
    case mediaType, title, albumTitle, artist, albumArtist, genre, composer, grouping
    case albumTrackNumber, albumTrackCount, discNumber, discCount, isCompilation
    case releaseDate, year, beatsPerMinute, comments, lyrics, hasArtwork
    // musicBrainzTrackID is MUSICBRAINZ_TRACKID as Picard and beets write it (the recording ID);
    // musicBrainzReleaseTrackID is MUSICBRAINZ_RELEASETRACKID.
    case musicBrainzTrackID, musicBrainzReleaseTrackID, musicBrainzAlbumID, musicBrainzArtistID
    case musicBrainzAlbumArtistID, musicBrainzReleaseGroupID
    case replayGainTrackGain, replayGainTrackPeak, replayGainAlbumGain, replayGainAlbumPeak
    // A rating written in the file's tags (ID3 POPM, RATING, FMPS_RATING, MP4 rate), scaled to 0–5: what
    // `rating` shows while the user has not rated the item in mlib (see `MediaItem`'s subscript).
    case tagRating
    // Technical (container and streams)
    case playbackDuration, container, audioCodec, videoCodec, bitRate, sampleRate, channels, bitDepth
    case width, height, frameRate
    // What reading the file found: its clean type (mp3, m4a, m4b, mkv, opus…, where `container` is FFmpeg's
    // demuxer list), and whether it was read only in part (damaged, truncated, a tag with no audio) and why.
    case fileType, isPartial, partialReason, chapterCount
    // The length a truncated file's header declares, kept beside `playbackDuration` (the audio present):
    // set only when the file holds less than its header promises, so `declaredDuration > 0` finds them.
    case declaredDuration
    // Whether this FFmpeg can decode the item (its first audio stream, else its video) and, when not, why
    // ("this FFmpeg cannot decode ac-4"): a file whose container reads but whose codec has no decoder here
    // (AC-4, MPEG-H 3D audio, 32-bit FLAC in FFmpeg 5.1) is an item all the same; `decodable == NO` finds
    // them, and playing, analysing or transcoding one says why it cannot.
    case isDecodable, undecodableReason
    // What lyrics the file has, from its tags and the sidecar files beside it (`.lrc`, `.elrc`, `.txt`): any,
    // any synced (timed lines), and their languages (ISO 639-2, several joined). The lyrics themselves are
    // rows of the index's `lyrics` table (`mlib lyrics QUERY`); these make them queryable.
    case hasLyrics, hasSyncedLyrics, lyricsLanguage
    // Library state kept by the index (user data: never overwritten by a rescan)
    case playCount, skipCount, lastPlayedDate, rating, dateAdded
    // What `mlib analyze` measured in the audio (EBU R128 and the ReplayGain 2.0 values from it, -18 LUFS
    // reference): kept across rescans, retags and moves, cleared when the audio changes. Peaks are linear
    // (1 = full scale), gains in dB, loudness in LUFS, its range in LU. (The Chromaprint fingerprint is
    // stored beside them, as a blob: not a property.)
    case trackGain, trackPeak, albumGain, albumPeak, loudness, loudnessRange, analysisVersion

    public enum ValueType: String, Sendable, Codable {
        case text        // String
        case integer     // Int64
        case real        // Double
        case bool        // Bool
        case date        // ISO-8601 text, possibly partial ("1997", "1997-06", "1997-06-16"); sorts as text
        case timestamp   // seconds since 1970 (Double)
        case duration    // seconds (Double)
        case mediaType   // MediaType option set raw value (Int64)
    }

    public enum Origin: String, Sendable, Codable {
        case file        // derived from the file system
        case tag         // read from tags
        case stream      // read from the container / codec
        case library     // kept by the index (user data, identity)
        case analysis    // measured in the audio by `mlib analyze`; cleared when the audio changes
    }

    public struct Spec: Sendable {
        public let type: ValueType
        public let origin: Origin
        public let displayName: String
        /// Indexed for search (FTS) and stored folded for `[cd]` comparisons.
        public let searchable: Bool
        /// Can be a grouping key for collections (albums, artists, …).
        public let groupable: Bool
        /// Can hold several values (two GENRE fields, ID3v2.4 null-separated TPE1…), stored joined with
        /// `MediaProperty.valueSeparator`: a comparison matches when any value does, `--group` groups by
        /// each value (`MediaItem.values(of:)`).
        public let multiValued: Bool
    }

    /// What joins the values of a multi-valued property in its stored and printed text ("Rock; Jazz"),
    /// as `TagMapping` joins repeated tag fields; `MediaItem.values(of:)` splits on it.
    public static let valueSeparator = "; "

    /// A multi-valued text split at `valueSeparator`'s bytes, as both stores' SQL splits it: not as
    /// characters, for which "; " followed by a combining mark is no separator (the space and the mark are
    /// one character).
    public static func splitValues(_ text: String) -> [String] {
        var contiguous = text      // withUTF8 may make the text contiguous first: on a copy, not on `text`
        return contiguous.withUTF8 { bytes in
            var values: [String] = []
            var start = 0, i = 0
            while i + 1 < bytes.count {
                if bytes[i] == separatorBytes.0 && bytes[i + 1] == separatorBytes.1 {
                    values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                    i += 2
                    start = i
                } else {
                    i += 1
                }
            }
            // One value (most texts): the text itself, not a copy of its bytes.
            guard start > 0 else { return [text] }
            values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return values
        }
    }
    /// `valueSeparator`'s two bytes, compared in place: `splitValues` runs for every multi-valued property of
    /// every item `ls --json` and the MPD and Subsonic servers write.
    private static let separatorBytes: (UInt8, UInt8) = (UInt8(ascii: ";"), UInt8(ascii: " "))

    /// Read on every property access of every row; built once from `makeSpec`.
    public var spec: Spec { Self.specs[ordinal] }
    private static let specs: [Spec] = allCases.map(\.makeSpec)

    private var makeSpec: Spec {
        switch self {
        case .persistentID:          Spec(.integer, .library, "Persistent ID")
        case .path:                  Spec(.text, .file, "Path")
        case .fileSize:              Spec(.integer, .file, "File Size")
        case .modificationDate:      Spec(.timestamp, .file, "Modified")
        case .mediaType:             Spec(.mediaType, .tag, "Media Type")
        case .title:                 Spec(.text, .tag, "Title", searchable: true, groupable: true)
        case .albumTitle:            Spec(.text, .tag, "Album", searchable: true, groupable: true)
        case .artist:                Spec(.text, .tag, "Artist", searchable: true, groupable: true, multiValued: true)
        case .albumArtist:           Spec(.text, .tag, "Album Artist", searchable: true, groupable: true, multiValued: true)
        case .genre:                 Spec(.text, .tag, "Genre", searchable: true, groupable: true, multiValued: true)
        case .composer:              Spec(.text, .tag, "Composer", searchable: true, groupable: true, multiValued: true)
        case .grouping:              Spec(.text, .tag, "Grouping", groupable: true)
        case .albumTrackNumber:      Spec(.integer, .tag, "Track")
        case .albumTrackCount:       Spec(.integer, .tag, "Track Count")
        case .discNumber:            Spec(.integer, .tag, "Disc")
        case .discCount:             Spec(.integer, .tag, "Disc Count")
        case .isCompilation:         Spec(.bool, .tag, "Compilation")
        case .releaseDate:           Spec(.date, .tag, "Release Date")
        case .year:                  Spec(.integer, .tag, "Year", groupable: true)
        case .beatsPerMinute:        Spec(.integer, .tag, "BPM")
        case .comments:              Spec(.text, .tag, "Comments")
        case .lyrics:                Spec(.text, .tag, "Lyrics")
        case .hasArtwork:            Spec(.bool, .tag, "Artwork")
        case .musicBrainzTrackID:    Spec(.text, .tag, "MusicBrainz Track ID")
        case .musicBrainzReleaseTrackID: Spec(.text, .tag, "MusicBrainz Release Track ID")
        case .musicBrainzAlbumID:    Spec(.text, .tag, "MusicBrainz Album ID")
        case .musicBrainzArtistID:   Spec(.text, .tag, "MusicBrainz Artist ID")
        case .musicBrainzAlbumArtistID: Spec(.text, .tag, "MusicBrainz Album Artist ID")
        case .musicBrainzReleaseGroupID: Spec(.text, .tag, "MusicBrainz Release Group ID")
        case .replayGainTrackGain:   Spec(.real, .tag, "ReplayGain Track Gain")
        case .replayGainTrackPeak:   Spec(.real, .tag, "ReplayGain Track Peak")
        case .replayGainAlbumGain:   Spec(.real, .tag, "ReplayGain Album Gain")
        case .replayGainAlbumPeak:   Spec(.real, .tag, "ReplayGain Album Peak")
        case .tagRating:             Spec(.integer, .tag, "Tag Rating")
        case .playbackDuration:      Spec(.duration, .stream, "Duration")
        case .container:             Spec(.text, .stream, "Container", groupable: true)
        case .audioCodec:            Spec(.text, .stream, "Audio Codec", groupable: true)
        case .videoCodec:            Spec(.text, .stream, "Video Codec", groupable: true)
        case .bitRate:               Spec(.integer, .stream, "Bit Rate")
        case .sampleRate:            Spec(.integer, .stream, "Sample Rate")
        case .channels:              Spec(.integer, .stream, "Channels")
        case .bitDepth:              Spec(.integer, .stream, "Bit Depth")
        case .width:                 Spec(.integer, .stream, "Width")
        case .height:                Spec(.integer, .stream, "Height")
        case .frameRate:             Spec(.real, .stream, "Frame Rate")
        case .fileType:              Spec(.text, .stream, "File Type", groupable: true)
        case .isPartial:             Spec(.bool, .stream, "Partial")
        case .partialReason:         Spec(.text, .stream, "Partial Read")
        case .chapterCount:          Spec(.integer, .stream, "Chapters")
        case .declaredDuration:      Spec(.duration, .stream, "Declared Duration")
        case .isDecodable:           Spec(.bool, .stream, "Decodable")
        case .undecodableReason:     Spec(.text, .stream, "Not Decodable")
        case .hasLyrics:             Spec(.bool, .tag, "Lyrics Present")
        case .hasSyncedLyrics:       Spec(.bool, .tag, "Synced Lyrics")
        case .lyricsLanguage:        Spec(.text, .tag, "Lyrics Language", groupable: true, multiValued: true)
        case .playCount:             Spec(.integer, .library, "Plays")
        case .skipCount:             Spec(.integer, .library, "Skips")
        case .lastPlayedDate:        Spec(.timestamp, .library, "Last Played")
        case .rating:                Spec(.integer, .library, "Rating")
        case .dateAdded:             Spec(.timestamp, .library, "Date Added")
        case .trackGain:             Spec(.real, .analysis, "Track Gain")
        case .trackPeak:             Spec(.real, .analysis, "Track Peak")
        case .albumGain:             Spec(.real, .analysis, "Album Gain")
        case .albumPeak:             Spec(.real, .analysis, "Album Peak")
        case .loudness:              Spec(.real, .analysis, "Loudness")
        case .loudnessRange:         Spec(.real, .analysis, "Loudness Range")
        case .analysisVersion:       Spec(.integer, .analysis, "Analysis Version")
        }
    }

    /// Position in `allCases`: the index into `MediaItem`'s value storage. A payload-free enum is stored as its
    /// case number (declaration order, which is `allCases` order), so this is a load, not a hash of the raw
    /// string; it runs on every property access of every row read. MediaModelTests checks the correspondence.
    @inline(__always) public var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    /// Properties that a rescan refreshes from the file (everything not kept by the library or measured
    /// by `mlib analyze`).
    public static let fileDerived: [MediaProperty] = allCases.filter { $0.spec.origin != .library && $0.spec.origin != .analysis }
    /// What `mlib analyze` measures; `MediaIndex`'s `storeAnalysis` writes them, a change of the audio clears them.
    public static let analysis: [MediaProperty] = allCases.filter { $0.spec.origin == .analysis }
    /// User data the index owns; a rescan, a retag or a move never touches these.
    public static let userData: [MediaProperty] = [.playCount, .skipCount, .lastPlayedDate, .rating, .dateAdded]

    public static func < (a: Self, b: Self) -> Bool { a.ordinal < b.ordinal }

    /// Resolves user-typed names: exact key, case-insensitive key, or a common alias (`album`, `track`…).
    public init?(name: String) {
        if let p = MediaProperty(rawValue: name) { self = p; return }
        let lower = name.lowercased()
        if let p = MediaProperty.allCases.first(where: { $0.rawValue.lowercased() == lower }) { self = p; return }
        guard let p = MediaProperty.aliases[lower] else { return nil }
        self = p
    }

    public static let aliases: [String: MediaProperty] = [
        "id": .persistentID, "album": .albumTitle, "albumartist": .albumArtist, "album_artist": .albumArtist,
        "track": .albumTrackNumber, "tracknumber": .albumTrackNumber, "tracktotal": .albumTrackCount,
        "trackcount": .albumTrackCount, "disc": .discNumber, "discnumber": .discNumber, "disctotal": .discCount,
        "compilation": .isCompilation, "comp": .isCompilation, "date": .releaseDate, "bpm": .beatsPerMinute,
        "comment": .comments, "duration": .playbackDuration, "length": .playbackDuration, "format": .fileType, "filetype": .fileType, "partial": .isPartial, "damaged": .isPartial, "chapters": .chapterCount, "declared": .declaredDuration, "decodable": .isDecodable,
        "codec": .audioCodec, "bitrate": .bitRate, "samplerate": .sampleRate, "size": .fileSize,
        "mtime": .modificationDate, "plays": .playCount, "skips": .skipCount, "lastplayed": .lastPlayedDate,
        "added": .dateAdded, "artwork": .hasArtwork, "type": .mediaType, "kind": .mediaType,
        "mb_trackid": .musicBrainzTrackID, "mb_albumid": .musicBrainzAlbumID, "mb_artistid": .musicBrainzArtistID,
        "mb_albumartistid": .musicBrainzAlbumArtistID, "mb_releasegroupid": .musicBrainzReleaseGroupID,
        "mb_releasetrackid": .musicBrainzReleaseTrackID, "fps": .frameRate, "bits": .bitDepth,
        "tagrating": .tagRating, "lufs": .loudness, "lra": .loudnessRange,
    ]
}

extension MediaProperty.Spec {
    init(_ type: MediaProperty.ValueType, _ origin: MediaProperty.Origin, _ displayName: String,
         searchable: Bool = false, groupable: Bool = false, multiValued: Bool = false) {
        self.init(type: type, origin: origin, displayName: displayName, searchable: searchable, groupable: groupable,
                  multiValued: multiValued)
    }
}
