/// LRC and enhanced LRC (the de facto format of `.lrc` files and of LRC text in lyrics tags).
///
/// - A line starts with one or more time tags, `[mm:ss]`, `[mm:ss.x]`, `[mm:ss.xx]` or `[mm:ss.xxx]` (also
///   `:` before the fraction); several tags give the same text at several times ("chorus" lines).
/// - Enhanced LRC puts word times inside the text: `[00:12.00]<00:12.00>Some <00:12.50>words`.
/// - Header lines `[key:value]` (ar, ti, al, au, by, length, la, offset, re, ve…) are kept as headers.
///   `[offset:±N]` is in ms and, as the LRC convention says, a positive value shows the lines sooner: every
///   time becomes time − offset. A time that would become negative is 0 (said in a warning).
/// - Lines are sorted by time (stable: one time's lines keep their order); out-of-order input is said.
/// - Lines without a time tag in text that has timed lines are dropped (said); text with no timed line
///   at all is not LRC (`parse` returns nil lines).
public enum LRCParser {
    struct Result {
        var lines: [LyricsLine]?
        var headers: [String: String] = [:]
        var offsetMs = 0
        var warnings: [String] = []
        /// For unsynced text: the text itself.
        var text: String
    }

    /// `durationMs`, when known, flags the lines that start after the audio ends.
    static func parse(_ text: String, durationMs: Int? = nil) -> Result {
        // No "[", no time tag: plain lyrics, as the loop below would find them character by character
        // (2 KB of them took 37 µs, and a tag write reads a file's lyrics twice).
        guard text.utf8.contains(UInt8(ascii: "[")) else { return Result(lines: nil, headers: [:], text: text) }
        var headers: [String: String] = [:]
        var timed: [(times: [Int], body: Substring)] = []
        var untimed = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            var rest = line
            var times: [Int] = []
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let ms = time(inside) {
                    times.append(ms)
                    rest = rest[rest.index(after: close)...].drop { $0 == " " || $0 == "\t" }
                } else if times.isEmpty, let colon = inside.firstIndex(of: ":"),
                          inside[..<colon].allSatisfy({ $0.isLetter || $0 == "#" }), !inside[..<colon].isEmpty,
                          rest[rest.index(after: close)...].allSatisfy(\.isWhitespace) {
                    let key = inside[..<colon].lowercased()
                    headers[key] = String(inside[inside.index(after: colon)...]).trimmed
                    rest = rest[rest.endIndex...]
                    break
                } else {
                    break
                }
            }
            if !times.isEmpty {
                timed.append((times, rest))
            } else if !rest.allSatisfy(\.isWhitespace) && line.count == rest.count {
                untimed += 1
            }
        }
        guard !timed.isEmpty else { return Result(lines: nil, headers: [:], text: text) }

        var warnings: [String] = []
        let offset = headers["offset"].flatMap { Int($0.hasPrefix("+") ? String($0.dropFirst()) : $0) } ?? 0
        if headers["offset"] != nil && offset == 0 && headers["offset"]! != "0" && headers["offset"]! != "+0" {
            warnings.append("LRC offset '\(headers["offset"]!)' is not a number of milliseconds: ignored")
        }
        var clamped = 0
        func shifted(_ t: Int) -> Int {
            let v = t - offset
            if v < 0 { clamped += 1 }
            return max(0, v)
        }
        var lines: [LyricsLine] = []
        var previous = Int.min
        var outOfOrder = false
        for (times, body) in timed {
            let (text, words) = wordTimes(body)
            // A line's first time against the line before's: one line's several times are not disorder.
            if times[0] < previous { outOfOrder = true }
            previous = times[0]
            for t in times {
                let start = shifted(t)
                let w = words?.map { LyricsWord(startMs: shifted($0.startMs), text: $0.text) }
                lines.append(LyricsLine(startMs: start, text: text, words: w))
            }
        }
        if outOfOrder { warnings.append("LRC lines out of time order: sorted") }
        lines = lines.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }.map(\.element)
        if clamped > 0 { warnings.append("\(clamped) LRC time(s) before the start after the offset \(offset) ms: set to 0") }
        if untimed > 0 { warnings.append("\(untimed) LRC line(s) without a time tag: dropped") }
        if let durationMs {
            var past = 0
            for i in lines.indices where lines[i].startMs > durationMs {
                lines[i].pastEnd = true
                past += 1
            }
            if past > 0 { warnings.append("\(past) LRC line(s) start after the end of the audio: kept, flagged pastEnd") }
        }
        return Result(lines: lines, headers: headers, offsetMs: offset, warnings: warnings,
                      text: lines.map(\.text).joined(separator: "\n"))
    }

    /// `mm:ss`, `mm:ss.x`, `mm:ss.xx`, `mm:ss.xxx` (`.` or `:` before the fraction) in ms; nil otherwise.
    static func time(_ s: Substring) -> Int? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var secondsPart = parts[1], fraction: Substring = ""
        if parts.count == 3 {
            fraction = parts[2]
        } else if let dot = parts[1].firstIndex(of: ".") {
            secondsPart = parts[1][..<dot]
            fraction = parts[1][parts[1].index(after: dot)...]
        }
        guard !parts[0].isEmpty, parts[0].count <= 4, parts[0].allSatisfy(\.isASCIIDigit),
              !secondsPart.isEmpty, secondsPart.count <= 2, secondsPart.allSatisfy(\.isASCIIDigit),
              fraction.count <= 3, fraction.allSatisfy(\.isASCIIDigit),
              parts.count == 2 || !fraction.isEmpty,
              let m = Int(parts[0]), let sec = Int(secondsPart), sec < 60 else { return nil }
        var ms = 0
        if !fraction.isEmpty, let f = Int(fraction) {
            ms = fraction.count == 1 ? f * 100 : fraction.count == 2 ? f * 10 : f
        }
        return (m * 60 + sec) * 1000 + ms
    }

    /// `mm:ss.xxx` (minutes as many digits as they need).
    public static func timeTag(_ ms: Int) -> String {
        let ms = max(0, ms)
        let m = ms / 60000, s = ms / 1000 % 60, f = ms % 1000
        return (m < 10 ? "0" : "") + String(m) + ":" + (s < 10 ? "0" : "") + String(s) + "." +
            String(repeating: "0", count: f < 10 ? 2 : f < 100 ? 1 : 0) + String(f)
    }

    /// The text of an enhanced-LRC body without its `<mm:ss.xx>` word times, and the words (nil when there
    /// are no word times). Text before the first word time belongs to no word and stays in the text.
    static func wordTimes(_ body: Substring) -> (String, [LyricsWord]?) {
        var words: [LyricsWord] = []
        var plain = ""
        var rest = body
        var current: (Int, String)?
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">"), let t = time(rest[rest.index(after: open)..<close]) else {
                let upTo = rest.index(after: open)
                current != nil ? (current!.1 += rest[..<upTo]) : (plain += rest[..<upTo])
                rest = rest[upTo...]
                continue
            }
            let before = rest[..<open]
            if current != nil { current!.1 += before } else { plain += before }
            if let c = current { words.append(LyricsWord(startMs: c.0, text: c.1)) }
            current = (t, "")
            rest = rest[rest.index(after: close)...]
        }
        if current != nil { current!.1 += rest } else { plain += rest }
        if let c = current { words.append(LyricsWord(startMs: c.0, text: c.1)) }
        guard !words.isEmpty else { return (String(body).trimmed, nil) }
        return ((plain + words.map(\.text).joined()).trimmed, words)
    }
}
