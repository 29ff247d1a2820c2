import Foundation
import MediaModel

/// How `mlib history --since` (and every front that asks for "the last N days") names a start: `7d`
/// (or `-7d`; units h, d, w, m = 30 d, y = 365 d, as the query language's relative dates) is that long
/// before now; `2026-11-01`, `2026-11` or `2026` is the start of that day, month or year in local time
/// (`QueryLiterals.Period`).
public enum HistoryPeriod {
    public static func start(_ text: String, now: Date = Date()) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let seconds = QueryLiterals.relativeTimestamp(t.hasPrefix("-") ? t : "-" + t, now: now) {
            return Date(timeIntervalSince1970: seconds)
        }
        return QueryLiterals.Period(t).map { Date(timeIntervalSince1970: $0.timestamp) }
    }
}
