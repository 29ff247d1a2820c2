import Foundation

/// A count of listens from the listening history compared with a number (issue 40): `plays(30) >= 3`
/// (played at least 3 times in the last 30 days), `skips("1w") > 0`, `plays() == 0` (never played since
/// the history began). The window is a number of days, or a span as `mlib history --since` takes it
/// ("12h", "7d", "2w", "3m", "1y"); none is the whole history. The window ends now, when the query runs: a
/// smart playlist's "On repeat" is always the last 30 days. Answered by the store (a count over its
/// `history` table, one row per play or skip), never in memory: a view of items has no history.
/// The right-hand side may be another count of the same item's history instead of a number:
/// `skips() > plays()` (skipped more than played), `plays(30) > plays("1y")`.
public struct HistoryTerm: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable { case plays, skips }

    public var kind: Kind
    /// How far back, in seconds before now; nil: the whole history.
    public var window: Double?
    /// How the window was written (`30`, `"1w"`), kept so that the term renders back as written.
    public var windowText: String?
    public var op: Comparison.Operator
    /// The number compared with (0 when `against` is set).
    public var count: Int64
    /// Another count of the item's history compared with instead of `count` (`skips() > plays()`).
    public var against: Count?
    /// Whose listens both counts read: nil, the owner's (the rows without a user and the owner account's);
    /// a name, that user's only. Not written in the query text: `Library.predicate(_:for:)` sets it for a
    /// user who is not the owner, so a stored smart playlist counts each user's own listens.
    public var listener: String?

    /// A count of one kind within a window: the right-hand side of `skips() > plays()`.
    public struct Count: Sendable, Hashable, CustomStringConvertible {
        public var kind: Kind
        public var window: Double?
        public var windowText: String?

        public init(_ kind: Kind, window: String?) throws {
            self.kind = kind
            windowText = window
            self.window = try HistoryTerm.seconds(kind, window)
        }

        public var description: String {
            "\(kind.rawValue)(\(windowText.map { Double($0) != nil ? $0 : "\"" + $0 + "\"" } ?? ""))"
        }
    }

    public init(_ kind: Kind, window: String?, _ op: Comparison.Operator, _ count: Int64) throws {
        self.kind = kind
        self.op = op
        self.count = count
        windowText = window
        guard [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) else {
            throw QueryError("\(kind.rawValue)(…) compares with ==, !=, <, <=, > or >=, not \(op.rawValue)")
        }
        self.window = try Self.seconds(kind, window)
    }

    /// `kind(window) OP against` (`skips() > plays()`).
    public init(_ kind: Kind, window: String?, _ op: Comparison.Operator, against: Count) throws {
        try self.init(kind, window: window, op, 0)
        self.against = against
    }

    /// A window as seconds before now: a number of days, or a span; nil: the whole history.
    static func seconds(_ kind: Kind, _ window: String?) throws -> Double? {
        guard let window else { return nil }
        if let days = Double(window), days.isFinite, days >= 0 { return days * 86400 }
        if let start = QueryLiterals.relativeTimestamp(window.hasPrefix("-") ? window : "-" + window, now: Date(timeIntervalSince1970: 0)) {
            return -start
        }
        throw QueryError("\(kind.rawValue)(\(window)): the window is a number of days or a span (12h, 7d, 2w, 3m, 1y)")
    }

    /// The format-string form: `plays(30) >= 3`, `skips("1w") > 0`, `plays() == 0`, `skips() > plays()`.
    public var description: String {
        let left = Count(unchecked: kind, window: window, windowText: windowText)
        return "\(left) \(op.rawValue) \(against.map(\.description) ?? String(count))"
    }
}

extension HistoryTerm.Count {
    init(unchecked kind: HistoryTerm.Kind, window: Double?, windowText: String?) {
        self.kind = kind
        self.window = window
        self.windowText = windowText
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
