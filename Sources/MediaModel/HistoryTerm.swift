import Foundation

/// A count of listens from the listening history compared with a number (issue 40): `plays(30) >= 3`
/// (played at least 3 times in the last 30 days), `skips("1w") > 0`, `plays() == 0` (never played since
/// the history began). The window is a number of days, or a span as `mlib history --since` takes it
/// ("12h", "7d", "2w", "3m", "1y"); none is the whole history. The window ends now, when the query runs: a
/// smart playlist's "On repeat" is always the last 30 days. Answered by the store (a count over its
/// `history` table, one row per play or skip), never in memory: a view of items has no history.
public struct HistoryTerm: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable { case plays, skips }

    public var kind: Kind
    /// How far back, in seconds before now; nil: the whole history.
    public var window: Double?
    /// How the window was written (`30`, `"1w"`), kept so that the term renders back as written.
    public var windowText: String?
    public var op: Comparison.Operator
    public var count: Int64

    public init(_ kind: Kind, window: String?, _ op: Comparison.Operator, _ count: Int64) throws {
        self.kind = kind
        self.op = op
        self.count = count
        windowText = window
        guard [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) else {
            throw QueryError("\(kind.rawValue)(…) compares with ==, !=, <, <=, > or >=, not \(op.rawValue)")
        }
        guard let window else { self.window = nil; return }
        if let days = Double(window), days.isFinite, days >= 0 {
            self.window = days * 86400
        } else if let start = QueryLiterals.relativeTimestamp(window.hasPrefix("-") ? window : "-" + window, now: Date(timeIntervalSince1970: 0)) {
            self.window = -start
        } else {
            throw QueryError("\(kind.rawValue)(\(window)): the window is a number of days or a span (12h, 7d, 2w, 3m, 1y)")
        }
    }

    /// The format-string form: `plays(30) >= 3`, `skips("1w") > 0`, `plays() == 0`.
    public var description: String {
        let window = windowText.map { Double($0) != nil ? $0 : "\"" + $0 + "\"" } ?? ""
        return "\(kind.rawValue)(\(window)) \(op.rawValue) \(count)"
    }
}

extension Predicate {
    /// True when a `history` term is anywhere in the tree (only a store can answer it).
    public var readsHistory: Bool {
        switch self {
        case .history: true
        case .not(let inner): inner.readsHistory
        case .and(let ps), .or(let ps): ps.contains { $0.readsHistory }
        case .all, .none, .comparison, .search, .host: false
        }
    }
}
