/// A statement with its values, written once for both dialects as a string literal whose interpolations
/// are bound, never spliced: `"UPDATE items SET rating = \(rating) WHERE id = \(id)"`. Identifiers and
/// SQL pieces go in with `\(raw:)` (only names from the schema, never user text), statements compose with
/// `\(sql)` and `+`. Each bound value leaves a marker that the connection turns into its dialect's
/// placeholder (`?1` on SQLite, `$1` on PostgreSQL) in order, so one text serves both.
package struct SQLStatement: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The placeholder marker in `text` (a control character no statement contains).
    package static let marker: Character = "\u{1}"

    package private(set) var text: String
    package private(set) var values: [SQLValue]

    package init(stringLiteral value: String) {
        text = value
        values = []
    }

    package init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
        values = stringInterpolation.values
    }

    package init(raw text: String) {
        self.text = text
        values = []
    }

    /// A text whose markers stand for `values`, in order (`ValueBinder`, a dialect's compiled fragments).
    package init(markedText: String, values: [SQLValue]) {
        text = markedText
        self.values = values
    }

    package struct Interpolation: StringInterpolationProtocol {
        var text = ""
        var values: [SQLValue] = []
        package init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + interpolationCount) }
        package mutating func appendLiteral(_ literal: String) { text += literal }
        package mutating func appendInterpolation(_ value: some SQLBindable) {
            values.append(value.sqlValue)
            text.append(SQLStatement.marker)
        }
        /// An optional binds NULL when absent. Spelled out so that the compiler does not take `\(rating)` of
        /// an `Int?` for the optional-in-a-string mistake it warns about.
        package mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            values.append(value.sqlValue)
            text.append(SQLStatement.marker)
        }
        package mutating func appendInterpolation(raw: String) { text += raw }
        package mutating func appendInterpolation(_ sql: SQLStatement) {
            text += sql.text
            values += sql.values
        }
    }

    package static func + (a: SQLStatement, b: SQLStatement) -> SQLStatement {
        var result = a
        result.text += b.text
        result.values += b.values
        return result
    }

    package static func += (a: inout SQLStatement, b: SQLStatement) { a = a + b }

    /// Pieces joined by `separator` (" AND ", ", ").
    package static func joined(_ parts: [SQLStatement], separator: String) -> SQLStatement {
        var result = SQLStatement(raw: "")
        for (i, part) in parts.enumerated() {
            if i > 0 { result.text += separator }
            result += part
        }
        return result
    }

    /// The text with each marker replaced by `placeholder(n)`, n counting from 1.
    package func rendered(_ placeholder: (Int) -> String) -> String {
        guard !values.isEmpty else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + values.count * 3)
        var n = 0
        for byte in text.utf8 {
            if byte == 1 {          // the marker: one byte in UTF-8
                n += 1
                out += placeholder(n).utf8
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    package var description: String { rendered { "$\($0)" } }
}
