import Foundation

/// Text comparison with the semantics of SQLite's BINARY collation (UTF-8 bytes, i.e. code points), so the
/// in-memory evaluator and the SQL compiler agree exactly. Swift's own `==` on `String` uses canonical
/// equivalence ("é" == "e\u{301}"), which SQL does not; exact comparisons here are by code point, and
/// the `[d]` modifier is the way to ignore such differences.
public enum TextMatching {
    public static func equal(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// -1, 0, 1 by UTF-8 bytes (= code point order).
    public static func compare(_ a: String, _ b: String) -> Int {
        var i = a.utf8.makeIterator(), j = b.utf8.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    public static func hasPrefix(_ s: String, _ p: String) -> Bool { s.utf8.starts(with: p.utf8) }
    public static func hasSuffix(_ s: String, _ p: String) -> Bool { s.utf8.reversed().starts(with: p.utf8.reversed()) }

    /// Substring test by bytes; the empty string is contained in every string (as SQLite's `instr`).
    public static func contains(_ s: String, _ needle: String) -> Bool {
        let h = Array(s.utf8), n = Array(needle.utf8)
        if n.isEmpty { return true }
        guard h.count >= n.count else { return false }
        outer: for start in 0...(h.count - n.count) {
            for k in 0..<n.count where h[start + k] != n[k] { continue outer }
            return true
        }
        return false
    }

    // MARK: Wildcards

    /// Escapes a literal for SQLite GLOB: `*`, `?` and `[` become one-character classes.
    public static func globEscaped(_ literal: String) -> String {
        var out = ""
        for ch in literal.unicodeScalars {
            switch ch {
            case "*": out += "[*]"
            case "?": out += "[?]"
            case "[": out += "[[]"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// Our LIKE pattern (`*` any run, `?` one character, `\*` `\?` `\\` literal; `%` and `_` are literal,
    /// unlike SQL's LIKE) as a SQLite GLOB pattern.
    public static func likeToGlob(_ pattern: String) -> String {
        translatingLike(pattern, anyRun: "*", oneCharacter: "?", literal: globEscaped)
    }

    /// Our LIKE pattern in another matcher's words (SQLite's GLOB, PostgreSQL's LIKE): `anyRun` for `*`,
    /// `oneCharacter` for `?`, every other character (an escaped one too) through `literal`; a trailing `\`
    /// stands for itself.
    public static func translatingLike(_ pattern: String, anyRun: String, oneCharacter: String, literal: (String) -> String) -> String {
        var out = ""
        var escaped = false
        for ch in pattern.unicodeScalars {
            if escaped {
                out += literal(String(ch))
                escaped = false
                continue
            }
            switch ch {
            case "\\": escaped = true
            case "*": out += anyRun
            case "?": out += oneCharacter
            default: out += literal(String(ch))
            }
        }
        if escaped { out += literal("\\") }
        return out
    }

    /// SQLite's GLOB over code points, for the patterns `globEscaped` / `likeToGlob` produce (`*`, `?`,
    /// and bracket classes with single characters, ranges or `^`).
    public static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        // Iterative matcher with backtracking to the last `*` (linear for our patterns).
        var pi = 0, ti = 0, starP = -1, starT = 0
        while ti < t.count {
            if pi < p.count {
                switch p[pi] {
                case "*":
                    starP = pi; starT = ti; pi += 1
                    continue
                case "?":
                    pi += 1; ti += 1
                    continue
                case "[":
                    if let (matched, next) = matchClass(p, pi, t[ti]) {
                        if matched { pi = next; ti += 1; continue }
                    } else if p[pi] == t[ti] { pi += 1; ti += 1; continue }
                default:
                    if p[pi] == t[ti] { pi += 1; ti += 1; continue }
                }
            }
            guard starP >= 0 else { return false }
            pi = starP + 1; starT += 1; ti = starT
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Matches `c` against the class starting at `p[start] == "["`; nil if the class is unterminated.
    private static func matchClass(_ p: [Unicode.Scalar], _ start: Int, _ c: Unicode.Scalar) -> (Bool, Int)? {
        var i = start + 1
        var invert = false
        if i < p.count, p[i] == "^" { invert = true; i += 1 }
        var matched = false
        var first = true
        while i < p.count {
            if p[i] == "]" && !first { return (matched != invert, i + 1) }
            if i + 2 < p.count, p[i + 1] == "-", p[i + 2] != "]" {
                if p[i] <= c && c <= p[i + 2] { matched = true }
                i += 3
            } else {
                if p[i] == c { matched = true }
                i += 1
            }
            first = false
        }
        return nil
    }

    // MARK: Articles

    /// Drops a leading "the ", "a " or "an " from folded (lower-case) text, for "ignore articles" sorting.
    public static func strippingArticles(_ folded: String) -> String {
        for article in ["the ", "a ", "an "] where folded.utf8.starts(with: article.utf8) {
            let rest = String(decoding: folded.utf8.dropFirst(article.utf8.count), as: UTF8.self)
            return rest.isEmpty ? folded : rest
        }
        return folded
    }
}

/// MATCHES: the whole string must match an ICU regular expression (NSRegularExpression). Used by the
/// in-memory evaluator and, registered as an SQL function, by the index; compiled patterns are cached.
public enum RegexMatcher {
    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var regexes: [String: NSRegularExpression] = [:]
    }
    private static let cache = Cache()

    public static func validate(_ pattern: String) throws {
        do { _ = try NSRegularExpression(pattern: pattern) } catch {
            throw QueryError("invalid regular expression \"\(pattern)\"")
        }
    }

    private static func regex(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i" : "-") + pattern
        cache.lock.lock(); defer { cache.lock.unlock() }
        if let r = cache.regexes[key] { return r }
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
              let r = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z",
                                               options: caseInsensitive ? [.caseInsensitive] : [])
        else { return nil }
        if cache.regexes.count > 256 { cache.regexes.removeAll() }
        cache.regexes[key] = r
        return r
    }

    /// `[c]` makes the expression case-insensitive; `[d]` strips diacritics from both text and pattern.
    public static func matches(_ text: String, pattern: String, options: Comparison.Options) -> Bool {
        let d: Comparison.Options = options.intersection(.diacriticInsensitive)
        let t = TextFolding.fold(text, d), p = TextFolding.fold(pattern, d)
        guard let r = regex(p, caseInsensitive: options.contains(.caseInsensitive)) else { return false }
        let ns = t as NSString
        return r.firstMatch(in: t, options: [], range: NSRange(location: 0, length: ns.length)) != nil
    }
}
