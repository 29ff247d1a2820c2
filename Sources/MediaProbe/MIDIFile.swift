/// A Standard MIDI File (`MThd`…`MTrk`), which neither FFmpeg 5.1 nor TagLib 1.13 reads: its length in
/// seconds from the tempo map (every track's tempo events applied to the latest event of any track), as
/// mutagen's SMF reader computes it. Reads at most `limit` bytes; every length in the file is checked
/// against what is there, so damaged files end the walk instead of reading past the data.
struct MIDIFile {
    var format: Int
    var tracks: Int
    var duration: Double

    static let limit = 16 << 20

    static func read(_ file: MediaFile) -> MIDIFile? {
        guard file.head.starts(with: Array("MThd".utf8)), file.facts.size <= Int64(limit) else { return nil }
        return parse(file.bytes(at: 0, count: Int(file.facts.size)))
    }

    static func parse(_ b: [UInt8]) -> MIDIFile? {
        guard b.count >= 14, b.starts(with: Array("MThd".utf8)), be(b, 4, 4) >= 6 else { return nil }
        let format = be(b, 8, 2), count = be(b, 10, 2), division = be(b, 12, 2)
        guard division != 0 else { return nil }
        var at = 8 + be(b, 4, 4)
        var tempos: [(tick: Int, microseconds: Int)] = []
        var lastTick = 0, tracks = 0
        while tracks < count, at + 8 <= b.count {
            let length = be(b, at + 4, 4)
            let end = min(b.count, at + 8 + length)
            if b[at..<at + 4].elementsEqual("MTrk".utf8) {
                tracks += 1
                var p = at + 8, tick = 0, running: UInt8 = 0
                walk: while p < end {
                    guard let delta = vlq(b, &p, end) else { break }
                    tick += delta
                    guard p < end else { break }
                    var status = b[p]
                    if status < 0x80 { status = running } else { p += 1 }
                    switch status {
                    case 0xFF:
                        guard p < end else { break walk }
                        let kind = b[p]; p += 1
                        guard let n = vlq(b, &p, end), p + n <= end else { break walk }
                        if kind == 0x51, n == 3 { tempos.append((tick, be(b, p, 3))) }
                        p += n
                        if kind == 0x2F { break walk }
                    case 0xF0, 0xF7:
                        guard let n = vlq(b, &p, end) else { break walk }
                        p += n
                    case 0x80...0xEF:
                        running = status
                        p += status >= 0xC0 && status < 0xE0 ? 1 : 2
                    default:
                        break walk                                  // no running status to use: damaged
                    }
                    if p <= end { lastTick = max(lastTick, tick) }
                }
            }
            at = end == b.count ? b.count : at + 8 + length
        }
        guard tracks > 0 else { return nil }
        return MIDIFile(format: format, tracks: tracks, duration: seconds(upTo: lastTick, tempos: tempos, division: division))
    }

    /// Ticks to seconds: metrical division (ticks per quarter note, the tempo in µs per quarter, 120 bpm
    /// until a tempo event says otherwise) or SMPTE (frames per second × ticks per frame).
    static func seconds(upTo end: Int, tempos: [(tick: Int, microseconds: Int)], division: Int) -> Double {
        if division & 0x8000 != 0 {
            let fps = Double(256 - (division >> 8)), perFrame = Double(division & 0xFF)
            return fps > 0 && perFrame > 0 ? Double(end) / (fps * perFrame) : 0
        }
        var total = 0.0, tick = 0, tempo = 500_000
        for change in tempos.sorted(by: { $0.tick < $1.tick }) where change.tick < end {
            total += Double(change.tick - tick) * Double(tempo) / Double(division) / 1e6
            tick = change.tick
            tempo = change.microseconds
        }
        return total + Double(end - tick) * Double(tempo) / Double(division) / 1e6
    }

    private static func be(_ b: [UInt8], _ i: Int, _ n: Int) -> Int {
        (0..<n).reduce(0) { $0 << 8 | Int(b[i + $1]) }
    }

    /// A variable-length quantity (at most 4 bytes), or nil when it runs past `end`.
    private static func vlq(_ b: [UInt8], _ p: inout Int, _ end: Int) -> Int? {
        var value = 0
        for _ in 0..<4 {
            guard p < end else { return nil }
            let byte = b[p]; p += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }
}
