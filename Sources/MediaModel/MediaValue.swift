import Foundation

/// One property value. Dates are kept as ISO-8601 text (tags often carry only a year), timestamps and
/// durations as seconds.
public enum MediaValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)

    public var text: String? { if case .text(let s) = self { s } else { nil } }
    public var integer: Int64? {
        switch self {
        case .integer(let i): i
        // `Int64(exactly:)` of the whole part: nil past ±9.2e18, where `Int64(_:)` traps.
        case .real(let d): d.isFinite ? Int64(exactly: d.rounded(.towardZero)) : nil
        case .bool(let b): b ? 1 : 0
        case .text: nil
        }
    }
    public var real: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .real(let d): d
        case .bool(let b): b ? 1 : 0
        case .text: nil
        }
    }
    public var bool: Bool? {
        switch self {
        case .bool(let b): b
        case .integer(let i): i != 0
        case .real(let d): d != 0
        case .text: nil
        }
    }

    public var description: String {
        switch self {
        case .text(let s): s
        case .integer(let i): String(i)
        case .real(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// Converts to the storage form of `type` (e.g. an integer read as text "7" for a track number).
    public func coerced(to type: MediaProperty.ValueType) -> MediaValue? {
        switch type {
        case .text, .date: return .text(text ?? description)
        case .integer, .mediaType:
            if let i = integer { return .integer(i) }
            if let s = text, let i = Int64(s.trimmingCharacters(in: .whitespaces)) { return .integer(i) }
            return nil
        case .real, .timestamp, .duration:
            if let d = real { return .real(d) }
            if let s = text, let d = Double(s.trimmingCharacters(in: .whitespaces)) { return .real(d) }
            return nil
        case .bool:
            if let b = bool { return .bool(b) }
            switch text?.lowercased() {
            case "1", "true", "yes": return .bool(true)
            case "0", "false", "no": return .bool(false)
            default: return nil
            }
        }
    }
}

