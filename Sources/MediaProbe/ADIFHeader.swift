/// The header of an ADIF AAC file (raw AAC with one header at the start, no frame headers): FFmpeg 5.1's
/// aac demuxer only frames ADTS, so it guesses the length from a few bytes (0.22 s for a 1 s file) and
/// leaves the sample rate at 0; TagLib 1.13 does not know the format. The header states the bit rate
/// and, in its first program config element, the sample rate and channels; for a constant-rate stream the
/// length follows from the size (as mutagen computes it).
struct ADIFHeader {
    var bitRate: Int
    var isConstantRate: Bool
    var sampleRate: Int?
    var channels: Int?

    func duration(fileSize: Int64) -> Double? {
        bitRate > 0 ? Double(fileSize) * 8 / Double(bitRate) : nil
    }

    static func parse(_ b: [UInt8]) -> ADIFHeader? {
        guard b.count >= 16, b.starts(with: Array("ADIF".utf8)) else { return nil }
        var r = BitReader(bytes: b, position: 32)
        if r.read(1) == 1 { r.skip(72) }                       // copyright id
        r.skip(2)                                              // original/copy, home
        let constant = r.read(1) == 0
        let bitRate = r.read(23)
        r.skip(4)                                              // program config elements - 1
        if constant { r.skip(20) }                             // buffer fullness
        guard r.ok else { return nil }
        var header = ADIFHeader(bitRate: bitRate, isConstantRate: constant)
        // The first program config element: tag, object type, sampling frequency index, element counts.
        r.skip(4 + 2)
        let index = r.read(4)
        let front = r.read(4), side = r.read(4), back = r.read(4), lfe = r.read(2)
        r.skip(3 + 4)                                          // assoc data, valid cc
        if r.read(1) == 1 { r.skip(4) }                        // mono mixdown
        if r.read(1) == 1 { r.skip(4) }                        // stereo mixdown
        if r.read(1) == 1 { r.skip(3) }                        // matrix mixdown
        var channels = lfe
        for _ in 0..<(front + side + back) {
            channels += r.read(1) == 1 ? 2 : 1                 // a channel pair element, or a single one
            r.skip(4)
        }
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        guard r.ok else { return header }
        header.sampleRate = index < rates.count ? rates[index] : nil
        header.channels = channels > 0 ? channels : nil
        return header
    }

    /// Big-endian bits; reading past the end sets `ok` false and yields zeros.
    struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var ok = true

        mutating func read(_ count: Int) -> Int {
            var value = 0
            for _ in 0..<count {
                let byte = position >> 3
                guard byte < bytes.count else { ok = false; position += 1; value <<= 1; continue }
                value = value << 1 | Int(bytes[byte] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }

        mutating func skip(_ count: Int) { position += count; if position > bytes.count * 8 { ok = false } }
    }
}
