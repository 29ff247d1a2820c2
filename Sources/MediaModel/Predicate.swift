import Foundation

/// The one language of filtering (see ARCHITECTURE.md). Every front end produces this tree: the
/// NSPredicate-style format parser, the short `field:value` CLI form, `MediaPropertyPredicate` and the Swift
/// builder. Every back end consumes it: the SQL compiler in MediaIndex and `evaluate(_:)` in memory, which
/// tests hold to the same answers.
public indirect enum Predicate: Sendable, Hashable {
    case all                        // TRUEPREDICATE
    case none                       // FALSEPREDICATE
    case comparison(Comparison)
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)
    /// Full-text search over the searchable properties (bare words on the command line). Every word must
    /// match the start of a word in title, album, artist, album artist, composer or genre (folded [cd]).
    case search(String)
    /// The items that are the files of a host of a shared PostgreSQL library (`host:NAME` on the command
    /// line, `HOST "NAME"` in a format string): NAME is a host's name, a prefix of its id (4 characters or
    /// more), a share's name, or `this` (this host and the shares it joined). Stores answer it (`SQLStore`);
    /// an SQLite library is one host's: `this` and its host name match every item there, any other none.
    case host(String)
    /// A count of the item's listens in the listening history compared with a number (`plays(30) >= 3`,
    /// `HistoryTerm`). Stores answer it; the in-memory evaluator and the library view refuse it.
    case history(HistoryTerm)
}

public struct Comparison: Sendable, Hashable {
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case between = "BETWEEN", `in` = "IN", contains = "CONTAINS", beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"
    }

    /// The right-hand side. `.null` is `nil` in a format string (`title == nil`: the property has no value).
    public enum Operand: Sendable, Hashable {
        case value(MediaValue)
        case null
        case list([MediaValue])                  // IN {a, b, c}
        case range(MediaValue, MediaValue)       // BETWEEN {lo, hi}, inclusive
    }

    /// `[c]` case-insensitive, `[d]` diacritic-insensitive, as NSComparisonPredicate.Options.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let caseInsensitive = Options(rawValue: 1)
        public static let diacriticInsensitive = Options(rawValue: 2)
        public static let cd: Options = [.caseInsensitive, .diacriticInsensitive]
    }

    public var property: MediaProperty
    public var op: Operator
    public var operand: Operand
    public var options: Options

    public init(_ property: MediaProperty, _ op: Operator, _ operand: Operand, options: Options = []) {
        self.property = property
        self.op = op
        self.operand = operand
        self.options = options
    }
}

/// Text folding shared by every back end, so `[cd]` means one thing everywhere: the SQL store keeps a
/// folded copy of each searchable column made by this function, and the in-memory evaluator calls it.
public enum TextFolding {
    public static func fold(_ s: String, _ options: Comparison.Options) -> String {
        var o: String.CompareOptions = []
        if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
        if o.isEmpty { return s }
        // ASCII fast path (most tags): no diacritics, and case folding is plain lower-casing — the same
        // result as Foundation's folding, ~50× cheaper, which matters per row in SQL and in sorting.
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            guard options.contains(.caseInsensitive), s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
            return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
        }
        // Foundation's folding lower-cases for .caseInsensitive and strips marks that decompose (ó → o);
        // letters that are their own letter (ð, þ, æ, ø, œ, ł…) are then transliterated as beets' unidecode
        // does, so `gudnadottir` finds "Guðnadóttir" and `aevintyri` "Ævintýri".
        let folded = s.folding(options: o, locale: nil)
        guard options.contains(.diacriticInsensitive),
              folded.unicodeScalars.contains(where: { transliterations[$0] != nil }) else { return folded }
        var out = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if let replacement = transliterations[scalar] { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// Letters without a decomposition, and their Latin spelling (unidecode's). Changing this table
    /// changes what the index stores in its `*_folded` columns: it needs a migration step that recomputes
    /// them (see Schema.swift, "v6").
    static let transliterations: [Unicode.Scalar: String] = [
        "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "ß": "ss", "ẞ": "SS",
        "œ": "oe", "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H", "ı": "i", "ŧ": "t",
        "Ŧ": "T", "ŋ": "ng", "Ŋ": "NG", "ĳ": "ij", "Ĳ": "IJ", "ſ": "s", "ƒ": "f", "ɐ": "a", "ĸ": "q",
    ]
    /// The fully folded form stored in the index's `*_folded` columns.
    public static func folded(_ s: String) -> String { fold(s, .cd) }
}

/// Unambiguous names for files that also import Foundation (which has its own `Predicate` and
/// `SortDescriptor`): `MediaPredicate`, `MediaSortDescriptor`.
public typealias MediaPredicate = Predicate
public typealias MediaSortDescriptor = SortDescriptor
