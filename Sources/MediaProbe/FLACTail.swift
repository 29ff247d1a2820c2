#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// Whether a FLAC file holds as much audio as its STREAMINFO block declares, without FFmpeg: find the last
/// frame header in the file's tail (sync code, valid fields, matching CRC-8) and see where its samples end.
/// Both probe paths use it: FLAC has no other cheap sign of truncation (TagLib derives its bit rate from
/// the file's actual size, and FFmpeg's header gives the declared length only).
enum FLACTail {
    static func endsEarly(_ file: MediaFile) -> Bool { audioPresent(file) != nil }

    /// When the file ends early: the samples it holds (up to the start of its last frame header, a frame
    /// cut off holds nothing decodable) and the samples STREAMINFO declares. nil when the file is whole (or
    /// its length is unknown, or its STREAMINFO damaged).
    static func audioPresent(_ file: MediaFile) -> (samples: Int64, declared: Int64)? {
        let head = file.head                                                 // "fLaC" + STREAMINFO
        guard head.count >= 42, head.starts(with: Array("fLaC".utf8)), head[4] & 0x7F == 0 else { return nil }
        let stream = StreamInfo(head)
        // A block size the format forbids (under 16, or the minimum above the maximum) is a damaged
        // STREAMINFO, not a truncated file: FFmpeg refuses it, the audio decodes (mutagen reads it whole).
        guard stream.blockSize >= 16, stream.minimumBlockSize <= stream.blockSize else { return nil }
        let total = Int64(head[21] & 0x0F) << 32 | Int64(head[22]) << 24 | Int64(head[23]) << 16
            | Int64(head[24]) << 8 | Int64(head[25])
        guard total > 0 else { return nil }                                 // unknown length: nothing to compare
        let tail = file.tail
        let window = tail.count
        guard window >= 2, Int64(window) == min(file.facts.size, Int64(MediaFile.window)) else { return (0, total) }
        var i = window - 2
        while i >= 0 {
            if tail[i] == 0xFF, tail[i + 1] & 0xFE == 0xF8,
               let (first, end) = sampleRange(tail, at: i, stream: stream) {
                return end < total - total / 10 ? (min(first, total), total) : nil
            }
            i -= 1
        }
        return (0, total)                                                    // no audio frame at all
    }

    /// What STREAMINFO says that every frame header of the stream must agree with.
    struct StreamInfo {
        let minimumBlockSize: Int, blockSize: Int, sampleRate: Int, channels: Int, bitsPerSample: Int

        /// Equal minimum and maximum block sizes make a fixed-blocksize stream (the FLAC format's words).
        var isFixed: Bool { minimumBlockSize == blockSize }

        /// Whether a header's rate is this stream's (any, when STREAMINFO's rate is 0).
        func hasRate(_ rate: Int) -> Bool { sampleRate == 0 || rate == sampleRate }
    }

    /// The sample rates of rate codes 1–11.
    static let rates = [0, 88_200, 176_400, 192_000, 8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000]
    /// The bits per sample of sample size codes 1–7 (3 is reserved).
    static let sampleSizes = [0, 8, 12, 0, 16, 20, 24, 32]

    /// The first sample of the frame whose header starts at `i` and the sample just after it, or nil when it
    /// is not a valid header of `stream`. Compressed audio is close to random bytes, so a sync code with a
    /// matching CRC-8 turns up inside frames now and then: one taken as the last frame's header made a whole
    /// file "truncated" with a few samples (a 5 s FLAC read as 0.0018 s, CI, session 25). Every field a header
    /// shares with STREAMINFO must agree with it too: the blocking strategy, the rate, the channels, the
    /// sample size, a block no larger than the largest.
    static func sampleRange(_ b: [UInt8], at i: Int, stream: StreamInfo) -> (first: Int64, end: Int64)? {
        var p = i + 2
        guard p + 2 <= b.count else { return nil }
        let blockCode = Int(b[p] >> 4), rateCode = Int(b[p] & 0x0F)
        let channelCode = Int(b[p + 1] >> 4), sizeCode = Int(b[p + 1] >> 1 & 7)
        // Size code 7 is 32 bits per sample (RFC 9639; libFLAC 1.4 writes it, FFmpeg 5.1 cannot decode it): a
        // valid frame, so a 32-bit file is not "truncated" for want of frames this reader would take.
        guard blockCode != 0, rateCode != 15, channelCode <= 10, sizeCode != 3, b[p + 1] & 1 == 0 else { return nil }
        let variable = b[i + 1] & 1 == 1
        guard !(variable && stream.isFixed),
              rateCode == 0 || rateCode >= 12 || stream.hasRate(rates[rateCode]),
              channelCode < 8 ? channelCode + 1 == stream.channels : stream.channels == 2,
              sizeCode == 0 || sampleSizes[sizeCode] == stream.bitsPerSample
        else { return nil }
        p += 2
        // The frame (fixed block size) or sample (variable) number, UTF-8 style.
        guard p < b.count else { return nil }
        let lead = b[p]
        let extra = lead < 0x80 ? 0 : lead & 0xE0 == 0xC0 ? 1 : lead & 0xF0 == 0xE0 ? 2 : lead & 0xF8 == 0xF0 ? 3
            : lead & 0xFC == 0xF8 ? 4 : lead & 0xFE == 0xFC ? 5 : lead == 0xFE ? 6 : -1
        guard extra >= 0, p + extra < b.count else { return nil }
        var number = Int64(extra == 0 ? lead : lead & (0x3F >> extra))
        for k in 1...max(1, extra) where extra > 0 {
            guard b[p + k] & 0xC0 == 0x80 else { return nil }
            number = number << 6 | Int64(b[p + k] & 0x3F)
        }
        p += 1 + extra
        var blockSize: Int
        switch blockCode {
        case 1: blockSize = 192
        case 2...5: blockSize = 576 << (blockCode - 2)
        case 6: guard p < b.count else { return nil }; blockSize = Int(b[p]) + 1; p += 1
        case 7: guard p + 1 < b.count else { return nil }; blockSize = (Int(b[p]) << 8 | Int(b[p + 1])) + 1; p += 2
        default: blockSize = 256 << (blockCode - 8)
        }
        guard blockSize <= stream.blockSize else { return nil }
        switch rateCode {
        case 12: guard p < b.count, stream.hasRate(Int(b[p]) * 1000) else { return nil }; p += 1
        case 13: guard p + 1 < b.count, stream.hasRate(Int(b[p]) << 8 | Int(b[p + 1])) else { return nil }; p += 2
        case 14: guard p + 1 < b.count, stream.hasRate((Int(b[p]) << 8 | Int(b[p + 1])) * 10) else { return nil }; p += 2
        default: break
        }
        guard p < b.count, crc8(b[i..<p]) == b[p] else { return nil }
        let first = variable ? number : number * Int64(stream.blockSize)
        return (first, first + Int64(blockSize))
    }

    /// CRC-8, polynomial x^8 + x^2 + x + 1, as FLAC frame headers use.
    static func crc8(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        }
        return crc
    }
}

extension FLACTail.StreamInfo {
    /// From a head that starts "fLaC" + STREAMINFO's block header (42 bytes at least). (In an extension: the
    /// memberwise initializer stays, for tests.)
    init(_ head: [UInt8]) {
        self.init(minimumBlockSize: Int(head[8]) << 8 | Int(head[9]), blockSize: Int(head[10]) << 8 | Int(head[11]),
                  sampleRate: Int(head[18]) << 12 | Int(head[19]) << 4 | Int(head[20]) >> 4,
                  channels: Int(head[20] >> 1 & 7) + 1, bitsPerSample: (Int(head[20] & 1) << 4 | Int(head[21] >> 4)) + 1)
    }
}
