/// UPnP ContentDirectory:1's search criteria (section 2.5.5), parsed:
///
///     searchCrit ::= searchExp | '*'
///     searchExp  ::= relExp | searchExp logOp searchExp | '(' searchExp ')'
///     relExp     ::= property binOp quotedVal | property 'exists' ('true' | 'false')
///     binOp      ::= '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'doesNotContain' | 'derivedfrom'
///     quotedVal  ::= '"' (char | '\"' | '\\')* '"'
///
/// `and` binds tighter than `or` (as the spec's precedence says); operators and `and`/`or` are matched
/// without regard to case, as control points in the wild send `AND` and `derivedFrom`.
enum SearchGrammar {
    indirect enum Expression: Equatable, Sendable {
        case all
        case and(Expression, Expression)
        case or(Expression, Expression)
        case relation(property: String, op: Operator, value: String)
        case exists(property: String, Bool)
    }

    enum Operator: String, Equatable, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contains, doesNotContain, derivedFrom = "derivedfrom"
    }

    struct SyntaxError: Error, CustomStringConvertible, Equatable {
        var description: String
        var offset: Int
    }

    static func parse(_ text: String) throws -> Expression {
        var parser = Parser(characters: Array(text))
        parser.skipSpace()
        if parser.peek() == "*" {
            parser.position += 1
            parser.skipSpace()
            guard parser.atEnd else { throw parser.error("nothing may follow *") }
            return .all
        }
        let expression = try parser.or()
        parser.skipSpace()
        guard parser.atEnd else { throw parser.error("unexpected text") }
        return expression
    }

    /// The deepest nesting of parentheses taken: each level is three frames of this recursive parser, and
    /// 30,000 of them (60 KB, within a request's bound) overflowed the answering thread's stack and stopped
    /// the server. Control points send two or three.
    static let maximumDepth = 32
    /// The most conditions in one criteria: 2,500 (`a = "x" and …`, within a request's bound) reached the
    /// store, which refuses queries past 500 terms, and came back as 501 Action Failed (the server's fault)
    /// rather than 708 (the criteria's). Control points send a handful.
    static let maximumConditions = 100

    private struct Parser {
        let characters: [Character]
        var position = 0
        var depth = 0
        var conditions = 0

        var atEnd: Bool { position >= characters.count }
        func peek() -> Character? { atEnd ? nil : characters[position] }
        func error(_ text: String) -> SyntaxError { SyntaxError(description: "\(text) at \(position)", offset: position) }

        mutating func skipSpace() { while let c = peek(), c.isWhitespace { position += 1 } }

        /// A word: letters, digits and the property characters (`:`, `@`, `.`, `_`, `-`).
        mutating func word() -> String {
            let start = position
            while let c = peek(), c.isLetter || c.isNumber || ":@._-".contains(c) { position += 1 }
            return String(characters[start..<position])
        }

        /// Takes `keyword` (case-insensitively) when it is the next word.
        mutating func take(_ keyword: String) -> Bool {
            let saved = position
            skipSpace()
            if word().lowercased() == keyword { return true }
            position = saved
            return false
        }

        mutating func or() throws -> Expression {
            var left = try and()
            while take("or") { left = .or(left, try and()) }
            return left
        }

        mutating func and() throws -> Expression {
            var left = try primary()
            while take("and") { left = .and(left, try primary()) }
            return left
        }

        mutating func primary() throws -> Expression {
            skipSpace()
            if peek() == "(" {
                guard depth < SearchGrammar.maximumDepth else { throw error("parentheses nested deeper than \(SearchGrammar.maximumDepth)") }
                position += 1
                depth += 1
                defer { depth -= 1 }
                let inner = try or()
                skipSpace()
                guard peek() == ")" else { throw error("expected )") }
                position += 1
                return inner
            }
            conditions += 1
            guard conditions <= SearchGrammar.maximumConditions else { throw error("more than \(SearchGrammar.maximumConditions) conditions") }
            let property = word()
            guard !property.isEmpty else { throw error("expected a property") }
            skipSpace()
            let op: String
            if let c = peek(), "=!<>".contains(c) {
                var symbol = String(c)
                position += 1
                if peek() == "=" { symbol += "="; position += 1 }
                op = symbol
            } else {
                op = word()
            }
            skipSpace()
            if op.lowercased() == "exists" {
                switch word().lowercased() {
                case "true": return .exists(property: property, true)
                case "false": return .exists(property: property, false)
                default: throw error("exists takes true or false")
                }
            }
            guard let known = Operator.allCases.first(where: { $0.rawValue.lowercased() == op.lowercased() }) else {
                throw error("unknown operator \(op)")
            }
            return .relation(property: property, op: known, value: try quoted())
        }

        mutating func quoted() throws -> String {
            guard peek() == "\"" else { throw error("expected a quoted value") }
            position += 1
            var value = ""
            while let c = peek() {
                position += 1
                switch c {
                case "\"": return value
                case "\\":
                    guard let next = peek(), next == "\"" || next == "\\" else { throw error("only \\\" and \\\\ escape") }
                    value.append(next)
                    position += 1
                default: value.append(c)
                }
            }
            throw error("unterminated quoted value")
        }
    }
}
