/// The first MPEG audio frame of an MP3 and the Xing/Info/LAME or VBRI header it may carry: what the
/// length and the audio bit rate of the stream are, without decoding. FFmpeg 5.1 and TagLib 1.13 both count
/// LAME's encoder delay and padding as audio (4% too long on a short MPEG-2.5 file), and both report the
/// file's average bit rate, cover art included, where the header states the stream's. Both probe paths use
/// this reading, so the index and `mlib info` agree.
struct MPEGAudioHeader: Equatable {
    var version: Double          // 1, 2 or 2.5
    var layer: Int
    var sampleRate: Int
    var channels: Int
    /// The first frame's bit rate (bit/s): the stream's for CBR.
    var frameBitRate: Int
    var samplesPerFrame: Int
    /// The length of this first frame in bytes (its own bit rate and padding).
    var frameBytes = 0
    /// From a Xing/Info or VBRI header: the frame count and audio byte count of the whole stream.
    var frames: Int?
    var bytes: Int?
    /// "Xing" marks VBR; "Info" (LAME's CBR) and no header mark CBR.
    var isVBR: Bool
    /// LAME's encoder delay and end padding, in samples: not audio.
    var encoderDelay = 0
    var encoderPadding = 0

    /// Samples of audio the stream decodes to, when the header counts its frames.
    var sampleCount: Int? {
        frames.map { max(0, $0 * samplesPerFrame - encoderDelay - encoderPadding) }
    }

    /// The length in bytes of a frame with this header.
    func frameLength(padded: Bool) -> Int {
        let pad = padded ? 1 : 0
        switch layer {
        case 1: return (12 * frameBitRate / sampleRate + pad) * 4
        case 2: return 144 * frameBitRate / sampleRate + pad
        default: return (version == 1 ? 144 : 72) * frameBitRate / sampleRate + pad
        }
    }

    /// Reads the frame at `offset` (the audio start, after any ID3v2 tag) of `file`.
    static func read(_ file: MediaFile, at offset: Int64) -> MPEGAudioHeader? {
        let b = file.bytes(at: offset, count: 256)
        guard var header = parse(b) else { return nil }
        // The Xing/Info header sits after the side information; VBRI at a fixed 32 bytes after the header.
        let mono = header.channels == 1
        let side = header.version == 1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        // Some encoders count the 2-byte CRC after the header, others do not: look at both places.
        for at in [4 + side, 4 + side + 2] {
            guard at + 8 <= b.count else { continue }
            let tag = String(decoding: b[at..<at + 4], as: UTF8.self)
            guard tag == "Xing" || tag == "Info" else { continue }
            header.isVBR = tag == "Xing"
            // The header frame's own bit rate is whatever fits the header (FFmpeg's muxer picks the smallest):
            // a CBR stream's rate is in the next frame.
            if let next = parse(file.bytes(at: offset + Int64(header.frameBytes), count: 4)) {
                header.frameBitRate = next.frameBitRate
            }
            let flags = be32(b, at + 4)
            var p = at + 8
            if flags & 1 != 0, p + 4 <= b.count { header.frames = be32(b, p); p += 4 }
            if flags & 2 != 0, p + 4 <= b.count { header.bytes = be32(b, p); p += 4 }
            if flags & 4 != 0 { p += 100 }
            if flags & 8 != 0 { p += 4 }
            // The LAME extension: a 9-byte encoder name, then delay and padding 12 bits each at +21.
            if p + 24 <= b.count, b[p..<p + 4].elementsEqual("LAME".utf8) || b[p..<p + 4].elementsEqual("Lavc".utf8)
                || b[p..<p + 4].elementsEqual("Lavf".utf8) {
                let d = p + 21
                header.encoderDelay = Int(b[d]) << 4 | Int(b[d + 1]) >> 4
                header.encoderPadding = (Int(b[d + 1]) & 0x0F) << 8 | Int(b[d + 2])
            }
            return header
        }
        if b.count >= 36 + 18, b[36..<40].elementsEqual("VBRI".utf8) {
            header.isVBR = true
            header.bytes = be32(b, 36 + 10)
            header.frames = be32(b, 36 + 14)
        }
        return header
    }

    /// The 4-byte frame header at the start of `b`.
    static func parse(_ b: [UInt8]) -> MPEGAudioHeader? {
        guard let layer = FormatSniffer.mpegAudioLayer(b) else { return nil }
        let versionBits = b[1] >> 3 & 3
        let version: Double = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 2.5
        let rates = version == 1 ? [44100, 48000, 32000] : version == 2 ? [22050, 24000, 16000] : [11025, 12000, 8000]
        let rateIndex = Int(b[2] >> 2 & 3), bitIndex = Int(b[2] >> 4)
        guard rateIndex < 3, bitIndex > 0, bitIndex < 15 else { return nil }
        let table: [Int] = switch (version == 1, layer) {
        case (true, 1): [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 1): [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let samples = layer == 1 ? 384 : layer == 2 || version == 1 ? 1152 : 576
        var header = MPEGAudioHeader(version: version, layer: layer, sampleRate: rates[rateIndex],
                                     channels: b[3] >> 6 == 3 ? 1 : 2, frameBitRate: table[bitIndex - 1] * 1000,
                                     samplesPerFrame: samples, isVBR: false)
        header.frameBytes = header.frameLength(padded: b[2] & 2 != 0)
        return header
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
}
