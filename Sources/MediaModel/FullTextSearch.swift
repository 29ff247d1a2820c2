import Foundation

/// `Predicate.search`: every word of the query must start a word of one of the searchable properties
/// (title, album, artist, album artist, composer, genre), case- and diacritic-insensitively. Words are runs
/// of letters, digits and private-use characters — the token rule of SQLite FTS5's `unicode61` tokenizer,
/// which the index uses for the same search.
public enum FullTextSearch {
    public static let properties: [MediaProperty] = MediaProperty.allCases.filter { $0.spec.searchable }

    /// The predicate for searching `text`: `Predicate.search`, or, when it has no words at all (`!!!`, `&`,
    /// `—`), the text itself found literally in a searchable property, case- and diacritic-insensitively
    /// (a search with no words matched every item, and `playlist add P '!!!'` added the whole library).
    public static func predicate(_ text: String) -> Predicate {
        guard queryTokens(text).isEmpty, !text.allSatisfy(\.isWhitespace) else { return .search(text) }
        return .anyOf(properties.map { .comparison(Comparison($0, .contains, .value(.text(text)), options: .cd)) })
    }

    /// The folded words of a query; punctuation separates words (`AC/DC` is `ac` and `dc`).
    public static func queryTokens(_ text: String) -> [String] { tokens(TextFolding.folded(text)) }

    public static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if isTokenScalar(s) { current.append(s) } else if !current.isEmpty {
                out.append(String(current)); current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { out.append(String(current)) }
        return out
    }

    static func isTokenScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }

    /// True when every query word prefixes some word of the item's searchable text.
    public static func matches(_ words: [String], _ item: MediaItem) -> Bool {
        if words.isEmpty { return true }
        var itemWords: [String] = []
        for p in properties { if let s = item[p]?.text { itemWords += tokens(TextFolding.folded(s)) } }
        return words.allSatisfy { w in itemWords.contains { TextMatching.hasPrefix($0, w) } }
    }

    /// The FTS5 MATCH expression for a query: each word quoted and prefix-matched (`"bjo"* "hom"*`), so
    /// FTS syntax characters in user input are never interpreted. nil when there are no words.
    public static func ftsMatchExpression(_ text: String) -> String? {
        let words = queryTokens(text)
        if words.isEmpty { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}
