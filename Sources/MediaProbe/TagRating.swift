/// A rating written in a file's tags, scaled to mlib's 0–5 stars (mlib(1), "Ratings in tags"). Taggers
/// disagree on scales, so each key has its convention:
/// - ID3v2 `POPM` (0–255, Windows Media Player / foobar2000 / MusicBee): 1–31 → 1, 32–95 → 2, 96–159 → 3,
///   160–223 → 4, 224–255 → 5, so the values those players write (1, 64, 128, 196, 255) are 1…5 stars;
/// - `FMPS_RATING` (Vorbis comment, ID3 TXXX, APE): a fraction 0.0–1.0 (× 5, rounded);
/// - MP4 `rate` (iTunes-style, as mutagen and MediaMonkey write it): 0–100 (÷ 20, rounded);
/// - ASF `WM/SharedUserRating` (Windows Media Player): 1, 25, 50, 75, 99 are 1…5 stars (1 + value ÷ 25, rounded);
/// - `RATING` (Vorbis comment, APE, ID3 TXXX, Matroska), written in any of three scales, told apart by the
///   value: a decimal fraction up to 1 ("0.8") is 0–1, a number up to 5 is stars ("4", "2.7" → 3), a number
///   up to 100 is percent ("80" → 4). Larger values, text and negative numbers are ignored.
/// Zero on any scale is "not rated" (nil), as those players write it; a positive value never rounds to 0.
/// When several are present the first of POPM, FMPS_RATING, RATE, WM/SHAREDUSERRATING, RATING that gives a
/// rating wins.
enum TagRating {
    /// The canonical tag keys read, in priority order (`TagMapping` keeps their values in the tag map).
    static let keys = ["POPM", "FMPS_RATING", "RATE", "WM/SHAREDUSERRATING", "RATING"]

    static func stars(_ tags: [String: String]) -> Int64? {
        for key in keys {
            // A key may hold several values ("; "-joined, e.g. one POPM frame per player): the first rating wins.
            for value in tags[key]?.components(separatedBy: "; ") ?? [] {
                if let stars = stars(key: key, value) { return stars }
            }
        }
        return nil
    }

    static func stars(key: String, _ text: String) -> Int64? {
        guard let value = TagMapping.leadingNumber(text), value.isFinite, value > 0 else { return nil }
        switch key {
        case "POPM":
            guard value <= 255 else { return nil }
            switch Int(value) {
            case ..<32: return 1
            case ..<96: return 2
            case ..<160: return 3
            case ..<224: return 4
            default: return 5
            }
        case "FMPS_RATING": return value <= 1 ? scaled(value * 5) : nil
        case "RATE": return value <= 100 ? scaled(value / 20) : nil
        case "WM/SHAREDUSERRATING": return value <= 100 ? scaled(1 + value / 25) : nil
        default:
            if text.contains("."), value <= 1 { return scaled(value * 5) }
            if value <= 5 { return scaled(value) }
            if value <= 100 { return scaled(value / 20) }
            return nil
        }
    }

    /// Rounded to whole stars (half up), at least 1 for any positive value.
    private static func scaled(_ stars: Double) -> Int64 { max(1, min(5, Int64(stars.rounded(.toNearestOrAwayFromZero)))) }
}
