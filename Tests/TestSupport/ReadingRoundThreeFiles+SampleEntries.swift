import Foundation

/// MP4s whose sample entry says what no encoder here writes (issue 49: a CENC-encrypted track, Dolby Vision
/// AV1), made from a file ffmpeg writes by patching its sample entry: ffmpeg puts `moov` after `mdat`, so
/// growing `moov` moves no chunk offset.
extension ReadingRoundThreeFiles {
    /// An ISO BMFF box.
    public static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(8 + body.count) + Array(type.utf8) + body }
    /// A full box (version, 24 bits of flags, then `body`).
    public static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ body: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + body)
    }

    /// `mp4` with the first track's first sample entry renamed `fourcc` and `box` appended inside it; the
    /// entry's size and every parent's (stsd, stbl, minf, mdia, trak, moov) grown by the box's.
    public static func patchingSampleEntry(_ mp4: [UInt8], from old: String, to fourcc: String, appending extra: [UInt8]) throws -> [UInt8] {
        var b = mp4
        func size(_ at: Int) -> Int { b[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func find(_ type: String, in range: Range<Int>) throws -> Int {
            var at = range.lowerBound
            while at + 8 <= range.upperBound {
                if b[at + 4..<at + 8].elementsEqual(type.utf8) { return at }
                guard size(at) >= 8 else { break }
                at += size(at)
            }
            throw TestFailure("no \(type) box")
        }
        var parents: [Int] = [], range = 0..<b.count
        for type in ["moov", "trak", "mdia", "minf", "stbl", "stsd"] {
            let at = try find(type, in: range)
            parents.append(at)
            range = at + 8..<at + size(at)
        }
        let entry = parents.last! + 16                                  // stsd: header, version and flags, entry count
        guard b[entry + 4..<entry + 8].elementsEqual(old.utf8) else { throw TestFailure("the sample entry is not \(old)") }
        b.replaceSubrange(entry + 4..<entry + 8, with: Array(fourcc.utf8))
        let end = entry + size(entry)
        b.insert(contentsOf: extra, at: end)
        for at in parents + [entry] { b.replaceSubrange(at..<at + 4, with: be32(size(at) + extra.count)) }
        return b
    }

    /// A 0.76 s AAC MP4 made by ffmpeg (title "Sealed", artist "Widevine") as a CENC-encrypted track is
    /// stored (ISO/IEC 23001-7): its `mp4a` entry renamed `enca` holding a `sinf` (`frma` = mp4a, `schm` =
    /// cenc 1.0, `schi` with a `tenc`: protected by default, 8-byte IVs, a 16-byte key id), and its samples
    /// scrambled (XOR 0x5A, standing for AES-CTR under a key no reader here has). FFmpeg 5.1 shows the
    /// stream as `aac` and decodes none of it ("Invalid data found when processing input").
    public static func cencEncryptedAAC(_ dir: URL) throws -> URL {
        let made = try ffmpeg(dir, "clear.mp4", seconds: 0.76, ["-c:a", "aac", "-ar", "48000", "-metadata", "title=Sealed",
                                                               "-metadata", "artist=Widevine", "-f", "mp4"])
        defer { try? FileManager.default.removeItem(at: made) }
        var b = [UInt8](try Data(contentsOf: made))
        var at = 0
        while at + 8 <= b.count {                                       // the samples: mdat's body
            let size = b[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8 else { break }
            if b[at + 4..<at + 8].elementsEqual("mdat".utf8) { for i in at + 8..<min(at + size, b.count) { b[i] ^= 0x5A } }
            at += size
        }
        let tenc = fullBox("tenc", [0, 0, 1, 8] + (0..<16).map { UInt8($0) })   // reserved ×2, isProtected, IV size, KID
        let sinf = box("sinf", box("frma", Array("mp4a".utf8)) + fullBox("schm", Array("cenc".utf8) + be32(0x0001_0000))
                       + box("schi", tenc))
        let url = dir.appendingPathComponent("cenc.mp4")
        try Data(try patchingSampleEntry(b, from: "mp4a", to: "enca", appending: sinf)).write(to: url)
        return url
    }

    /// A 0.4 s 64×64 AV1 video MP4 (25 fps, title "Vision", no audio) as Dolby Vision profile 10 is stored: its
    /// `av01` entry renamed `dav1` holding a `dvvC` box (Dolby's 24-byte DOVIDecoderConfigurationRecord:
    /// version 1.0, profile 10, level 1, RPU and base layer present). ffprobe 5.1 shows "none (dav1 /
    /// 0x31766164)" with the DOVI record and decodes nothing. With no AV1 encoder in this ffmpeg, an MPEG-4
    /// Part 2 video's `mp4v` entry is patched instead: the bytes behind the entry are not read either way.
    public static func dolbyVisionAV1(_ dir: URL) throws -> URL {
        let made = dir.appendingPathComponent("av1.mp4")
        defer { try? FileManager.default.removeItem(at: made) }
        var entry: String?
        for (encoder, fourcc) in [("libsvtav1", "av01"), ("libaom-av1", "av01"), ("librav1e", "av01"), ("mpeg4", "mp4v")] {
            let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-y", "-f", "lavfi",
                                         "-i", "testsrc=s=64x64:d=0.4:r=25", "-c:v", encoder, "-metadata", "title=Vision", "-f", "mp4", made.path])
            if p.status == 0 { entry = fourcc; break }
        }
        guard let entry else { throw TestFailure("ffmpeg could make no video MP4") }
        let profile = 10, level = 1
        let dvvC = box("dvvC", [1, 0, UInt8(profile << 1 | level >> 5), UInt8((level & 0x1F) << 3 | 0b101), 0]
                       + [UInt8](repeating: 0, count: 19))
        let url = dir.appendingPathComponent("dolby-vision.mp4")
        try Data(try patchingSampleEntry([UInt8](try Data(contentsOf: made)), from: entry, to: "dav1", appending: dvvC)).write(to: url)
        return url
    }
}
