/// The stream header (SH packet) of a Musepack SV8 stream ("MPCK", then packets: a two-letter key, a size
/// that counts the key and itself, the payload). SH holds a CRC, the stream version, the sample count and the
/// leading silence (both variable-length: seven bits a byte, the high bit says another follows), then the
/// sample rate's index in its top three bits. The length is the samples less the silence, at that rate, as
/// mutagen and TagLib compute it. FFmpeg 5.1 counts whole frames of 1,152 × 4ⁿ samples, rounded down, which
/// loses up to a frame (TagLib's `sv8_header.mpc`: 1.463 s for 66,014 samples, 1.497 s; issue 49's file:
/// 5.016 s for 5.232 s).
struct MusepackSV8Header {
    var samples: Int64
    var leadingSilence: Int64
    var sampleRate: Int

    static let sampleRates = [44100, 48000, 37800, 32000]

    var duration: Double { Double(max(0, samples - leadingSilence)) / Double(sampleRate) }

    /// The header of the stream that starts at `b`'s first byte; nil when `b` does not start with "MPCK" or
    /// its SH packet is not among the first packets, or is damaged.
    static func parse(_ b: [UInt8]) -> MusepackSV8Header? {
        guard b.starts(with: Array("MPCK".utf8)) else { return nil }
        func varint(_ at: inout Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<9 {
                guard at < b.count else { return nil }
                let byte = b[at]
                at += 1
                value = value << 7 | Int64(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            return nil
        }
        var at = 4
        for _ in 0..<8 {                                   // SH comes first; a few packets of slack
            guard at + 2 <= b.count else { return nil }
            let key = String(decoding: b[at..<at + 2], as: UTF8.self)
            var p = at + 2
            guard let size = varint(&p), size >= Int64(p - at), at + Int(size) <= b.count else { return nil }
            let end = at + Int(size)
            if key == "SH" {
                p += 5                                     // CRC, stream version
                guard let samples = varint(&p), let silence = varint(&p), p < end, silence <= samples,
                      Int(b[p] >> 5) < sampleRates.count else { return nil }
                return MusepackSV8Header(samples: samples, leadingSilence: silence, sampleRate: sampleRates[Int(b[p] >> 5)])
            }
            if key == "AP" || key == "SE" { return nil }  // audio before any stream header
            at = end
        }
        return nil
    }
}
