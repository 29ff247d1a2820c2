import Foundation

/// `--format` templates, as beets' `-f`: `$artist - $album - $title`.
///
/// - `$name` or `${name}`: a property by name or alias (`$album`, `$track`, `$duration`); missing → empty.
/// - `${name:30}`: padded to 30 characters, cut with "…" when longer; `${name:>6}` right-aligned.
/// - `$$` is a dollar sign; `\t`, `\n`, `\\` are a tab, a newline, a backslash.
/// - Extra names (`$count`, `$name` for collections) come from the caller.
///
/// Values print as people read them: durations `m:ss`, timestamps `2024-05-01 10:30`, media types by name.
public struct ItemTemplate: Sendable {
    /// The widest `${field:WIDTH}`.
    public static let maximumWidth = 1000

    enum Segment: Sendable {
        case literal(String)
        case field(name: String, property: MediaProperty?, width: Int?, rightAligned: Bool)
    }
    let segments: [Segment]

    /// The properties the template prints, in order of first use (what a listing needs to read).
    public var properties: [MediaProperty] {
        var seen: [MediaProperty] = []
        for case .field(_, let property?, _, _) in segments where !seen.contains(property) { seen.append(property) }
        return seen
    }

    /// Parses `template`; `extraNames` are accepted besides property names.
    public init(_ template: String, extraNames: Set<String> = []) throws {
        let chars = Array(template)
        var segments: [Segment] = []
        var literal = ""
        var i = 0
        func fail(_ message: String, _ at: Int) -> QueryError { QueryError(message, query: template, position: at) }
        func resolve(_ name: String, _ at: Int) throws -> MediaProperty? {
            if extraNames.contains(name) { return nil }
            guard let p = MediaProperty(name: name) else {
                throw fail("unknown field '\(name)' in the format" + PredicateParser.suggestion(for: name), at)
            }
            return p
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count {
                switch chars[i + 1] {
                case "t": literal.append("\t")
                case "n": literal.append("\n")
                case "\\": literal.append("\\")
                default: literal.append(c); literal.append(chars[i + 1])
                }
                i += 2
                continue
            }
            guard c == "$" else { literal.append(c); i += 1; continue }
            let start = i
            if i + 1 < chars.count, chars[i + 1] == "$" { literal.append("$"); i += 2; continue }
            if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
            if i + 1 < chars.count, chars[i + 1] == "{" {
                guard let close = chars[(i + 2)...].firstIndex(of: "}") else { throw fail("missing '}' after '${'", start) }
                let inner = String(chars[(i + 2)..<close])
                let parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                var width: Int?
                var right = false
                if parts.count == 2 {
                    var spec = Substring(parts[1])
                    if spec.hasPrefix(">") { right = true; spec = spec.dropFirst() } else if spec.hasPrefix("<") { spec = spec.dropFirst() }
                    guard let w = Int(spec), w >= 0 else { throw fail("expected a width after ':' (${\(name):30})", start) }
                    // ${title:2147483647} padded every line to 2 GB; 9223372036854775807 trapped.
                    guard w <= Self.maximumWidth else { throw fail("a width is at most \(Self.maximumWidth) columns", start) }
                    width = w
                }
                segments.append(.field(name: name, property: try resolve(name, start), width: width, rightAligned: right))
                i = close + 1
            } else {
                var j = i + 1
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                guard j > i + 1 else { throw fail("expected a field name after '$' (use $$ for a dollar sign)", start) }
                let name = String(chars[(i + 1)..<j])
                segments.append(.field(name: name, property: try resolve(name, start), width: nil, rightAligned: false))
                i = j
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The text for `item`; `extra` supplies the extra names.
    public func render(_ item: MediaItem, extra: [String: String] = [:]) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let s): out += s
            case .field(let name, let property, let width, let right):
                var text = property.map { p in item[p].map { Self.display($0, p) } ?? "" } ?? (extra[name] ?? "")
                if let width {
                    // Widths count terminal columns: CJK is two columns wide, combining marks none.
                    if Self.columns(text) > width {
                        var cut = "", used = 0
                        for c in text {
                            let w = Self.columns(c)
                            if used + w > width - 1 { break }
                            cut.append(c)
                            used += w
                        }
                        text = width > 0 ? cut + "…" : ""
                    }
                    let pad = String(repeating: " ", count: max(0, width - Self.columns(text)))
                    text = right ? pad + text : text + pad
                }
                out += text
            }
        }
        return out
    }

    /// Terminal columns of `text` (as wcwidth(3) counts them, for the scripts tags are written in).
    public static func columns(_ text: String) -> Int { text.reduce(0) { $0 + columns($1) } }

    static func columns(_ c: Character) -> Int {
        guard let first = c.unicodeScalars.first else { return 0 }
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark { return 0 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// A value as shown in text output.
    public static func display(_ value: MediaValue, _ property: MediaProperty) -> String {
        switch property.spec.type {
        case .duration: return value.real.map(QueryLiterals.formatDuration) ?? value.description
        case .mediaType: return MediaType(rawValue: value.integer ?? 0).name
        case .timestamp:
            guard let t = value.real else { return value.description }
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.dateFormat = "yyyy-MM-dd HH:mm"
            return f.string(from: Date(timeIntervalSince1970: t))
        case .real: return value.real.map(real) ?? value.description
        default: return value.description
        }
    }

    /// A real as text: at most six decimals (a peak's precision as loudgain writes it), trailing zeros
    /// dropped: -15.123456789012345 → "-15.123457", -6.5 → "-6.5", 2.0 → "2" (it printed every one of
    /// the 17 digits a Double holds).
    public static func real(_ d: Double) -> String {
        guard d.isFinite else { return String(d) }
        var text = String(format: "%.6f", d)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
