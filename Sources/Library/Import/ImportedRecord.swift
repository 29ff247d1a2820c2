import Foundation

/// The programs whose user data `mlib import-userdata` reads, one reader each.
public enum UserDataImportFormat: String, Sendable, CaseIterable, Codable {
    /// Apple Music / iTunes `Library.xml` (a property list): `ITunesLibraryReader`.
    case itunes
    /// An MPD sticker database (`sticker_file`), as myMPD and others write it: `MPDStickerReader`.
    case mpd
    /// A beets library (`library.db`) with mpdstats' flexible attributes: `BeetsLibraryReader`.
    case beets
    /// A Navidrome database's annotations, per user: `NavidromeReader`.
    case navidrome
    /// A ListenBrainz listens export (JSON lines, or a JSON array): `ListenBrainzReader`.
    case listenbrainz
}

/// What another program says a track is, for `UserDataMatcher`: its path (absolute, a file:// URL already
/// decoded, or relative to a music directory as MPD's), its MusicBrainz recording id, and its tags.
public struct ImportedTrack: Sendable, Hashable {
    public var path: String?
    public var recordingID: String?
    public var artist: String?
    public var album: String?
    public var title: String?
    /// Seconds.
    public var duration: Double?

    public init(path: String? = nil, recordingID: String? = nil, artist: String? = nil, album: String? = nil, title: String? = nil, duration: Double? = nil) {
        self.path = path
        self.recordingID = recordingID
        self.artist = artist
        self.album = album
        self.title = title
        self.duration = duration
    }

    /// How the report names a track it could not match: its path, else artist – title.
    public var label: String {
        if let path, !path.isEmpty { return path }
        return [artist, album, title].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " – ")
    }
}

/// One track's values as a reader found them, on mlib's scales already (rating 0–5, 0 none), or one
/// listen (`listenedAt`: a history row). `sourceUser`: whose they are in a file that keeps several users'
/// (Navidrome); nil in the others.
public struct ImportedRecord: Sendable, Hashable {
    public var track: ImportedTrack
    public var rating: Int?
    public var playCount: Int?
    public var skipCount: Int?
    public var lastPlayed: Date?
    public var loved = false
    public var listenedAt: Date?
    public var sourceUser: String?

    public init(track: ImportedTrack, rating: Int? = nil, playCount: Int? = nil, skipCount: Int? = nil, lastPlayed: Date? = nil,
                loved: Bool = false, listenedAt: Date? = nil, sourceUser: String? = nil) {
        self.track = track
        self.rating = rating
        self.playCount = playCount
        self.skipCount = skipCount
        self.lastPlayed = lastPlayed
        self.loved = loved
        self.listenedAt = listenedAt
        self.sourceUser = sourceUser
    }

    /// Whether the record carries anything to import.
    var hasValues: Bool {
        listenedAt != nil || (rating ?? 0) > 0 || (playCount ?? 0) > 0 || (skipCount ?? 0) > 0 || lastPlayed != nil || loved
    }
}

/// A reader of one format: calls `body` with each record, in the file's order, holding at most a few
/// records in memory (a 100,000-track Library.xml is streamed, not loaded).
public protocol UserDataReader {
    func read(_ body: (ImportedRecord) throws -> Void) throws
}

/// Why a file could not be imported (nothing of it was).
public enum UserDataImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not what its format says: where, and why.
    case malformed(file: String, reason: String)
    /// The file could not be opened or read.
    case unreadable(file: String, reason: String)
    /// Users named by the file that are no account of the library (and not mapped by `--user-map`).
    case unknownUsers([String])

    public var description: String {
        switch self {
        case .malformed(let file, let reason): "\(file): not a valid import file: \(reason); nothing was imported"
        case .unreadable(let file, let reason): "\(file): cannot read: \(reason)"
        case .unknownUsers(let names):
            "the file's users \(names.map { "\"\($0)\"" }.joined(separator: ", ")) are no users of this library: "
                + "map each with --user-map THEIRS=OURS (or THEIRS= to leave them out); nothing was imported"
        }
    }
}

/// Rating scales of the formats, to mlib's 0–5 stars (0: none). Each rounds to the nearest star, halves up.
enum RatingScale {
    /// iTunes: 0–100, 20 a star.
    static func fromPercent(_ value: Int) -> Int { clamp((Double(value) / 20).rounded(.toNearestOrAwayFromZero)) }
    /// MPD stickers (myMPD): 0–10, 2 a star (1 is half a star: rounds up to 1).
    static func fromTen(_ value: Double) -> Int { clamp((value / 2).rounded(.toNearestOrAwayFromZero)) }
    /// beets (mpdstats): 0.0–1.0.
    static func fromUnit(_ value: Double) -> Int { clamp((value * 5).rounded(.toNearestOrAwayFromZero)) }
    /// Navidrome: 0–5 already.
    static func fromStars(_ value: Int) -> Int { clamp(Double(value)) }

    private static func clamp(_ value: Double) -> Int { value.isFinite ? Int(min(5, max(0, value))) : 0 }
}
