/// Chapters in Vorbis comments (Ogg Vorbis, Opus, FLAC), as the Ogg chapter extension writes them and
/// FFmpeg reads them: `CHAPTER001=00:00:10.500` and `CHAPTER001NAME=Title` (numbered from 000 or 001, up
/// to three digits or more). TagLib has no chapters for these formats, and the probe reads them without
/// FFmpeg (issue 41): here they are read from the tags TagLib gives. They end as `ChapterEnds` says.
enum ChapterComments {
    static func read(_ properties: [(String, String)], lengthMs: Int?) -> [ChapterInfo] {
        var starts: [Int: Double] = [:], names: [Int: String] = [:]
        for (key, value) in properties where key.hasPrefix("CHAPTER") {
            let rest = key.dropFirst(7)
            let digits = rest.prefix { $0.isASCIIDigit }
            guard !digits.isEmpty, let n = Int(digits) else { continue }
            switch rest.dropFirst(digits.count) {
            case "": if let t = seconds(value) { starts[n] = t }
            case "NAME": names[n] = value
            default: continue
            }
        }
        let ordered = starts.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        return ChapterEnds.filled(ordered.map { ChapterInfo(start: $0.value, end: .nan, title: names[$0.key] ?? "") },
                                  duration: lengthMs.map { Double($0) / 1000 })
    }

    /// `HH:MM:SS.mmm` (also `HH:MM:SS`, `MM:SS.mmm`) in seconds.
    static func seconds(_ s: String) -> Double? {
        let parts = s.trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCIIDigit || (isLast && $0 == ".") }), let v = Double(part) else { return nil }
            total = total * 60 + v
        }
        return total
    }
}
