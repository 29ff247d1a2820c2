/// The QUERY arguments every command takes (`mlib ls`, `export`, `play`, `playlist`). Each argument is a
/// format string (it has an operator such as `==`, `<`, `CONTAINS`, `BETWEEN`, or is `SEARCH "words"`), a
/// short-form term (`artist:Björk`, `year:1990..`, `album:"bright engine"`, a bare word), or one of the
/// words `AND`, `OR`, `NOT` and parentheses, which combine them:
///
///     artist:Björk OR artist:Zaz          'artist:Björk OR artist:Zaz' (one argument: split at spaces)
///     NOT genre:jazz  ( year:1990.. AND type:music ) 'rating >= 4'
///
/// Terms next to each other are ANDed; NOT binds tightest, then AND, then OR. An argument without those
/// words is one term, spaces and all (`"title:love song"`). No arguments: everything.
public enum QueryArguments {
    /// Nesting allowed in the short form (parentheses and NOT), as in the format parser: deeper queries
    /// are refused with a `QueryError` instead of exhausting the stack.
    public static let maximumDepth = PredicateParser.maximumDepth

    public static func predicate(_ arguments: [String]) throws -> Predicate { try parse(arguments).predicate }

    /// The predicate, and warnings for terms that look like mistyped operators (to print on stderr).
    public static func parse(_ arguments: [String]) throws -> (predicate: Predicate, warnings: [String]) {
        var tokens: [Token] = []
        var warnings: [String] = []
        // Parentheses open at the end of `tokens`, counted as they come (recounting was quadratic: 30,000
        // NOT arguments took minutes).
        var counted = 0, open = 0
        func depth(_ tokens: [Token]) -> Int {
            for t in tokens[counted...] { open += t == .open ? 1 : t == .close ? -1 : 0 }
            counted = tokens.count
            return open
        }
        for argument in arguments {
            if let op = Token(operatorWord: argument) {
                tokens.append(op)
            } else if PredicateParser.looksLikeFormat(argument) {
                do { tokens.append(.predicate(try PredicateParser.parse(argument))) } catch let e as QueryError {
                    // `mlib ls artist == '"x"'` arrives split into words: try them as one format string.
                    let joined = arguments.joined(separator: " ")
                    if arguments.count > 1, let p = try? PredicateParser.parse(joined) { return (p, []) }
                    throw e
                }
            } else {
                // Words as a shell splits them (an apostrophe that opens no quote, as in "it's", leaves the
                // argument whole). Split only when they combine terms: otherwise spaces are part of the term,
                // and one word in quotes ('"title:love song"') is that word.
                let words = (try? ShortQueryParser.split(argument)) ?? [argument]
                let combines = words.contains { Token(operatorWord: $0) != nil || $0.hasPrefix("(") || $0.hasPrefix("^(") }
                if !combines, words.count > 1, let word = words.first(where: { ["and", "or", "not"].contains($0.lowercased()) }) {
                    warnings.append("'\(argument)' is one term; to combine terms write \(word.uppercased())")
                }
                for word in combines || words.count == 1 ? words : [argument] {
                    try tokens.append(contentsOf: Self.tokens(word, depth: depth(tokens), warnings: &warnings))
                }
            }
        }
        var parser = Parser(tokens: tokens, text: arguments.joined(separator: " "))
        return (try parser.parseAll(), warnings)
    }

    enum Token: Equatable {
        case predicate(Predicate)
        case and, or, not, open, close

        init?(operatorWord word: String) {
            switch word {
            case "AND", "&&": self = .and
            case "OR", "||": self = .or
            case "NOT", "!": self = .not
            case "(": self = .open
            case ")": self = .close
            default: return nil
            }
        }
    }

    /// One word: parentheses peeled off its ends (a closing one only while one is open, so `title:(live)`
    /// stays a term), the rest a short-form term.
    static func tokens(_ word: String, depth: Int, warnings: inout [String]) throws -> [Token] {
        if let op = Token(operatorWord: word) { return [op] }
        var body = Substring(word)
        var result: [Token] = []
        var open = depth
        // "More than n characters" without `count`, which walks the whole Substring: in these loops it made
        // 60,000 unbalanced `(` take 28.8 s.
        func longer(than n: Int) -> Bool { !body.dropFirst(n).isEmpty }
        while longer(than: 1), body.hasPrefix("(") { result.append(.open); open += 1; body = body.dropFirst() }
        if body.hasPrefix("^("), longer(than: 2) { result += [.not, .open]; open += 1; body = body.dropFirst(2) }
        var closing = 0
        while longer(than: 1), body.hasSuffix(")"), open > closing, !body.dropLast().hasSuffix("\\") {
            closing += 1
            body = body.dropLast()
        }
        // A ')' left at the end with no '(' open, in the word or before it, closes nothing: `artist:x)` is
        // a mistake (it searched for "x)" and found nothing, silently), not a value. A value's own pairs
        // (`title:(live)`) and an escaped `\)` stay the term's.
        if body.hasSuffix(")"), !body.dropLast().hasSuffix("\\"), Self.closesMoreThanItOpens(body) {
            let at = word.count - closing - 1
            throw QueryError("unbalanced ')': no '(' is open (write \\) for a ')' in a value)", query: word, position: at)
        }
        let term = String(body)
        warnings += warningsFor(term)
        result.append(.predicate(try ShortQueryParser.parse(term: term)))
        return result + Array(repeating: .close, count: closing)
    }

    /// Whether `text` has an unescaped ')' before any '(' that it would close.
    static func closesMoreThanItOpens(_ text: Substring) -> Bool {
        var open = 0, escaped = false
        for ch in text {
            if escaped { escaped = false; continue }
            switch ch {
            case "\\": escaped = true
            case "(": open += 1
            case ")": if open == 0 { return true }; open -= 1
            default: break
            }
        }
        return false
    }

    /// A term that is searched as words although its writer probably meant an operator.
    static func warningsFor(_ term: String) -> [String] {
        if ["and", "or", "not"].contains(term.lowercased()) {
            return ["'\(term)' is searched as a word; to combine terms write \(term.uppercased())"]
        }
        let field = term.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let rest = term.dropFirst(field.count)
        // `added:-7d` is the instant seven days ago to the second, which no item has: "since" is `-7d..`.
        if rest.hasPrefix(":"), let property = MediaProperty(name: String(field)), property.spec.type == .timestamp,
           QueryLiterals.relativeTimestamp(String(rest.dropFirst())) != nil {
            return ["'\(term)' is one instant; for everything since then write \(term).."]
        }
        // `year-`, `artist+`: beets' sort suffixes, which a query reads as a word to search.
        if let mark = rest.first, rest.count == 1, "+-".contains(mark), MediaProperty(name: String(field)) != nil {
            return ["'\(term)' is searched as a word; to sort write --sort \(mark == "-" ? "-" : "")\(field)"]
        }
        if !field.isEmpty, MediaProperty(name: String(field)) != nil,
           let op = ["=~", "==", "!=", ">=", "<=", "=", "<", ">", "~"].first(where: { rest.hasPrefix($0) }) {
            let value = rest.dropFirst(op.count)
            let format = "'\(field) \(op == "~" ? "=~" : op) \"\(value)\"'"
            let short: String? = switch op {
            case "=~", "~": "\(field):=~\(value)"
            case "==", "=": "\(field):=\(value)"
            default: nil
            }
            return ["'\(term)' is searched as words; did you mean " + (short.map { "\($0) or " } ?? "") + format + "?"]
        }
        return []
    }

    struct Parser {
        var tokens: [Token]
        var text: String
        var index = 0
        var depth = 0

        mutating func parseAll() throws -> Predicate {
            if tokens.isEmpty { return .all }
            let p = try orExpression()
            if index < tokens.count {
                throw QueryError(tokens[index] == .close ? "unbalanced ')'" : "unexpected \(describe(tokens[index]))", query: text)
            }
            return p
        }

        mutating func orExpression() throws -> Predicate {
            var parts = [try andExpression()]
            while index < tokens.count, tokens[index] == .or {
                index += 1
                parts.append(try andExpression())
            }
            return parts.count == 1 ? parts[0] : .anyOf(parts)
        }

        mutating func andExpression() throws -> Predicate {
            var parts = [try unary()]
            while index < tokens.count, tokens[index] != .or, tokens[index] != .close {
                if tokens[index] == .and { index += 1 }
                parts.append(try unary())
            }
            return parts.count == 1 ? parts[0] : .allOf(parts)
        }

        mutating func unary() throws -> Predicate {
            guard index < tokens.count else { throw QueryError("the query ends where a term was expected", query: text) }
            depth += 1
            defer { depth -= 1 }
            if depth > QueryArguments.maximumDepth {
                throw QueryError("the query nests too deeply (more than \(QueryArguments.maximumDepth) levels of parentheses or NOT)")
            }
            let token = tokens[index]
            index += 1
            switch token {
            case .predicate(let p): return p
            case .not: return .not(try unary())
            case .open:
                let p = try orExpression()
                guard index < tokens.count, tokens[index] == .close else {
                    // The caret goes where the ')' is missing: the end of the query.
                    throw QueryError("missing ')' at the end of the query", query: text, position: text.count)
                }
                index += 1
                return p
            case .and, .or, .close: throw QueryError("unexpected \(describe(token)) where a term was expected", query: text)
            }
        }

        func describe(_ t: Token) -> String {
            switch t {
            case .and: "AND"
            case .or: "OR"
            case .not: "NOT"
            case .open: "'('"
            case .close: "')'"
            case .predicate(let p): "'\(p)'"
            }
        }
    }
}
