/// The short command-line form, like beets: each word is one term, terms are ANDed.
///
///     artist:Björk year:1990..1999 genre:rock,pop ^comments:live "title:love song" homogenic
///
/// - `field:value` on text: case- and diacritic-insensitive substring (`CONTAINS[cd]`);
///   `field:=value` exact (`==`); `field:=~value` exact ignoring case and diacritics (`==[cd]`);
///   `field::regex` regular expression found anywhere in the value (`MATCHES[c] ".*(?:regex).*"`).
/// - on numbers, durations, booleans, media types: equality (`year:1999`, `length:3:30`, `comp:yes`,
///   `type:music`); ranges `a..b`, `a..`, `..b` (inclusive) on numbers, durations and dates.
/// - dates (`date:2001`, `added:2024-05..`, `added:-7d..`) mean the whole written period: `date:2001` is
///   any day of 2001, `..2003-05` ends with May 2003.
/// - `path:/music/x` (a value starting with "/") is a directory/path prefix, byte exact.
/// - `field:` (empty) means the field has no value; `^field:` that it has one.
/// - `a,b` is OR (`genre:rock,pop`); `\,` is a literal comma, `\\` a backslash.
/// - `^term` negates a term. A bare word is a full-text search (`Predicate.search`).
public enum ShortQueryParser {
    /// Parses terms as given (each command-line argument is one term; spaces inside are part of it).
    public static func parse(terms: [String]) throws -> Predicate {
        var parts: [Predicate] = []
        for term in terms { parts.append(try parse(term: term)) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Parses a whole line, splitting words at spaces outside quotes (`"title:love song" ^live`), with
    /// AND, OR, NOT and parentheses between terms as `QueryArguments` reads them.
    public static func parse(_ line: String) throws -> Predicate {
        try QueryArguments.predicate(try split(line))
    }

    /// Shell-like word splitting: whitespace separates, "…" and '…' group; quotes are removed.
    public static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var quoteStart = 0
        for (i, ch) in line.enumerated() {
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch; quoteStart = i; inWord = true
            } else if ch.isWhitespace {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(ch); inWord = true
            }
        }
        if quote != nil { throw QueryError("unterminated quote", query: line, position: quoteStart) }
        if inWord { words.append(current) }
        return words
    }

    public static func parse(term raw: String) throws -> Predicate {
        var term = Substring(raw)
        var negate = false
        if term.hasPrefix("^") { negate = true; term = term.dropFirst() }
        let offset = negate ? 1 : 0
        func fail(_ message: String, _ at: Int) -> QueryError { QueryError(message, query: raw, position: at) }

        guard let colon = term.firstIndex(of: ":"),
              term[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !term[..<colon].isEmpty else {
            if term.isEmpty { throw fail("empty term", offset) }
            let p = FullTextSearch.predicate(String(term))
            return negate ? .not(p) : p
        }
        let name = String(term[..<colon])
        if name.lowercased() == "host" {
            let host = String(term[term.index(after: colon)...])
            if host.isEmpty { throw fail("host: needs a host's name, an id prefix, a share's name or 'this'", offset + name.count + 1) }
            return negate ? .not(.host(host)) : .host(host)
        }
        guard let property = MediaProperty(name: name) else {
            throw fail("unknown field '\(name)'" + PredicateParser.suggestion(for: name), offset)
        }
        var value = term[term.index(after: colon)...]
        let valueOffset = offset + name.count + 1
        var mode = Mode.natural
        var skipped = 0
        if value.hasPrefix("=~") { mode = .exactFolded; value = value.dropFirst(2); skipped = 2 }
        else if value.hasPrefix("=") { mode = .exact; value = value.dropFirst(); skipped = 1 }
        else if value.hasPrefix(":") { mode = .regex; value = value.dropFirst(); skipped = 1 }
        // `album:"bright engine"`: a quoted value is the text between the quotes (the shell keeps them when
        // the whole term is quoted once more, and smart playlists store them).
        if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
            value = value.dropFirst().dropLast()
            skipped += 1
        }

        let p: Predicate
        do {
            if value.isEmpty && mode == .natural {
                p = .comparison(Comparison(property, .equal, .null))
            } else if mode == .regex {
                p = try comparison(property, .matches, .value(.text("(?s).*(?:" + String(value) + ").*")), .caseInsensitive)
            } else {
                let alternatives = splitAlternatives(String(value))
                p = .anyOf(try alternatives.map { try single(property, $0, mode) })
            }
        } catch let e as QueryError {
            throw e.located(in: raw, at: valueOffset + skipped)
        }
        return negate ? .not(p) : p
    }

    enum Mode { case natural, exact, exactFolded, regex }

    private static func comparison(_ p: MediaProperty, _ op: Comparison.Operator, _ operand: Comparison.Operand,
                                   _ options: Comparison.Options = []) throws -> Predicate {
        .comparison(try Comparison(p, op, operand, options: options).normalized())
    }

    /// One alternative of a term (between commas).
    private static func single(_ property: MediaProperty, _ value: String, _ mode: Mode) throws -> Predicate {
        let type = property.spec.type
        switch mode {
        case .exact: return try comparison(property, .equal, .value(.text(value)))
        case .exactFolded: return try comparison(property, .equal, .value(.text(value)), .cd)
        case .regex, .natural: break
        }
        if let (lo, hi) = range(value), [.integer, .real, .duration, .timestamp, .date].contains(type) {
            // A range that runs backwards matches nothing: said, not answered with silence (`year:2000..1990`).
            if let lo, let hi, let a = orderKey(lo, type), let b = orderKey(hi, type), a > b {
                throw QueryError("the range \(value) runs backwards and matches nothing: write \(hi)..\(lo)")
            }
            var parts: [Predicate] = []
            if let lo { parts.append(try bound(property, lo, lower: true)) }
            if let hi { parts.append(try bound(property, hi, lower: false)) }
            return .allOf(parts)
        }
        switch type {
        case .text:
            if property == .path, value.hasPrefix("/") {
                return try comparison(property, .beginsWith, .value(.text(value)))
            }
            return try comparison(property, .contains, .value(.text(value)), .cd)
        case .date, .timestamp:
            if QueryLiterals.Period(value) != nil {
                return .allOf([try bound(property, value, lower: true), try bound(property, value, lower: false)])
            }
            return try comparison(property, .equal, .value(.text(value)))
        default:
            return try comparison(property, .equal, .value(.text(value)))
        }
    }

    /// `a..b`, `a..`, `..b` → bounds; nil when the value is not a range.
    private static func range(_ value: String) -> (String?, String?)? {
        guard let r = value.range(of: "..") else { return nil }
        let lo = String(value[..<r.lowerBound]), hi = String(value[r.upperBound...])
        if lo.isEmpty && hi.isEmpty { return nil }
        return (lo.isEmpty ? nil : lo, hi.isEmpty ? nil : hi)
    }

    /// Where a range's end lies, to compare the two ends: a number, a duration's seconds, a date's or a
    /// timestamp's start (its period's, or a relative one's); nil when it is none of these (the bound
    /// then reports it).
    private static func orderKey(_ text: String, _ type: MediaProperty.ValueType) -> Double? {
        switch type {
        case .integer, .real: return Double(text)
        case .duration: return QueryLiterals.duration(text)
        default: return QueryLiterals.Period(text)?.timestamp ?? QueryLiterals.relativeTimestamp(text)
        }
    }

    /// One end of a range. Dates are periods: the lower bound is the start of its period, the upper bound
    /// excludes everything from the start of the next period (`..2003` includes 2003-12-31).
    private static func bound(_ property: MediaProperty, _ text: String, lower: Bool) throws -> Predicate {
        let type = property.spec.type
        if type == .date || type == .timestamp, let period = QueryLiterals.Period(text) {
            let start: MediaValue = type == .date ? .text(period.isoText) : .real(period.timestamp)
            let end: MediaValue = type == .date ? .text(period.next.isoText) : .real(period.next.timestamp)
            return lower ? try comparison(property, .greaterOrEqual, .value(start))
                         : try comparison(property, .less, .value(end))
        }
        return try comparison(property, lower ? .greaterOrEqual : .lessOrEqual, .value(.text(text)))
    }

    /// Splits at unescaped commas, resolving `\,` and `\\`.
    static func splitAlternatives(_ value: String) -> [String] {
        var out: [String] = []
        var current = ""
        var escaped = false
        for ch in value {
            if escaped { current.append(ch); escaped = false }
            else if ch == "\\" { escaped = true }
            else if ch == "," { out.append(current); current = "" }
            else { current.append(ch) }
        }
        if escaped { current.append("\\") }
        out.append(current)
        return out
    }
}
