/// Ogg page headers, read natively: the last page's granule position (the stream's length in samples) and
/// its checksum. FFmpeg 5.1 refuses a file whose last page fails its CRC (it seeks there for the length);
/// TagLib never checks. Checking it here lets both probe paths see the same damage.
struct OggPage {
    var granule: Int64
    var serial: UInt32
    var crcMatches: Bool
    /// Header, segment table and body, in bytes.
    var length: Int

    /// The last complete page that starts in `bytes` (the file's tail window), with its offset there.
    static func last(in bytes: [UInt8]) -> (page: OggPage, offset: Int)? {
        var i = bytes.count - 27
        while i >= 0 {
            if bytes[i] == 0x4F, bytes[i + 1] == 0x67, bytes[i + 2] == 0x67, bytes[i + 3] == 0x53, bytes[i + 4] == 0,
               let page = page(in: bytes, at: i) {
                return (page, i)
            }
            i -= 1
        }
        return nil
    }

    /// The page starting at `i`, when its header and segment table fit in `bytes` and its body ends at or
    /// before the end of `bytes`.
    static func page(in b: [UInt8], at i: Int) -> OggPage? {
        guard i >= 0, i + 27 <= b.count, b[i] == 0x4F, b[i + 1] == 0x67, b[i + 2] == 0x67, b[i + 3] == 0x53 else { return nil }
        let segments = Int(b[i + 26])
        guard i + 27 + segments <= b.count else { return nil }
        let body = b[(i + 27)..<(i + 27 + segments)].reduce(0) { $0 + Int($1) }
        let end = i + 27 + segments + body
        guard end <= b.count else { return nil }
        var granule: Int64 = 0
        for k in (0..<8).reversed() { granule = granule << 8 | Int64(b[i + 6 + k]) }
        let serial = (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[i + 14 + $1]) << (8 * $1) }
        let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[i + 22 + $1]) << (8 * $1) }
        let crc = b.withUnsafeBufferPointer { p in
            table.withUnsafeBufferPointer { t in
                // The checksum field itself counts as four zero bytes.
                var crc = update(0, p, i, i + 22, t)
                for _ in 0..<4 { crc = crc << 8 ^ t[Int(crc >> 24)] }
                return update(crc, p, i + 26, end, t)
            }
        }
        return OggPage(granule: granule, serial: serial, crcMatches: crc == stored, length: end - i)
    }

    /// The CRC after bytes `from..<to` of `p`: a table lookup per byte, on raw pointers (a 4 KiB page in
    /// ~4 µs; a generic loop over a slice cost several times that).
    @inline(__always)
    private static func update(_ crc: UInt32, _ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int,
                               _ t: UnsafeBufferPointer<UInt32>) -> UInt32 {
        guard let base = p.baseAddress, let table = t.baseAddress else { return crc }
        var crc = crc
        var k = from
        // Eight bytes at a time (slicing by 8: eight independent lookups instead of a chain of eight), then
        // four, then one.
        while k + 8 <= to {
            let a = crc ^ (UInt32(base[k]) << 24 | UInt32(base[k + 1]) << 16 | UInt32(base[k + 2]) << 8 | UInt32(base[k + 3]))
            crc = table[1792 + Int(a >> 24)] ^ table[1536 + Int(a >> 16 & 0xFF)] ^ table[1280 + Int(a >> 8 & 0xFF)]
                ^ table[1024 + Int(a & 0xFF)] ^ table[768 + Int(base[k + 4])] ^ table[512 + Int(base[k + 5])]
                ^ table[256 + Int(base[k + 6])] ^ table[Int(base[k + 7])]
            k += 8
        }
        if k + 4 <= to {
            crc ^= UInt32(base[k]) << 24 | UInt32(base[k + 1]) << 16 | UInt32(base[k + 2]) << 8 | UInt32(base[k + 3])
            crc = table[768 + Int(crc >> 24)] ^ table[512 + Int(crc >> 16 & 0xFF)] ^ table[256 + Int(crc >> 8 & 0xFF)]
                ^ table[Int(crc & 0xFF)]
            k += 4
        }
        while k < to {
            crc = crc << 8 ^ table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ base[k])]
            k += 1
        }
        return crc
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0. Eight tables of 256: the first
    /// is the CRC of each byte, table k (k = 1…7) that of each byte followed by k zero bytes.
    static let table: [UInt32] = {
        var t: [UInt32] = (0..<256).map { n in
            var r = UInt32(n) << 24
            for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? r << 1 ^ 0x04C1_1DB7 : r << 1 }
            return r
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t.append(previous << 8 ^ t[Int(previous >> 24)])
            }
        }
        return t
    }()

    /// The second packet of the first stream in `head` (the comment header of Vorbis and Opus), when it
    /// ends inside `head`: its bytes gathered from the pages' segments. nil otherwise.
    static func secondPacket(_ head: [UInt8]) -> [UInt8]? {
        var at = 0, packet = 0, bytes: [UInt8] = []
        while let page = page(in: head, at: at), packet < 2 {
            let segments = Int(head[at + 26])
            var body = at + 27 + segments
            for k in 0..<segments {
                let lacing = Int(head[at + 27 + k])
                if packet == 1 { bytes += head[body..<body + lacing] }
                body += lacing
                if lacing < 255 {
                    if packet == 1 { return bytes }
                    packet += 1
                }
            }
            at += page.length
        }
        return nil
    }

    /// The pre-skip of an Ogg Opus stream (samples at 48 kHz the decoder drops), from the OpusHead packet
    /// in the first page of `head`.
    static func opusPreSkip(_ head: [UInt8]) -> Int? {
        guard head.count > 27 else { return nil }
        let at = 27 + Int(head[26])
        guard head.count >= at + 12, head[at..<at + 8].elementsEqual("OpusHead".utf8) else { return nil }
        return Int(head[at + 10]) | Int(head[at + 11]) << 8
    }
}
