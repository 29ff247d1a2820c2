import Foundation

/// The ranges every value kept in a library stays within, the same for every store and every front:
/// timestamps (and the dates written from them) within the years 1–9999, durations finite and within a
/// century, counts never negative, ratings 0–5. Writers refuse what lies outside (`problem`); readers
/// clamp what an older mlib, another program or a hand edit left outside (`bounded`), so that no front
/// ever traps converting it (a `lastPlayedDate` of 1e297 seconds made `Int64(_:)` trap at every start).
public enum StoredBounds {
    /// 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z, in seconds since 1970.
    public static let timestamps: ClosedRange<Double> = -62_135_596_800 ... 253_402_300_799
    /// A century: longer than any file, short enough that every conversion to an integer is exact.
    public static let durations: ClosedRange<Double> = 0 ... 3_155_760_000
    public static let ratings: ClosedRange<Int64> = 0 ... 5

    /// Whether `date` may be stored (a play's time, a playlist's date).
    public static func contains(_ date: Date) -> Bool { timestamps.contains(date.timeIntervalSince1970) }

    /// Why `value` cannot be stored as `property`, or nil.
    public static func problem(_ property: MediaProperty, _ value: MediaValue?) -> String? {
        guard let value, let bounded = bounded(property, value), bounded != value else { return nil }
        return "\(property.rawValue) \(value) is out of range (\(range(of: property)))"
    }

    /// `value` read back as `property` within its bounds: clamped to the nearest bound, nil for a number
    /// that is not one (NaN, ±infinity). A value within bounds is returned unchanged.
    public static func bounded(_ property: MediaProperty, _ value: MediaValue) -> MediaValue? {
        switch property {
        case .playCount, .skipCount:
            if case .integer(let n) = value { return n < 0 ? .integer(0) : value }
        case .rating, .tagRating:
            if case .integer(let n) = value { return ratings.contains(n) ? value : .integer(min(max(n, 0), 5)) }
        default: break
        }
        guard case .real(let d) = value else { return value }
        guard d.isFinite else { return nil }
        switch property.spec.type {
        case .timestamp: return timestamps.contains(d) ? value : .real(min(max(d, timestamps.lowerBound), timestamps.upperBound))
        case .duration: return durations.contains(d) ? value : .real(min(max(d, durations.lowerBound), durations.upperBound))
        default: return value
        }
    }

    private static func range(of property: MediaProperty) -> String {
        switch property {
        case .playCount, .skipCount: "at least 0"
        case .rating, .tagRating: "0–5"
        default:
            switch property.spec.type {
            case .timestamp: "years 1–9999"
            case .duration: "0 to a century, in seconds"
            default: "a finite number"
            }
        }
    }
}
