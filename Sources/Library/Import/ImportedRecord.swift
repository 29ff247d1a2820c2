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

    /// Throws `unreadable` unless `file` can be read: every reader asks first, so a missing file is the same
    /// one line in every format (Foundation's stream would open it, fail later and warn on the way).
    static func requireReadable(_ file: String) throws {
        guard FileManager.default.isReadableFile(atPath: file) else { throw unreadable(file: file, reason: "no such file, or not readable") }
    }

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

/// Dates as the formats write them: "2024-05-01T12:00:00Z" (iTunes' plist `<date>`), "2026-03-16
/// 12:00:00+00:00" or "…T…Z" with fractions (Navidrome). Parsed by hand: Foundation's
/// ISO8601DateFormatter was a third of a Library.xml import's CPU time.
enum ImportDates {
    /// `YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|±HH:MM|±HHMM]` (no zone: UTC); nil for anything else.
    static func iso8601(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard b.count >= 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { fraction += Double(b[i] - 0x30) * scale; scale /= 10; i += 1 }
        }
        var offset = 0
        if i < b.count {
            switch b[i] {
            case UInt8(ascii: "Z"): i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                guard let h = number(i + 1, 2) else { return nil }
                let colon = i + 3 < b.count && b[i + 3] == UInt8(ascii: ":")
                guard let m = number(i + (colon ? 4 : 3), 2) else { return nil }
                offset = sign * (h * 3600 + m * 60)
                i += colon ? 6 : 5
            default: return nil
            }
        }
        guard i == b.count else { return nil }
        // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Date(timeIntervalSince1970: Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction)
    }
}
