import Foundation

/// An HEVC video whose first frames carry an SEI message no decoder knows (issue 49: such a file read 0.13 s
/// and partial where it decodes to 0.39 s).
extension ReadingRoundThreeFiles {
    /// 0.44 s of 64×64 video at 25 fps (11 frames, no B-frames) by libx265 as Annex B, with a prefix SEI NAL
    /// unit (type 39) of payload type 77, which H.265 does not define, before the first slice of each of the
    /// first `frames` access units; then `ffmpeg -c copy` into an MP4 (title "Unknown SEI"), which keeps
    /// the SEI in the samples. The payload holds 00 00 01, escaped as the standard says (00 00 03 01).
    public static func hevcWithUnknownSEI(_ dir: URL, frames: Int = 3) throws -> URL {
        let ffmpeg = try UndecodableMedia.requireFFmpeg()
        let raw = dir.appendingPathComponent("plain.hevc"), patched = dir.appendingPathComponent("sei.hevc")
        defer { for u in [raw, patched] { try? FileManager.default.removeItem(at: u) } }
        let p = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=64x64:d=0.44:r=25",
                                              "-c:v", "libx265", "-x265-params", "log-level=error:bframes=0", "-f", "hevc", raw.path])
        guard p.status == 0 else { throw TestFailure("ffmpeg could not make HEVC: \(p.stderr)") }
        let b = [UInt8](try Data(contentsOf: raw))
        var starts: [Int] = []                                          // each NAL unit's start code (3 or 4 bytes)
        var i = 0
        while i + 3 <= b.count {
            if b[i] == 0, b[i + 1] == 0, b[i + 2] == 1 { starts.append(i > 0 && b[i - 1] == 0 ? i - 1 : i); i += 3 } else { i += 1 }
        }
        let payload: [UInt8] = [0x00, 0x00, 0x01, 0x4D, 0x4C, 0x49, 0x42]
        var rbsp: [UInt8] = [77, UInt8(payload.count)] + payload + [0x80]  // type, size, payload, rbsp_trailing_bits
        var escaped: [UInt8] = [], zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 3 { escaped.append(3); zeros = 0 }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        rbsp = escaped
        let sei: [UInt8] = [0, 0, 0, 1, 39 << 1, 1] + rbsp             // nal_unit_type 39, layer 0, temporal id 1
        var out: [UInt8] = [], inserted = 0
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : b.count
            let header = start + (b[start + 2] == 1 ? 3 : 4)
            // A slice (types 0-31) that begins a picture (first_slice_segment_in_pic_flag).
            if inserted < frames, header + 2 < end, b[header] >> 1 & 0x3F < 32, b[header + 2] & 0x80 != 0 {
                out += sei
                inserted += 1
            }
            out += b[start..<end]
        }
        guard inserted == frames else { throw TestFailure("only \(inserted) pictures in the HEVC stream") }
        try Data(out).write(to: patched)
        let url = dir.appendingPathComponent("unknown-sei.mp4")
        let m = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-y", "-r", "25", "-i", patched.path, "-c", "copy",
                                              "-metadata", "title=Unknown SEI", "-f", "mp4", url.path])
        guard m.status == 0 else { throw TestFailure("ffmpeg could not put the HEVC into an MP4: \(m.stderr)") }
        return url
    }

    /// How many video frames FFmpeg decodes from `url` (64×64, as gray bytes).
    public static func decodedFrames(_ url: URL, width: Int = 64, height: Int = 64) throws -> Int {
        let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-i", url.path,
                                                                     "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        return p.stdout.count / (width * height)
    }
}
