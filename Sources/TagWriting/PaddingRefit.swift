import Glibc

/// Keeps a tag's padding where TagLib 1.13 throws it away.
///
/// TagLib shrinks padding larger than 1% of the file (an ID3v2 tag's to 1 KiB, FLAC's PADDING block to
/// 4 KiB) when it saves, so a new title in a file whose tagger left generous padding (mutagen, beets: 8 KiB
/// and more on small files) changed the file's length, and mlib rewrote the whole file. When the new tag
/// is shorter than the old tag with its padding, the padding is grown back: the file keeps its length, the
/// edit is a few bytes written in place.
enum PaddingRefit {
    /// `content` grown to `originalSize` by more padding in its tag, or nil when that cannot be done.
    static func refit(_ content: [UInt8], originalSize: Int64, format: String) -> [UInt8]? {
        let missing = Int(originalSize) - content.count
        guard missing > 0 else { return nil }
        switch format {
        case "mpeg": return id3v2(content, growBy: missing)
        case "flac": return flac(content, growBy: missing)
        default: return nil
        }
    }

    /// An ID3v2 tag at the start: its size (syncsafe, padding included) grows, zeros follow its end.
    static func id3v2(_ c: [UInt8], growBy n: Int) -> [UInt8]? {
        guard c.count >= 10, c[0] == 0x49, c[1] == 0x44, c[2] == 0x33, c[5] & 0x10 == 0,
              c[6..<10].allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = c[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let grown = size + n
        guard grown < 1 << 28, 10 + size <= c.count else { return nil }
        var out = Array(c[0..<(10 + size)])
        for i in 0..<4 { out[6 + i] = UInt8((grown >> (7 * (3 - i))) & 0x7F) }
        out += [UInt8](repeating: 0, count: n)
        out += c[(10 + size)...]
        return out
    }

    /// FLAC's metadata: the last block, when it is PADDING, grows (its 24-bit length) by `n` zeros.
    static func flac(_ c: [UInt8], growBy n: Int) -> [UInt8]? {
        guard c.count >= 8, c[0] == 0x66, c[1] == 0x4C, c[2] == 0x61, c[3] == 0x43 else { return nil }
        var at = 4
        while at + 4 <= c.count {
            let last = c[at] & 0x80 != 0
            let type = c[at] & 0x7F
            let length = Int(c[at + 1]) << 16 | Int(c[at + 2]) << 8 | Int(c[at + 3])
            let end = at + 4 + length
            guard end <= c.count else { return nil }
            if last {
                guard type == 1, length + n < 1 << 24 else { return nil }
                var out = Array(c[0..<end])
                let grown = length + n
                out[at + 1] = UInt8(grown >> 16 & 0xFF)
                out[at + 2] = UInt8(grown >> 8 & 0xFF)
                out[at + 3] = UInt8(grown & 0xFF)
                out += [UInt8](repeating: 0, count: n)
                out += c[end...]
                return out
            }
            at = end
        }
        return nil
    }

    /// The ranges where `content` (as long as the file) differs from the file read through `fd`.
    static func patches(_ content: [UInt8], against fd: Int32) -> [(offset: Int64, bytes: [UInt8])]? {
        var out: [(offset: Int64, bytes: [UInt8])] = []
        let chunk = 1 << 16
        var at = 0
        while at < content.count {
            let count = min(chunk, content.count - at)
            guard let old = FileIO.read(fd, count: count, at: Int64(at)) else { return nil }
            // Most of the file (the audio) is the same: whole chunks compared at memcmp's speed first.
            let same = old.withUnsafeBytes { o in content.withUnsafeBytes { n in memcmp(o.baseAddress!, n.baseAddress! + at, count) == 0 } }
            if same { at += count; continue }
            // A chunk that differs (a tag's): its equal stretches skipped eight bytes at a time, through
            // pointers — compared byte by byte with bounds checks, this loop was 12% of a padded `mlib tag`.
            var runs: [Range<Int>] = []
            old.withUnsafeBytes { o in
                content.withUnsafeBytes { whole in
                    let n = UnsafeRawBufferPointer(rebasing: whole[at..<(at + count)])
                    var i = 0
                    while i < count {
                        while i + 8 <= count, o.loadUnaligned(fromByteOffset: i, as: UInt64.self) == n.loadUnaligned(fromByteOffset: i, as: UInt64.self) { i += 8 }
                        while i < count, o[i] == n[i] { i += 1 }
                        guard i < count else { break }
                        var j = i
                        while j < count, o[j] != n[j] { j += 1 }
                        runs.append(i..<j)
                        i = j
                    }
                }
            }
            for run in runs {
                let bytes = Array(content[(at + run.lowerBound)..<(at + run.upperBound)])
                if let last = out.last, last.offset + Int64(last.bytes.count) == Int64(at + run.lowerBound) {
                    out[out.count - 1].bytes += bytes
                } else {
                    out.append((Int64(at + run.lowerBound), bytes))
                }
            }
            at += count
        }
        return out
    }
}
