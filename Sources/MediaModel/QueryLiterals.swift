import Foundation

/// How query literals are read for each property type, shared by every front end so that
/// `playbackDuration > 5:00`, `length:3:00..5:00` and `MediaPropertyPredicate(value: "5:00", …)` agree.
public enum QueryLiterals {
    /// `"5:00"` → 300, `"1:02:03"` → 3723, `"90"` / `"90.5"` → seconds.
    public static func duration(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        if parts.count == 1 { return Double(parts[0]).flatMap { $0.isFinite ? $0 : nil } }
        var seconds = 0.0
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            guard let v = isLast ? Double(part) : Double(Int(part) ?? -1), v >= 0, v.isFinite else { return nil }
            if i > 0 && v >= 60 { return nil }          // "5:75" is a typo, not 6:15
            seconds = seconds * 60 + v
        }
        return seconds
    }

    /// Renders seconds as `m:ss` or `h:mm:ss` (the form `duration(_:)` reads back).
    public static func formatDuration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "" }
        let total = Int(seconds.rounded(.down))
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// A calendar period written in ISO-8601 at some precision: `2001`, `2001-06`, `2001-06-16`,
    /// `2001-06-16T10:30`, `2001-06-16 10:30:05`.
    public struct Period: Sendable, Hashable {
        public var components: [Int]     // year, month, day, hour, minute, second (as many as written)

        public init?(_ text: String) {
            let t = text.trimmingCharacters(in: .whitespaces)
            let scalars = Array(t.unicodeScalars)
            var fields: [Int] = []
            var i = 0
            let separators: [Character] = ["-", "-", "T", ":", ":"]
            while i < scalars.count {
                var j = i
                while j < scalars.count, ("0"..."9").contains(scalars[j]) { j += 1 }
                let width = fields.isEmpty ? 4 : 2
                guard j - i == width, let n = Int(String(String.UnicodeScalarView(scalars[i..<j]))) else { return nil }
                fields.append(n)
                if j == scalars.count { break }
                guard fields.count <= separators.count else { return nil }
                let sep = Character(scalars[j])
                guard sep == separators[fields.count - 1] || (fields.count == 3 && sep == " ") else { return nil }
                i = j + 1
                if i == scalars.count { return nil }
            }
            guard !fields.isEmpty, fields.count <= 6 else { return nil }
            let limits = [(0, 9999), (1, 12), (1, 31), (0, 23), (0, 59), (0, 59)]
            for (n, (lo, hi)) in zip(fields, limits) where n < lo || n > hi { return nil }
            // A day past the end of its month (2003-02-31) is not a date: rolled over it was 3 March.
            if fields.count >= 3 {
                let (year, month) = (fields[0], fields[1])
                let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
                let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
                if fields[2] > days { return nil }
            }
            components = fields
        }

        init(components: [Int]) { self.components = components }

        /// The period right after this one at the same precision (`2003-12` → `2004-01`).
        public var next: Period {
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = TimeZone(identifier: "UTC")!
            let date = cal.date(from: dateComponents)!
            let units: [Calendar.Component] = [.year, .month, .day, .hour, .minute, .second]
            let after = cal.date(byAdding: units[components.count - 1], value: 1, to: date)!
            let c = cal.dateComponents(in: cal.timeZone, from: after)
            let all = [c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!]
            return Period(components: Array(all.prefix(components.count)))
        }

        var dateComponents: DateComponents {
            let c = components + [1, 1, 0, 0, 0].suffix(6 - components.count)
            return DateComponents(year: c[0], month: c[1], day: c[2], hour: c[3], minute: c[4], second: c[5])
        }

        /// ISO text at this precision: the form `releaseDate` values are stored in.
        public var isoText: String {
            func pad(_ n: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(n).count)) + String(n) }
            var s = pad(components[0], 4)
            let seps = ["-", "-", "T", ":", ":"]
            for (i, n) in components.dropFirst().enumerated() { s += seps[i] + pad(n, 2) }
            return s
        }

        /// Seconds since 1970 of the period's start, in the local time zone.
        public var timestamp: Double {
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = TimeZone.current
            return cal.date(from: dateComponents)?.timeIntervalSince1970 ?? 0
        }
    }

    /// `-7d`, `-2w`, `-3m`, `-1y`, `-12h`: that long before `now`, in seconds since 1970.
    public static func relativeTimestamp(_ text: String, now: Date = Date()) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("-"), let unit = t.last, let n = Double(t.dropFirst().dropLast()), n >= 0 else { return nil }
        let seconds: Double
        switch unit {
        case "h": seconds = 3600
        case "d": seconds = 86400
        case "w": seconds = 7 * 86400
        case "m": seconds = 30 * 86400
        case "y": seconds = 365 * 86400
        default: return nil
        }
        return now.timeIntervalSince1970 - n * seconds
    }

    /// A timestamp literal: a number of seconds, an ISO date/time (local time), or a relative `-7d`.
    public static func timestamp(_ text: String) -> Double? {
        if let d = Double(text.trimmingCharacters(in: .whitespaces)), d.isFinite { return d }
        if let p = Period(text) { return p.timestamp }
        return relativeTimestamp(text)
    }

    /// Reads `value` as a value of `type`, or says why not.
    public static func coerce(_ value: MediaValue, to type: MediaProperty.ValueType, for property: MediaProperty) throws -> MediaValue {
        func fail() -> QueryError {
            QueryError("\(property.rawValue) expects \(typeDescription(type)), not \(quoted(value))")
        }
        switch type {
        case .text:
            return .text(value.text ?? value.description)
        case .date:
            // Text shaped like a date must be one: `date:2003-02-31` was 3 March, `2003-13` matched nothing.
            let text = value.text ?? value.description
            if Period(text) == nil, text.first?.isNumber == true,
               text.allSatisfy({ $0.isASCII && ($0.isNumber || "-:T ".contains($0)) }), text.count >= 4 {
                throw QueryError("\(property.rawValue): \(quoted(value)) is not a date (a day or month out of range?); write 2003, 2003-02 or 2003-02-28")
            }
            return .text(text)
        case .integer:
            switch value {
            case .integer, .bool: return .integer(value.integer!)
            case .real(let d): return d == d.rounded() && abs(d) < 9e15 ? .integer(Int64(d)) : .real(d)
            case .text(let s):
                let t = s.trimmingCharacters(in: .whitespaces)
                if let i = Int64(t) { return .integer(i) }
                if let d = Double(t), d.isFinite { return .real(d) }
                throw fail()
            }
        case .real:
            if let d = value.real { return .real(d) }
            if let d = Double(value.text!.trimmingCharacters(in: .whitespaces)), d.isFinite { return .real(d) }
            throw fail()
        case .duration:
            if let d = value.real { return .real(d) }
            if let d = duration(value.text!) { return .real(d) }
            throw fail()
        case .timestamp:
            if let d = value.real { return .real(d) }
            if let d = timestamp(value.text!) { return .real(d) }
            throw fail()
        case .bool:
            switch value {
            case .bool: return value
            case .integer(let i) where i == 0 || i == 1: return .bool(i == 1)
            case .real(let d) where d == 0 || d == 1: return .bool(d == 1)
            case .text(let s):
                switch s.lowercased() {
                case "1", "true", "yes": return .bool(true)
                case "0", "false", "no": return .bool(false)
                default: throw fail()
                }
            default: throw fail()
            }
        case .mediaType:
            if case .integer = value { return value }
            if let s = value.text, let t = MediaType(name: s) { return .integer(t.rawValue) }
            throw QueryError("unknown media type \(quoted(value)); known: "
                             + MediaType.named.map(\.0).joined(separator: ", "))
        }
    }

    static func typeDescription(_ type: MediaProperty.ValueType) -> String {
        switch type {
        case .text: "text"
        case .integer, .real: "a number"
        case .bool: "true or false"
        case .date: "a date (2001-06-16)"
        case .timestamp: "a date (2001-06-16, 2001-06-16T10:30, -7d) or seconds since 1970"
        case .duration: "a duration (5:00, 1:02:03 or seconds)"
        case .mediaType: "a media type (music, podcast, movie, …)"
        }
    }

    static func quoted(_ v: MediaValue) -> String {
        if case .text(let s) = v { return "\"\(s)\"" }
        return v.description
    }
}
