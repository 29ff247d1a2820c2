/// Walks the MPEG audio frames of a stream from header to header, without decoding: how many frames and
/// samples there are, and whether the bit rate varies. For a VBR MP3 without a Xing/VBRI header (which
/// FFmpeg, TagLib and mutagen all take for CBR at the first frame's rate: 23.9 s for 5.4 s) the count of
/// frames is the length. Bounded: a CBR stream is recognised from its first frames (no further read), a VBR
/// one is walked in 256 KiB reads up to `budget` bytes and the rest extrapolated.
struct MPEGFrameWalk {
    var frames = 0
    var samples = 0
    /// The bytes the walked frames cover.
    var bytes: Int64 = 0
    /// Whether the frames walked so far differ in bit rate.
    var variesInBitRate = false
    /// The walk reached `end` (or stopped within a frame of it) rather than losing the frames.
    var reachedEnd = false

    static let chunk = 256 * 1024
    static let budget: Int64 = 32 << 20

    /// One frame header's facts: its length in bytes, its sample count, and what must not change between
    /// frames of one stream (version, layer, sample rate: the header's second byte and the rate bits).
    struct Frame: Equatable {
        var length: Int
        var samples: Int
        var bitRateIndex: UInt8
        var stream: UInt16
    }

    /// The frame header at `i` of `b`, or nil.
    static func frame(_ b: UnsafeRawBufferPointer, at i: Int) -> Frame? {
        guard i + 4 <= b.count, b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
        let b1 = b[i + 1], b2 = b[i + 2]
        let versionBits = Int(b1 >> 3 & 3), layerBits = Int(b1 >> 1 & 3)
        let bitIndex = Int(b2 >> 4), rateIndex = Int(b2 >> 2 & 3)
        guard versionBits != 1, layerBits != 0, bitIndex != 0, bitIndex != 15, rateIndex != 3 else { return nil }
        let layer = 4 - layerBits, v1 = versionBits == 3
        let kbps = v1 ? (layer == 1 ? v1L1 : layer == 2 ? v1L2 : v1L3)[bitIndex - 1] : (layer == 1 ? v2L1 : v2L23)[bitIndex - 1]
        let sampleRate = sampleRates[versionBits * 3 + rateIndex]
        let pad = Int(b2 >> 1 & 1)
        let bitRate = kbps * 1000
        let length: Int, samples: Int
        switch layer {
        case 1: length = (12 * bitRate / sampleRate + pad) * 4; samples = 384
        case 2: length = 144 * bitRate / sampleRate + pad; samples = 1152
        default: length = (v1 ? 144 : 72) * bitRate / sampleRate + pad; samples = v1 ? 1152 : 576
        }
        guard length >= 4 else { return nil }
        return Frame(length: length, samples: samples, bitRateIndex: UInt8(bitIndex),
                     stream: UInt16(b1 & 0xFE) << 8 | UInt16(b2 & 0x0C))
    }

    /// By version bits (0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1) × 3 + the rate index.
    private static let sampleRates = [11025, 12000, 8000, 0, 0, 0, 22050, 24000, 16000, 44100, 48000, 32000]
    private static let v1L1 = [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
    private static let v1L2 = [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
    private static let v1L3 = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let v2L1 = [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
    private static let v2L23 = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]

    /// Whether a stream's first frame starts at `i` of `b`: a header followed by another of the same stream
    /// (or by the end of `b`, for a stream of one frame), as FFmpeg and mutagen require before they take the
    /// bytes for MPEG audio.
    static func startsStream(_ b: UnsafeRawBufferPointer, at i: Int, audioEnd: Int) -> Bool {
        guard let f = frame(b, at: i) else { return false }
        let next = i + f.length
        if next + 4 > min(b.count, audioEnd) { return next <= audioEnd }
        return frame(b, at: next)?.stream == f.stream
    }

    /// Walks from `start` to `end` of `file`, beginning with `window` (the bytes at `start`, already read).
    /// With `onlyWindow`, stops at the window's end (enough to tell CBR from VBR).
    static func walk(_ file: MediaFile, window: [UInt8], from start: Int64, to end: Int64, onlyWindow: Bool) -> MPEGFrameWalk {
        var w = MPEGFrameWalk()
        var chunkStart = start
        var chunk = window
        var pos = start
        var first: Frame?
        while pos + 4 <= end, w.bytes < Self.budget {
            if pos + 4 > chunkStart + Int64(chunk.count) {
                if onlyWindow { break }
                chunkStart = pos
                chunk = file.bytes(at: pos, count: Int(min(Int64(Self.chunk), end - pos)))
                guard chunk.count >= 4 else { break }
            }
            let i = Int(pos - chunkStart)
            var found = chunk.withUnsafeBytes { frame($0, at: i) }
            if found == nil || (first != nil && found?.stream != first?.stream) {
                // Lost the frames (a damaged frame, junk in between): the next header of the same stream
                // within 4 KiB of the chunk, else the walk ends.
                let resync = chunk.withUnsafeBytes { b -> Int? in
                    var j = i + 1
                    while j + 4 <= min(b.count, i + 4096) {
                        if let f = frame(b, at: j), f.stream == first?.stream { return j }
                        j += 1
                    }
                    return nil
                }
                guard let j = resync else { break }
                pos = chunkStart + Int64(j)
                found = chunk.withUnsafeBytes { frame($0, at: j) }
            }
            guard let f = found else { break }
            if let first, f.bitRateIndex != first.bitRateIndex { w.variesInBitRate = true }
            if first == nil { first = f }
            w.frames += 1
            w.samples += f.samples
            w.bytes += Int64(f.length)
            pos += Int64(f.length)
        }
        w.reachedEnd = pos + 4 > end
        return w
    }
}
