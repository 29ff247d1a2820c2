/// The kind of a media item, as Apple's `MPMediaType`: an option set whose audio kinds sit in the low
/// byte and video kinds in the next, so `anyAudio`/`anyVideo` are masks. Raw values match Apple's.
public struct MediaType: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let music = MediaType(rawValue: 1 << 0)
    public static let podcast = MediaType(rawValue: 1 << 1)
    public static let audioBook = MediaType(rawValue: 1 << 2)
    public static let audioITunesU = MediaType(rawValue: 1 << 3)
    public static let anyAudio = MediaType(rawValue: 0x00ff)

    public static let movie = MediaType(rawValue: 1 << 8)
    public static let tvShow = MediaType(rawValue: 1 << 9)
    public static let videoPodcast = MediaType(rawValue: 1 << 10)
    public static let musicVideo = MediaType(rawValue: 1 << 11)
    public static let videoITunesU = MediaType(rawValue: 1 << 12)
    public static let homeVideo = MediaType(rawValue: 1 << 13)
    public static let anyVideo = MediaType(rawValue: 0xff00)

    public static let any = MediaType(rawValue: ~0)

    /// Names used on the command line, in JSON and in predicates (`mediaType == "music"`).
    public static let named: [(String, MediaType)] = [
        ("music", .music), ("podcast", .podcast), ("audioBook", .audioBook), ("audioITunesU", .audioITunesU),
        ("movie", .movie), ("tvShow", .tvShow), ("videoPodcast", .videoPodcast), ("musicVideo", .musicVideo),
        ("videoITunesU", .videoITunesU), ("homeVideo", .homeVideo),
        ("anyAudio", .anyAudio), ("anyVideo", .anyVideo), ("any", .any),
    ]

    public init?(name: String) {
        let lower = name.lowercased()
        guard let hit = Self.named.first(where: { $0.0.lowercased() == lower }) else { return nil }
        self = hit.1
    }

    /// The first single kind's name ("music", "movie"…), for display.
    public var name: String {
        Self.named.first(where: { $0.1 == self })?.0
            ?? Self.named.first(where: { $0.1.rawValue & self.rawValue != 0 && $0.1.rawValue.nonzeroBitCount == 1 })?.0
            ?? "unknown"
    }
}
