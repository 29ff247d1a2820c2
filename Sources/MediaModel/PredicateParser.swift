/// Parses NSPredicate-style format strings (CoreData's `predicateWithFormat:` language) into `Predicate`:
///
///     artist ==[cd] "beyonce" AND (year BETWEEN {1990, 1999} OR genre IN {"Rock", "Pop"})
///     playbackDuration > 5:00 && NOT comments CONTAINS[c] "live"
///
/// Grammar (keywords are case-insensitive; AND binds tighter than OR; NOT tighter than both):
///
///     expr       = and { ("OR" | "||") and }
///     and        = unary { ("AND" | "&&") unary }
///     unary      = ("NOT" | "!") unary | "(" expr ")" | "TRUEPREDICATE" | "FALSEPREDICATE"
///                | "SEARCH" string | comparison
///     comparison = property operator [ "[" ("c"|"d"|"cd") "]" ] operand
///     operator   = == = != <> < <= =< > >= => BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE MATCHES
///     operand    = literal | "{" literal { "," literal } "}"
///     literal    = string | number | duration (5:00) | true | false | YES | NO | nil | NULL | name | %@
///
/// Errors carry the position of the token that went wrong and say what was expected there.
public struct PredicateParser {
    private let text: String
    private var tokens: [PredicateToken] = []
    private var index = 0
    private var arguments: [MediaValue?]
    private var argumentIndex = 0
    private var depth = 0

    /// How deeply parentheses and NOT may nest. A parser is recursive: ~37,000 '(' or 60,000 '!' overflowed
    /// its stack (SIGSEGV), in `mlib ls` and in a stored smart playlist alike; and SQLite refuses
    /// expressions deeper than 1,000 anyway.
    public static let maximumDepth = 100

    /// Parses `format`; `%@` placeholders take `arguments` in order (nil is `nil`), never spliced as text.
    public static func parse(_ format: String, arguments: [MediaValue?] = []) throws -> Predicate {
        var p = PredicateParser(text: format, arguments: arguments)
        return try p.parseAll()
    }

    /// True when `text` reads as a format string rather than short-form words: it contains a comparison
    /// operator (`==`, `<`, …) or an operator keyword (`CONTAINS`, `BETWEEN`, …) as a separate word.
    public static func looksLikeFormat(_ text: String) -> Bool {
        // `field:value` (maybe `^field:…`) is a short-form term whatever its value holds (`title:a<b`):
        // in a format string a colon only ever follows digits (5:00).
        let head = text.drop { $0 == "^" }.prefix { $0 != ":" }
        if head.count < text.count, let first = head.first, first.isLetter || first == "_",
           head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            return false
        }
        guard let tokens = try? PredicateLexer(text).tokens() else {
            return ["==", "!=", "<=", ">=", "<", ">", "&&", "||"].contains { text.contains($0) }
        }
        let words: Set<String> = ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN", "IN",
                                  "TRUEPREDICATE", "FALSEPREDICATE"]
        // `SEARCH "words"` alone is the format form of bare words (it was searched as the words SEARCH and
        // "words", quotes included, and stored so in a smart playlist).
        if let first = tokens.first, case .identifier(let s) = first.kind, ["SEARCH", "HOST"].contains(s.uppercased()),
           tokens.count > 1, case .string = tokens[1].kind {
            return true
        }
        // `artist LIKES "x"`: a field, then a capitalised word that is no operator, then a value is a format
        // string with a mistyped operator (it was searched as three words and matched nothing, silently);
        // the parser then says which operators there are, with a caret under the word.
        if tokens.count >= 3, case .identifier(let field) = tokens[0].kind, MediaProperty(name: field) != nil,
           case .identifier(let word) = tokens[1].kind, word.count > 1,
           word.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }), !["AND", "OR", "NOT"].contains(word) {
            return true
        }
        return tokens.contains { t in
            switch t.kind {
            case .symbol(let s): return ["==", "=", "=~", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "&&", "||"].contains(s)
            case .identifier(let s): return words.contains(s.uppercased())
            default: return false
            }
        }
    }

    private init(text: String, arguments: [MediaValue?]) {
        self.text = text
        self.arguments = arguments
    }

    private mutating func parseAll() throws -> Predicate {
        tokens = try PredicateLexer(text).tokens()
        if case .end = tokens[0].kind { throw error("empty query; expected a comparison such as title == \"x\"", at: tokens[0]) }
        let p = try parseOr()
        guard case .end = current.kind else { throw error("expected AND, OR or the end of the query", at: current) }
        if argumentIndex < arguments.count {
            throw QueryError("\(arguments.count) arguments given but only \(argumentIndex) %@ in the format", query: text)
        }
        return p
    }

    // MARK: Token helpers

    private var current: PredicateToken { tokens[index] }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func error(_ message: String, at token: PredicateToken) -> QueryError {
        QueryError(message, query: text, position: token.position)
    }

    private func keyword(_ t: PredicateToken) -> String? {
        if case .identifier(let s) = t.kind { return s.uppercased() }
        return nil
    }

    private mutating func accept(_ words: String...) -> Bool {
        if case .symbol(let s) = current.kind, words.contains(s) { advance(); return true }
        if let k = keyword(current), words.contains(k) { advance(); return true }
        return false
    }

    private static let reserved: Set<String> = ["AND", "OR", "NOT", "BETWEEN", "IN", "CONTAINS", "BEGINSWITH",
        "ENDSWITH", "LIKE", "MATCHES", "TRUEPREDICATE", "FALSEPREDICATE", "SEARCH", "HOST", "NIL", "NULL", "TRUE", "FALSE",
        "YES", "NO", "ANY", "ALL", "SOME", "NONE"]

    // MARK: Grammar

    private mutating func parseOr() throws -> Predicate {
        var parts = [try parseAnd()]
        while accept("OR", "||") { parts.append(try parseAnd()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws -> Predicate {
        var parts = [try parseUnary()]
        while accept("AND", "&&") { parts.append(try parseUnary()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseUnary() throws -> Predicate {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw error("the query nests too deeply (more than \(Self.maximumDepth) levels of parentheses or NOT)", at: current)
        }
        if accept("NOT", "!") { return .not(try parseUnary()) }
        if accept("(") {
            let p = try parseOr()
            guard accept(")") else { throw error("expected ')' to close the '(' ", at: current) }
            return p
        }
        if accept("TRUEPREDICATE") { return .all }
        if accept("FALSEPREDICATE") { return .none }
        if accept("SEARCH") {
            guard case .string(let s) = current.kind else { throw error("expected a quoted string after SEARCH", at: current) }
            advance()
            return FullTextSearch.predicate(s)
        }
        if accept("HOST") {
            guard case .string(let s) = current.kind else { throw error("expected a quoted host name after HOST", at: current) }
            advance()
            return .host(s)
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> Predicate {
        let lhs = current
        guard case .identifier(let name) = lhs.kind, !Self.reserved.contains(name.uppercased()) else {
            if case .end = lhs.kind { throw error("expected a comparison after this point", at: lhs) }
            throw error("expected a property name (title, artist, year, …)", at: lhs)
        }
        if let kind = HistoryTerm.Kind(rawValue: name.lowercased()), index + 1 < tokens.count, case .symbol("(") = tokens[index + 1].kind {
            return try parseHistoryTerm(kind)
        }
        guard let property = MediaProperty(name: name) else {
            throw error("unknown property '\(name)'" + Self.suggestion(for: name), at: lhs)
        }
        advance()
        let opToken = current
        let (op, impliedOptions) = try parseOperator(after: name)
        var options = impliedOptions
        if accept("[") {
            guard case .identifier(let mods) = current.kind,
                  mods.lowercased().allSatisfy({ $0 == "c" || $0 == "d" }) else {
                throw error("expected modifiers c, d or cd inside [ ]", at: current)
            }
            if mods.lowercased().contains("c") { options.insert(.caseInsensitive) }
            if mods.lowercased().contains("d") { options.insert(.diacriticInsensitive) }
            advance()
            guard accept("]") else { throw error("expected ']' after the modifiers", at: current) }
        }
        let operandToken = current
        let operand: Comparison.Operand
        if accept("{") {
            var values: [MediaValue] = []
            if !accept("}") {
                repeat {
                    let t = current
                    guard let v = try parseLiteral(for: property) else { throw error("nil cannot be in a list", at: t) }
                    values.append(v)
                } while accept(",")
                guard accept("}") else { throw error("expected ',' or '}' in the list", at: current) }
            }
            if op == .between {
                guard values.count == 2 else { throw error("BETWEEN needs exactly two values: {low, high}", at: operandToken) }
                operand = .range(values[0], values[1])
            } else if op == .in {
                operand = .list(values)
            } else {
                throw error("a list { … } goes with IN or BETWEEN, not \(op.rawValue)", at: operandToken)
            }
        } else {
            if op == .between { throw error("expected {low, high} after BETWEEN", at: operandToken) }
            if let v = try parseLiteral(for: property) { operand = op == .in ? .list([v]) : .value(v) } else { operand = .null }
        }
        do {
            return .comparison(try Comparison(property, op, operand, options: options).normalized())
        } catch let e as QueryError {
            let at = e.message.hasPrefix("only ==") || e.message.contains(" needs a text property") || e.message.hasPrefix("mediaType supports")
                ? opToken : operandToken
            throw e.located(in: text, at: at.position)
        }
    }

    /// The comparison operator at the current token (and its implied options), consumed.
    private mutating func parseOperator(after name: String) throws -> (Comparison.Operator, Comparison.Options) {
        let op: Comparison.Operator
        var options: Comparison.Options = []
        switch current.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("=~"): op = .equal; options = .cd   // as the short form's field:=~value
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        default:
            guard let k = keyword(current), let o = Comparison.Operator(rawValue: k) else {
                throw error("expected an operator (==, !=, <, >, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES, IN, BETWEEN) after '\(name)'", at: current)
            }
            op = o
        }
        advance()
        return (op, options)
    }

    /// `plays(WINDOW) OP N` / `skips(WINDOW) OP N` (`HistoryTerm`): WINDOW a number of days, a quoted span
    /// ("12h", "7d", "2w", "3m", "1y") or nothing (the whole history); N a whole number, or another count
    /// of the item's history (`skips() > plays()`).
    private mutating func parseHistoryTerm(_ kind: HistoryTerm.Kind) throws -> Predicate {
        let start = current
        let window = try parseHistoryWindow(kind.rawValue)
        let opToken = current
        let (op, _) = try parseOperator(after: kind.rawValue + "(…)")
        let countToken = current
        do {
            if case .identifier(let other) = current.kind, let otherKind = HistoryTerm.Kind(rawValue: other.lowercased()),
               index + 1 < tokens.count, case .symbol("(") = tokens[index + 1].kind {
                let otherWindow = try parseHistoryWindow(other)
                return .history(try HistoryTerm(kind, window: window, op, against: HistoryTerm.Count(otherKind, window: otherWindow)))
            }
            guard case .number(.integer(let count)) = current.kind, count >= 0 else {
                throw error("expected a whole number or plays(…)/skips(…) after \(kind.rawValue)(…) \(op.rawValue)", at: countToken)
            }
            advance()
            return .history(try HistoryTerm(kind, window: window, op, count))
        } catch let e as QueryError where e.position == nil {
            throw e.located(in: text, at: (e.message.contains("compares with") ? opToken : start).position)
        }
    }

    /// `NAME(WINDOW)` of a history count, at its name: the window as written (nil: none).
    private mutating func parseHistoryWindow(_ name: String) throws -> String? {
        advance()                       // the name
        advance()                       // "("
        var window: String?
        switch current.kind {
        case .number(let v): window = v.description; advance()
        case .string(let s): window = s; advance()
        default: break
        }
        guard accept(")") else { throw error("expected ')' after \(name)(\(window ?? "")", at: current) }
        return window
    }

    /// A literal, or nil for `nil`/`NULL`.
    private mutating func parseLiteral(for property: MediaProperty) throws -> MediaValue? {
        let t = current
        switch t.kind {
        case .string(let s): advance(); return .text(s)
        case .number(let v): advance(); return v
        case .duration(let d): advance(); return .real(d)
        case .argument:
            guard argumentIndex < arguments.count else { throw error("no argument left for this %@", at: t) }
            argumentIndex += 1
            advance()
            return arguments[argumentIndex - 1]
        case .identifier(let word):
            switch word.uppercased() {
            case "NIL", "NULL": advance(); return nil
            case "TRUE", "YES": advance(); return .bool(true)
            case "FALSE", "NO": advance(); return .bool(false)
            default:
                // Bare names are allowed where they cannot be confused with text: media kinds.
                if property.spec.type == .mediaType, MediaType(name: word) != nil { advance(); return .text(word) }
                throw error("expected a value; quote text as \"\(word)\"", at: t)
            }
        case .end:
            throw error("expected a value at the end of the query", at: t)
        default:
            throw error("expected a value (\"text\", a number, true/false or nil)", at: t)
        }
    }

    /// " (did you mean 'artist'?)" for a near-miss property name.
    static func suggestion(for name: String) -> String {
        let candidates = MediaProperty.allCases.map(\.rawValue) + MediaProperty.aliases.keys.sorted()
        return NameSuggestion.nearest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}

extension Predicate {
    /// `try Predicate(format: "artist ==[cd] %@ AND year > %@", "björk", 1995)`, as `NSPredicate(format:)`.
    public init(format: String, _ arguments: (any MediaValueConvertible)?...) throws {
        self = try PredicateParser.parse(format, arguments: arguments.map { $0?.mediaValue })
    }
}
