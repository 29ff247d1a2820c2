import Foundation

/// Builds issue 49's test files byte by byte (or from ffmpeg's output): no corpus is checked in. Shared by the
/// probe tests (each case) and the scan test (one file of every kind, `everyKind`).
public enum ReadingRoundThreeFiles {
    public static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-round3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// `seconds` of a 440 Hz sine at 44.1 kHz, mono, encoded by ffmpeg with `options` into `dir/name`.
    /// (`noise`: pink noise instead, which a VBR encoder cannot shrink.)
    public static func ffmpeg(_ dir: URL, _ name: String, seconds: Double, _ options: [String], noise: Bool = false) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let source = noise ? "anoisesrc=d=\(seconds):c=pink:r=44100:a=0.3" : "sine=f=440:d=\(seconds):r=44100"
        let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-y", "-f", "lavfi",
                                                                     "-i", source] + options + [url.path])
        guard p.status == 0 else { throw TestFailure("ffmpeg could not make \(name): \(p.stderr)") }
        return url
    }

    /// How long the audio FFmpeg decodes from `url` is (its samples at their rate, mono 44.1 kHz as made here).
    public static func decodedSeconds(_ url: URL) throws -> Double {
        let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-i", url.path,
                                                                     "-f", "s16le", "-ac", "1", "-ar", "44100", "-"])
        return Double(p.stdout.count) / 2 / 44100
    }

    // MARK: FLAC

    /// MSB-first bit writer, as FLAC frames are written.
    public struct Bits {
        public var bytes: [UInt8] = []
        var current: UInt32 = 0, count = 0
        public init() {}
        public mutating func put(_ value: UInt64, _ bits: Int) {
            for i in stride(from: bits - 1, through: 0, by: -1) {
                current = current << 1 | UInt32(value >> UInt64(i) & 1)
                count += 1
                if count == 8 { bytes.append(UInt8(current)); current = 0; count = 0 }
            }
        }
    }

    /// FLAC's frame header CRC-8 (polynomial 0x07).
    public static func crc8(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? crc << 1 ^ 0x07 : crc << 1 }
        }
        return crc
    }

    public static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x8005 : crc << 1 }
        }
        return crc
    }

    /// A mono 44.1 kHz FLAC of 32-bit samples, as libFLAC 1.4 writes them (frame headers with sample size
    /// code 7): verbatim subframes of a sine, valid CRCs (`flac -t` passes it), a Vorbis comment with a title.
    public static func flac32(seconds: Double) -> [UInt8] {
        let rate = 44100, block = 4096, total = Int(Double(rate) * seconds)
        var info = Bits()
        info.put(UInt64(block), 16); info.put(UInt64(block), 16); info.put(0, 24); info.put(0, 24)
        info.put(UInt64(rate), 20); info.put(0, 3); info.put(31, 5); info.put(UInt64(total), 36)
        let streamInfo = info.bytes + [UInt8](repeating: 0, count: 16)
        let comment = vorbisComment([Array("TITLE=Thirty-two".utf8)])
        var out = Array("fLaC".utf8) + [0, 0, 0, 34] + streamInfo + blockHeader(4, last: true, size: comment.count) + comment
        var n = 0, frame = 0
        while n < total {
            let size = min(block, total - n)
            var h: [UInt8] = [0xFF, 0xF8, UInt8((size == block ? 12 : 7) << 4 | 9), 7 << 1]
            h += frame < 0x80 ? [UInt8(frame)] : [UInt8(0xC0 | frame >> 6), UInt8(0x80 | frame & 0x3F)]
            if size != block { h += [UInt8((size - 1) >> 8), UInt8((size - 1) & 0xFF)] }
            h.append(crc8(h))
            var bits = Bits()
            bits.put(0, 1); bits.put(1, 6); bits.put(0, 1)                         // verbatim, no wasted bits
            for i in 0..<size {
                let v = Int32(0.3 * 2147483647 * sin(2 * Double.pi * 440 * Double(n + i) / Double(rate)))
                bits.put(UInt64(UInt32(bitPattern: v)), 32)
            }
            var body = h + bits.bytes
            let crc = crc16(body)
            body += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
            out += body
            n += size
            frame += 1
        }
        return out
    }

    public static func blockHeader(_ kind: UInt8, last: Bool, size: Int) -> [UInt8] {
        [(last ? 0x80 : 0) | kind, UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
    }

    public static func le32(_ n: Int) -> [UInt8] { (0..<4).map { UInt8(n >> (8 * $0) & 0xFF) } }
    public static func be32(_ n: Int) -> [UInt8] { le32(n).reversed() }

    public static func vorbisComment(_ fields: [[UInt8]]) -> [UInt8] {
        let vendor = Array("mlib test".utf8)
        return le32(vendor.count) + vendor + le32(fields.count) + fields.flatMap { le32($0.count) + $0 }
    }

    /// `flac` (a FLAC file) with its metadata replaced by STREAMINFO and a Vorbis comment of `fields` (raw bytes).
    public static func flacWithComment(_ flac: Data, _ fields: [[UInt8]]) throws -> [UInt8] {
        let data = [UInt8](flac)
        guard data.starts(with: Array("fLaC".utf8)) else { throw TestFailure("not a FLAC") }
        var at = 4, streamInfo: [UInt8] = []
        while true {
            let last = data[at] & 0x80 != 0, size = Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            if data[at] & 0x7F == 0 { streamInfo = Array(data[(at + 4)..<(at + 4 + size)]) }
            at += 4 + size
            if last { break }
        }
        let comment = vorbisComment(fields)
        return Array("fLaC".utf8) + blockHeader(0, last: false, size: 34) + streamInfo
            + blockHeader(4, last: true, size: comment.count) + comment + data[at...]
    }

    // MARK: MP3

    /// Bytes shaped like AMR-NB frames (mode 7, 32 bytes each): FFmpeg's probing takes them for AMR.
    public static func amrLikeJunk(_ count: Int) -> [UInt8] {
        var rng = SplitMix(seed: 49), out: [UInt8] = []
        while out.count < count { out += [0x3C] + (0..<31).map { _ in UInt8(rng.next() & 0xFF) } }
        return Array(out.prefix(count))
    }

    public static func randomJunk(_ count: Int) -> [UInt8] {
        var rng = SplitMix(seed: 1)
        return (0..<count).map { _ in UInt8(rng.next() & 0xFF) }
    }

    public struct SplitMix {
        var seed: UInt64
        public init(seed: UInt64) { self.seed = seed }
        public mutating func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ z >> 30) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ z >> 27) &* 0x94D0_49BB_1331_11EB
            return z ^ z >> 31
        }
    }

    /// An ID3v2.3 tag with an extended header (size 6, no CRC, no padding) and Latin-1 text frames.
    public static func id3v23WithExtendedHeader() -> [UInt8] {
        id3v23([("TIT2", "Title v2"), ("TPE1", "Artist v2"), ("TALB", "Album v2"), ("TRCK", "7/9")], extendedHeader: true)
    }

    /// An ID3v2.4 tag of UTF-8 text frames (`frames`: id, text), written byte by byte.
    public static func id3v24(_ frames: [(String, String)]) -> [UInt8] {
        func syncsafe(_ n: Int) -> [UInt8] { [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)] }
        let body = frames.flatMap { id, text in
            let content = [UInt8(3)] + Array(text.utf8)
            return Array(id.utf8) + syncsafe(content.count) + [0, 0] + content
        }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
    }

    /// An APEv2 tag (items, then the 32-byte footer; no header), as Musepack and WavPack files end with.
    public static func apeTag(_ items: [(String, String)]) -> [UInt8] {
        var body: [UInt8] = []
        for (key, value) in items {
            body += le32(value.utf8.count) + le32(0)                    // value size, flags (UTF-8 text)
            body += Array(key.utf8) + [0] + Array(value.utf8)
        }
        let counts: [UInt8] = le32(2000) + le32(body.count + 32) + le32(items.count) + le32(0)
        return body + Array("APETAGEX".utf8) + counts + [UInt8](repeating: 0, count: 8)
    }

    public static func id3v1(title: String, artist: String, album: String, year: String) -> [UInt8] {
        func field(_ s: String, _ n: Int) -> [UInt8] { Array(Array(s.utf8).prefix(n)) + [UInt8](repeating: 0, count: max(0, n - s.utf8.count)) }
        return Array("TAG".utf8) + field(title, 30) + field(artist, 30) + field(album, 30) + field(year, 4) + field("", 30) + [0xFF]
    }

    // MARK: WAV

    /// `wav` (a PCM WAV) with its chunks kept but LIST dropped, and `fields` written as cp1252 in `chunks`
    /// LIST/INFO chunks (the first field in the first, the rest in the second when there are two).
    public static func wavWithInfo(_ wav: Data, fields: [(String, String)], chunks: Int) throws -> [UInt8] {
        let data = [UInt8](wav)
        guard data.count > 12 && data.starts(with: Array("RIFF".utf8)) else { throw TestFailure("not a WAV") }
        var at = 12, kept: [UInt8] = [], audio: [UInt8] = []
        while at + 8 <= data.count {
            let id = String(decoding: data[at..<at + 4], as: UTF8.self)
            let size = Int(data[at + 4]) | Int(data[at + 5]) << 8 | Int(data[at + 6]) << 16 | Int(data[at + 7]) << 24
            let chunk = Array(data[at..<min(data.count, at + 8 + size + size % 2)])
            if id == "data" { audio = chunk } else if id != "LIST" { kept += chunk }
            at += 8 + size + size % 2
        }
        func sub(_ id: String, _ text: String) -> [UInt8] {
            let b = cp1252(text) + [0]
            return Array(id.utf8) + le32(b.count) + b + (b.count % 2 == 1 ? [0] : [])
        }
        func list(_ fields: ArraySlice<(String, String)>) -> [UInt8] {
            let body = Array("INFO".utf8) + fields.flatMap { sub($0.0, $0.1) }
            return Array("LIST".utf8) + le32(body.count) + body
        }
        let lists = chunks == 1 ? list(fields[...]) : list(fields.prefix(1)) + list(fields.dropFirst())
        let body = Array("WAVE".utf8) + kept + lists + audio
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// Windows-1252 bytes of `s` (every character must have one).
    public static func cp1252(_ s: String) -> [UInt8] {
        let high: [Character: UInt8] = ["€": 0x80, "‚": 0x82, "ƒ": 0x83, "„": 0x84, "…": 0x85, "†": 0x86, "‡": 0x87, "ˆ": 0x88,
                                        "‰": 0x89, "Š": 0x8A, "‹": 0x8B, "Œ": 0x8C, "Ž": 0x8E, "‘": 0x91, "’": 0x92, "“": 0x93,
                                        "”": 0x94, "•": 0x95, "–": 0x96, "—": 0x97, "˜": 0x98, "™": 0x99, "š": 0x9A, "›": 0x9B,
                                        "œ": 0x9C, "ž": 0x9E, "Ÿ": 0x9F]
        return s.map { c in high[c] ?? UInt8(c.unicodeScalars.first!.value) }
    }

    // MARK: Containers whose own index says how long they are

    /// A 3 s WMA (ffmpeg's wmav2 at 128 kb/s) whose stream header states 1,152 kb/s, as a VBR stream's header
    /// states its peak rate (WMA Lossless: TagLib's `lossless.wma` says 1152 kb/s and holds 99 kB for 3.55 s):
    /// the ASF Stream Properties Object's WAVEFORMATEX average-bytes field, 144,000, which FFmpeg reports.
    public static func wmaStatingItsPeakRate(_ dir: URL) throws -> URL {
        let made = try ffmpeg(dir, "peak-rate-source.wma", seconds: 3, ["-c:a", "wmav2", "-b:a", "128k"], noise: true)
        defer { try? FileManager.default.removeItem(at: made) }
        var b = [UInt8](try Data(contentsOf: made))
        let streamProperties: [UInt8] = [0x91, 0x07, 0xDC, 0xB7, 0xB7, 0xA9, 0xCF, 0x11, 0x8E, 0xE6, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]
        guard let at = (0...(b.count - 16)).first(where: { b[$0..<$0 + 16].elementsEqual(streamProperties) }) else {
            throw TestFailure("no ASF Stream Properties Object")
        }
        b.replaceSubrange(at + 86..<at + 90, with: le32(144_000))   // 78: the type-specific data; 8: nAvgBytesPerSec
        let url = dir.appendingPathComponent("peak-rate.wma")
        try Data(b).write(to: url)
        return url
    }

    /// A Musepack SV8 stream of `samples` (less `silence` leading samples) at 44.1 kHz stereo in blocks of
    /// 1,152 × 4³ samples, as the SV8 specification lays it out: "MPCK", the stream header (SH, with its
    /// CRC-32, which FFmpeg's probe wants non-zero), ReplayGain (RG), encoder info (EI), four one-byte audio
    /// packets (AP), stream end (SE). No audio: the header's length is what is read.
    public static func musepackSV8(samples: Int, silence: Int) -> [UInt8] {
        func varint(_ n: Int) -> [UInt8] {
            var out = [UInt8(n & 0x7F)], n = n >> 7
            while n > 0 { out.insert(0x80 | UInt8(n & 0x7F), at: 0); n >>= 7 }
            return out
        }
        func packet(_ key: String, _ payload: [UInt8]) -> [UInt8] { Array(key.utf8) + varint(3 + payload.count) + payload }
        let header = [8] + varint(samples) + varint(silence) + [27, 1 << 4 | 1 << 3 | 3]   // 44.1 kHz, 27 bands; 2 ch, M/S, 4^3
        return Array("MPCK".utf8) + packet("SH", be32(Int(crc32(header))) + header) + packet("RG", [1] + [UInt8](repeating: 0, count: 8))
            + packet("EI", [0x51, 0x01, 0x1E, 0x00]) + (0..<4).flatMap { _ in packet("AP", [0x1C]) } + packet("SE", [])
    }

    /// CRC-32 (the zlib one, reflected 0xEDB88320).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
