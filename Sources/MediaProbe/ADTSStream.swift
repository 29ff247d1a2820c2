/// A raw AAC stream in ADTS frames, its length counted frame by frame. FFmpeg's `aac` demuxer estimates the
/// length from the first frames' bit rate (14.49 s for 16.0, 224.6 for 213.0); every ADTS header states its
/// frame's length and its number of 1,024-sample blocks, so hopping from header to header (no decoding)
/// gives the exact count. Bounded as MPEGFrameWalk: 256 KiB reads, up to 32 MiB, the rest extrapolated.
struct ADTSStream {
    var sampleRate: Int
    var channels: Int
    var frames = 0
    var samples = 0
    /// The bytes the counted frames cover.
    var bytes: Int64 = 0
    var duration: Double = 0

    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// (frame length, samples, sample-rate index, channel configuration) of the ADTS header at `i` of `b`.
    static func header(_ b: UnsafeRawBufferPointer, at i: Int) -> (length: Int, samples: Int, rate: Int, channels: Int)? {
        guard i + 7 <= b.count, b[i] == 0xFF, b[i + 1] & 0xF6 == 0xF0 else { return nil }
        let rate = Int(b[i + 2] >> 2 & 0x0F)
        guard rate < sampleRates.count else { return nil }
        let length = Int(b[i + 3] & 0x03) << 11 | Int(b[i + 4]) << 3 | Int(b[i + 5] >> 5)
        let headerBytes = b[i + 1] & 1 == 0 ? 9 : 7                    // with a CRC, 2 more
        guard length >= headerBytes else { return nil }
        let channels = Int(b[i + 2] & 1) << 2 | Int(b[i + 3] >> 6)
        return (length, 1024 * (Int(b[i + 6] & 3) + 1), rate, channels)
    }

    /// Counts the frames of `file` from `start` (after any ID3v2 tag) to `end` (before trailing tags). nil
    /// when no ADTS frame starts at `start`.
    static func count(_ file: MediaFile, from start: Int64, to end: Int64) -> ADTSStream? {
        var pos = start
        var chunkStart = start
        var chunk = file.bytes(at: start, count: Int(min(Int64(MPEGFrameWalk.chunk), end - start)))
        guard let first = chunk.withUnsafeBytes({ header($0, at: 0) }) else { return nil }
        var s = ADTSStream(sampleRate: sampleRates[first.rate], channels: first.channels)
        var reachedEnd = false
        while s.bytes < MPEGFrameWalk.budget {
            if pos + 7 > end { reachedEnd = true; break }
            if pos + 7 > chunkStart + Int64(chunk.count) {
                chunkStart = pos
                chunk = file.bytes(at: pos, count: Int(min(Int64(MPEGFrameWalk.chunk), end - pos)))
            }
            guard let h = chunk.withUnsafeBytes({ header($0, at: Int(pos - chunkStart)) }), h.rate == first.rate else {
                reachedEnd = end - pos < 7
                break
            }
            s.frames += 1
            s.samples += h.samples
            s.bytes += Int64(h.length)
            pos += Int64(h.length)
        }
        guard s.frames > 0 else { return nil }
        let scale = reachedEnd || s.bytes == 0 ? 1 : Double(end - start) / Double(s.bytes)
        s.duration = Double(s.samples) / Double(s.sampleRate) * max(1, scale)
        return s
    }
}
