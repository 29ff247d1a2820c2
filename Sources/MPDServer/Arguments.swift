/// MPD's argument forms: integers, booleans ("0"/"1"), ranges ("START:END", "START:", "N"), seconds.
enum Arguments {
    static func int(_ text: String) throws -> Int {
        guard let n = Int(text) else { throw MPDError.badArgument("Integer expected: \(text)") }
        return n
    }

    static func unsigned(_ text: String) throws -> Int {
        let n = try int(text)
        guard n >= 0 else { throw MPDError.badArgument("Number is negative: \(text)") }
        return n
    }

    static func bool(_ text: String) throws -> Bool {
        switch text {
        case "0": return false
        case "1": return true
        default: throw MPDError.badArgument("Boolean (0/1) expected: \(text)")
        }
    }

    static func seconds(_ text: String) throws -> Double {
        guard let d = Double(text), d.isFinite else { throw MPDError.badArgument("Float expected: \(text)") }
        return d
    }

    /// A range of positions; an open end reaches `count`. "N" is N..<N+1.
    static func range(_ text: String, count: Int) throws -> Range<Int> {
        guard let colon = text.firstIndex(of: ":") else {
            let n = try unsigned(text)
            return n..<(n + 1)
        }
        let start = try unsigned(String(text[..<colon]))
        let endText = String(text[text.index(after: colon)...])
        let end = endText.isEmpty ? max(count, start) : try unsigned(endText)
        guard start <= end else { throw MPDError.badArgument("Bad range") }
        return start..<end
    }

    /// A range that must lie within `count` positions (for commands on the queue).
    static func queueRange(_ text: String, count: Int) throws -> Range<Int> {
        let r = try range(text, count: count)
        guard r.lowerBound <= count, r.upperBound <= count else { throw MPDError.badSongIndex }
        return r
    }
}
