import Foundation
import MediaModel

/// One value bound to, or read from, a statement, in the few types both dialects store. Lists are one
/// parameter whatever their length (an array on PostgreSQL, a JSON array read by `json_each` on SQLite,
/// see `SQLSyntax.isIn`), so a statement's size never grows with a list and both stores share one limit.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes([UInt8])
    case integers([Int64])
    case texts([String])
    /// A list whose elements may be NULL (a column of `SQLSyntax.integerRows`).
    case nullableIntegers([Int64?])

    package var isNull: Bool { self == .null }

    /// The value as an integer; a real is truncated, text parsed (SQLite's affinity may give either).
    package var integer: Int64? {
        switch self {
        case .integer(let i): i
        case .real(let d): d.isFinite ? Int64(d) : nil
        case .text(let s): Int64(s)
        default: nil
        }
    }

    package var real: Double? {
        switch self {
        case .real(let d): d
        case .integer(let i): Double(i)
        case .text(let s): Double(s)
        default: nil
        }
    }

    package var text: String? {
        switch self {
        case .text(let s): s
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .bytes(let b): String(decoding: b, as: UTF8.self)
        default: nil
        }
    }

    package var bytes: [UInt8]? {
        switch self {
        case .bytes(let b): b
        case .text(let s): Array(s.utf8)
        default: nil
        }
    }
}

/// What can be bound to a statement: `"… WHERE id = \(id)"` in an `SQLStatement` literal binds `id`.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable { package var sqlValue: SQLValue { self } }
extension Int64: SQLBindable { package var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { package var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Bool: SQLBindable { package var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Double: SQLBindable { package var sqlValue: SQLValue { isFinite ? .real(self) : .null } }
extension String: SQLBindable { package var sqlValue: SQLValue { .text(self) } }
extension Data: SQLBindable { package var sqlValue: SQLValue { .bytes(Array(self)) } }
/// Paths are stored as their bytes (they need not be UTF-8).
extension MediaPath: SQLBindable { package var sqlValue: SQLValue { .bytes(bytes) } }
extension Date: SQLBindable { package var sqlValue: SQLValue { .real(timeIntervalSince1970) } }
/// Ids and names: lists bound as one parameter.
package protocol SQLListElement { static func list(_ elements: [Self]) -> SQLValue }
extension Int64: SQLListElement { package static func list(_ elements: [Int64]) -> SQLValue { .integers(elements) } }
extension String: SQLListElement { package static func list(_ elements: [String]) -> SQLValue { .texts(elements) } }
extension Array: SQLBindable where Element: SQLListElement { package var sqlValue: SQLValue { Element.list(self) } }
extension Optional: SQLBindable where Wrapped: SQLBindable { package var sqlValue: SQLValue { self?.sqlValue ?? .null } }
