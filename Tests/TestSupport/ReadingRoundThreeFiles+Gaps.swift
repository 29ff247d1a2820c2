import Foundation

/// Issue 49's last cases: makers shared by each case's probe test (`ReadingRoundThreeGapTests` and the older
/// ones) and the every-kind scan (`everyKind`), so that both read the same file.
extension ReadingRoundThreeFiles {
    // MARK: MP3

    /// TagLib's `itunes10.mp3`'s shape: an Info frame and two audio frames (2,304 samples at 44.1 kHz, mono)
    /// whose LAME header says encoder delay 576 + padding 1,728, i.e. every sample is delay or padding. Made
    /// from ffmpeg's 1 ms MP3 (which is exactly that layout), its LAME extension renamed "LAME3.100" (mutagen
    /// reads only LAME's) and its delay/padding and tag CRC rewritten. ffprobe says 0.052 s (the frames);
    /// FFmpeg decodes nothing and mutagen says 0.0 s.
    public static func mp3WhollyPadded(_ dir: URL) throws -> URL {
        let made = try ffmpeg(dir, "padded-source.mp3", seconds: 0.001, ["-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "0"])
        defer { try? FileManager.default.removeItem(at: made) }
        var b = [UInt8](try Data(contentsOf: made))
        guard b.count == 1252, b[0] == 0xFF, let info = (0..<64).first(where: { b[$0..<$0 + 4].elementsEqual("Info".utf8) }) else {
            throw TestFailure("ffmpeg's 1 ms MP3 is not an Info frame and two frames (\(b.count) bytes)")
        }
        let flags = Int(b[info + 7])
        let lame = info + 8 + (flags & 1 != 0 ? 4 : 0) + (flags & 2 != 0 ? 4 : 0) + (flags & 4 != 0 ? 100 : 0) + (flags & 8 != 0 ? 4 : 0)
        b.replaceSubrange(lame..<lame + 9, with: Array("LAME3.100".utf8))
        b.replaceSubrange(lame + 21..<lame + 24, with: [0x24, 0x06, 0xC0])   // delay 0x240 = 576, padding 0x6C0 = 1,728
        // The LAME tag's CRC-16 (reflected 0x8005) of the frame's first 190 bytes, at +34.
        var crc: UInt16 = 0
        for byte in b[0..<190] {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0xA001 : crc >> 1 }
        }
        b.replaceSubrange(lame + 34..<lame + 36, with: [UInt8(crc >> 8), UInt8(crc & 0xFF)])
        let url = dir.appendingPathComponent("wholly-padded.mp3")
        try Data(b).write(to: url)
        return url
    }

    /// An ID3v2.3 tag of Latin-1 text frames (`frames`: id, text), written byte by byte; `extendedHeader`: with
    /// one of size 6 (no CRC, no padding) before the frames.
    public static func id3v23(_ frames: [(String, String)], extendedHeader: Bool = false) -> [UInt8] {
        let body = (extendedHeader ? be32(6) + [0, 0] + be32(0) : []) + frames.flatMap { id, text in
            let content = [UInt8(0)] + Array(text.utf8)
            return Array(id.utf8) + be32(content.count) + [0, 0] + content
        }
        let size = body.count
        return Array("ID3".utf8) + [3, 0, extendedHeader ? 0x40 : 0]
            + [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)] + body
    }

    /// A 1 s MP3 whose date is split as ID3v2.3 writes it (TYER 2004, TDAT "0304" = 3 April, TIME 12:00, as
    /// mutagen saves a TDRC "2004-04-03 12:00" in v2.3) and repeated in an ID3v1 tag (year 2004), as mutagen
    /// writes both: the date is 2004-04-03.
    public static func combinedDateMP3(_ dir: URL) throws -> URL {
        let audio = try ffmpeg(dir, "combined-source.mp3", seconds: 1, ["-c:a", "libmp3lame", "-id3v2_version", "0"])
        defer { try? FileManager.default.removeItem(at: audio) }
        let tag = id3v23([("TIT2", "Combined"), ("TYER", "2004"), ("TDAT", "0304"), ("TIME", "1200")])
        let url = dir.appendingPathComponent("combined-date.mp3")
        try Data(tag + [UInt8](try Data(contentsOf: audio)) + id3v1(title: "Combined", artist: "", album: "", year: "2004")).write(to: url)
        return url
    }

    /// A 1 s MP3 whose ID3v2.4 TDRC is written in Arabic-Indic digits (`date`), as some Arabic-locale taggers
    /// write it (mutagen would normalise it to ASCII digits on saving, so it is written byte by byte).
    public static func scriptDigitDateMP3(_ dir: URL, date: String = "٢٠٠٤-٠٣-٠٥") throws -> URL {
        let audio = try ffmpeg(dir, "dated-source.mp3", seconds: 1, ["-c:a", "libmp3lame", "-id3v2_version", "0"])
        defer { try? FileManager.default.removeItem(at: audio) }
        let url = dir.appendingPathComponent("arabic-date.mp3")
        try Data(id3v24([("TIT2", "Arabic"), ("TDRC", date)]) + [UInt8](try Data(contentsOf: audio))).write(to: url)
        return url
    }

    // MARK: AAC

    /// An ADIF AAC file (one header, then raw data blocks, no frame headers; FFmpeg has no ADIF muxer, so it is
    /// built by bytes): ffmpeg's 1 s ADTS AAC (44.1 kHz mono LC), each ADTS header dropped, under an ADIF
    /// header stating constant rate and the bit rate the file averages (its size over its frames' 1,024
    /// samples each), and one program config element (LC, the ADTS sample rate index, one front
    /// single-channel element). Returns the file and its frames' length. FFmpeg 5.1 reads it as 0.30 s at
    /// sample rate 0 and decodes nothing; mutagen reads it (ADIF, 44100 Hz, 1 channel, about 1.04 s).
    public static func adif(_ dir: URL) throws -> (url: URL, seconds: Double) {
        let made = try ffmpeg(dir, "adif-source.aac", seconds: 1, ["-c:a", "aac", "-b:a", "128k", "-f", "adts"])
        defer { try? FileManager.default.removeItem(at: made) }
        let b = [UInt8](try Data(contentsOf: made))
        var at = 0, payload: [UInt8] = [], frames = 0, rateIndex = 0
        while at + 7 <= b.count {
            guard b[at] == 0xFF, b[at + 1] & 0xF0 == 0xF0 else { throw TestFailure("no ADTS frame at \(at)") }
            let length = Int(b[at + 3] & 3) << 11 | Int(b[at + 4]) << 3 | Int(b[at + 5]) >> 5
            let header = b[at + 1] & 1 == 1 ? 7 : 9                           // protection absent: no CRC
            rateIndex = Int(b[at + 2] >> 2 & 0xF)
            payload += b[(at + header)..<(at + length)]
            frames += 1
            at += length
        }
        let seconds = Double(frames * 1024) / 44100
        func header(bitRate: Int) -> [UInt8] {
            var w = Bits()
            for c in "ADIF".utf8 { w.put(UInt64(c), 8) }
            w.put(0, 1); w.put(0, 1); w.put(0, 1); w.put(0, 1)                 // no copyright id, copy, home, constant rate
            w.put(UInt64(bitRate), 23); w.put(0, 4); w.put(0, 20)              // one program config element; buffer fullness
            w.put(0, 4); w.put(1, 2); w.put(UInt64(rateIndex), 4)              // tag, LC, sample rate index
            w.put(1, 4); w.put(0, 4); w.put(0, 4); w.put(0, 2); w.put(0, 3); w.put(0, 4)   // 1 front element, no others
            w.put(0, 3)                                                        // no mixdowns
            w.put(0, 1); w.put(0, 4)                                           // front: a single channel element, tag 0
            w.align()
            w.put(0, 8)                                                        // no comment
            return w.bytes
        }
        let bitRate = Int((Double((header(bitRate: 0).count + payload.count) * 8) / seconds).rounded())
        let url = dir.appendingPathComponent("adif.aac")
        try Data(header(bitRate: bitRate) + payload).write(to: url)
        return (url, seconds)
    }

    // MARK: Ogg

    /// 3 s of a tone in Ogg Speex at 16 kHz, mono (ffmpeg's libspeex).
    public static func speex(_ dir: URL) throws -> URL {
        try ffmpeg(dir, "speex.spx", seconds: 3, ["-c:a", "libspeex", "-ar", "16000", "-metadata", "title=Spoken"])
    }

    /// An Ogg Vorbis or Opus file (`codec`: libvorbis or libopus) whose comment packet holds Latin-1 bytes:
    /// ffmpeg writes "title=Cafe" and "artist=Bjork", the e and o become Latin-1 é and ö (the lengths
    /// unchanged) and the pages' CRCs are mended. Read as "Café" and "Björk".
    public static func latin1Ogg(_ dir: URL, _ name: String, codec: String) throws -> URL {
        let made = try ffmpeg(dir, "made-" + name, seconds: 1, ["-c:a", codec, "-metadata", "title=Cafe", "-metadata", "artist=Bjork"])
        defer { try? FileManager.default.removeItem(at: made) }
        var b = [UInt8](try Data(contentsOf: made))
        func patch(_ from: String, _ to: [UInt8]) throws {
            let f = Array(from.utf8)
            guard let at = (0...(b.count - f.count)).first(where: { b[$0..<$0 + f.count].elementsEqual(f) }) else { throw TestFailure("no \(from)") }
            b.replaceSubrange(at..<at + f.count, with: to)
        }
        try patch("title=Cafe", Array("title=Caf".utf8) + [0xE9])
        try patch("artist=Bjork", Array("artist=Bj".utf8) + [0xF6] + Array("rk".utf8))
        // Mend the CRC (polynomial 0x04C11DB7, not reflected) of every page in the first 64 KiB.
        var at = 0
        while at + 27 <= b.count, b[at..<at + 4].elementsEqual("OggS".utf8) {
            let segments = Int(b[at + 26])
            let end = at + 27 + segments + b[(at + 27)..<(at + 27 + segments)].reduce(0) { $0 + Int($1) }
            guard end <= b.count, at < 65536 else { break }
            b.replaceSubrange(at + 22..<at + 26, with: [0, 0, 0, 0])
            var crc: UInt32 = 0
            for byte in b[at..<end] {
                crc ^= UInt32(byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
            }
            b.replaceSubrange(at + 22..<at + 26, with: le32(Int(crc)))
            at = end
        }
        let url = dir.appendingPathComponent(name)
        try Data(b).write(to: url)
        return url
    }

    // MARK: FLAC

    /// A FLAC whose Vorbis comment is its last metadata block and declares a length shorter than its contents
    /// (as mutagen's `52-too-short-block-size.flac`): ffmpeg's 5 s FLAC of pink noise titled "Mother's
    /// Daughter" by Tunng, its blocks rewritten as STREAMINFO + the comment (declared to end 8 bytes into its
    /// first field) + the audio frames; and `cut`, the same cut at half, as the mutagen file is cut.
    public static func shortBlockFLAC(_ dir: URL) throws -> (whole: URL, cut: URL) {
        let made = try ffmpeg(dir, "short-block-source.flac", seconds: 5, ["-c:a", "flac", "-metadata", "title=Mother's Daughter",
                                                                           "-metadata", "artist=Tunng",
                                                                           "-metadata", "album=Mother's Daughter and Other Songs"], noise: true)
        defer { try? FileManager.default.removeItem(at: made) }
        let data = [UInt8](try Data(contentsOf: made))
        guard data.starts(with: Array("fLaC".utf8)) else { throw TestFailure("not a FLAC") }
        var at = 4, streamInfo: [UInt8] = [], comment: [UInt8] = []
        while true {
            let last = data[at] & 0x80 != 0, kind = data[at] & 0x7F
            let size = Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            let body = Array(data[(at + 4)..<(at + 4 + size)])
            if kind == 0 { streamInfo = body }
            if kind == 4 { comment = body }
            at += 4 + size
            if last { break }
        }
        guard streamInfo.count == 34, comment.count > 100 else { throw TestFailure("ffmpeg wrote no STREAMINFO or comment") }
        // Declared as the mutagen file's: the vendor string, the field count and 8 bytes of the first field.
        let vendor = Int(comment[0]) | Int(comment[1]) << 8 | Int(comment[2]) << 16 | Int(comment[3]) << 24
        let rewritten = Array("fLaC".utf8) + blockHeader(0, last: false, size: 34) + streamInfo
            + blockHeader(4, last: true, size: 4 + vendor + 4 + 8) + comment + data[at...]
        let whole = dir.appendingPathComponent("short-block.flac"), cut = dir.appendingPathComponent("short-block-cut.flac")
        try Data(rewritten).write(to: whole)
        try Data(rewritten.prefix(rewritten.count / 2)).write(to: cut)
        return (whole, cut)
    }
}

extension ReadingRoundThreeFiles.Bits {
    /// Pads with zero bits to the next byte (a syntax element's byte_alignment()).
    public mutating func align() { if count > 0 { put(0, 8 - count) } }
}
