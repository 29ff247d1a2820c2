import MediaModel

/// Recognises the common containers from their first bytes. FFmpeg's own detection asks every demuxer it
/// has to score the header (a good part of the cost of opening a small file); these signatures are
/// unambiguous, and anything else is left to FFmpeg's probing.
enum FormatSniffer {
    /// The FFmpeg demuxer to open `path` with, or nil to let FFmpeg probe.
    static func ffmpegFormat(of file: MediaFile) -> String? {
        guard let head = Head(file) else { return nil }
        if let audio = head.afterID3 {
            if audio.starts(with: Array("fLaC".utf8)) { return "flac" }   // an ID3v2 tag can front FLAC too
            return mpegAudioLayer(audio) != nil ? "mp3" : nil
        }
        return byMagic(head.bytes)
    }

    /// A file TagLib reads completely, with the names FFmpeg would give its container and codec.
    struct TagLibComplete {
        var container: String
        var codec: String
        var tagLibClass: String
    }

    /// For `MediaProbe.Detail.library`: MPEG layer III, FLAC, Ogg Vorbis/Opus, PCM WAV and WavPack. Not MP4
    /// (TagLib 1.13 misreads some AAC channel counts), not the rest.
    static func tagLibComplete(_ file: MediaFile) -> TagLibComplete? {
        guard let head = Head(file) else { return nil }
        let h = head.bytes
        func at(_ offset: Int, _ s: String) -> Bool { h.count >= offset + s.utf8.count && h[offset...].starts(with: Array(s.utf8)) }
        if mpegAudioLayer(head.afterID3 ?? h) == 3 { return .init(container: "mp3", codec: "mp3", tagLibClass: "mpeg") }
        // (Whether the audio stops early is NativeReading's to find: it was computed here too, and not read.)
        if at(0, "fLaC") { return .init(container: "flac", codec: "flac", tagLibClass: "flac") }
        if at(0, "OggS"), h.count > 27 {
            let packet = 27 + Int(h[26])                                  // after the page's segment table
            if at(packet, "\u{01}vorbis") { return .init(container: "ogg", codec: "vorbis", tagLibClass: "ogg-vorbis") }
            if at(packet, "OpusHead") { return .init(container: "ogg", codec: "opus", tagLibClass: "ogg-opus") }
            return nil
        }
        if at(0, "RIFF"), at(8, "WAVE"), at(12, "fmt "), h.count >= 36 {
            let tag = Int(h[20]) | Int(h[21]) << 8, bits = Int(h[34]) | Int(h[35]) << 8
            let codec: String? = switch (tag, bits) {
            case (1, 8): "pcm_u8"
            case (1, 16), (1, 24), (1, 32): "pcm_s\(bits)le"
            case (3, 32), (3, 64): "pcm_f\(bits)le"
            default: nil
            }
            return codec.map { .init(container: "wav", codec: $0, tagLibClass: "wav") }
        }
        if at(0, "wvpk") { return .init(container: "wv", codec: "wavpack", tagLibClass: "wavpack") }
        return nil
    }

    /// The TagLib class for a file FFmpeg refused, from its first bytes: any file starting with an ID3v2
    /// tag is read as MPEG (its tags at least), and so is one that starts with an APEv2 tag (TagLib's MPEG
    /// reader finds APE tags too).
    static func tagLibClass(_ file: MediaFile) -> String? {
        let h = Array(file.head.prefix(64))
        if h.starts(with: Array("APETAGEX".utf8)) { return "mpeg" }
        if h.starts(with: Array("ID3".utf8)) {
            return file.bytes(at: audioStart(file), count: 4) == Array("fLaC".utf8) ? "flac" : "mpeg"
        }
        if h.count > 36, h.starts(with: Array("OggS".utf8)) {
            // The first packet follows the segment table, which may reach past the 64 bytes above.
            let packet = 27 + Int(h[26])
            guard packet < file.head.count else { return nil }
            let magic = file.head[packet...]
            if magic.starts(with: Array("\u{01}vorbis".utf8)) { return "ogg-vorbis" }
            if magic.starts(with: Array("OpusHead".utf8)) { return "ogg-opus" }
            if magic.starts(with: Array("\u{7F}FLAC".utf8)) { return "ogg-flac" }
            if magic.starts(with: Array("Speex".utf8)) { return "ogg-speex" }
            return nil
        }
        return byMagic(h).flatMap { TagLibReader.hint(formatName: $0, firstAudioCodec: nil) }
    }

    static func byMagic(_ h: [UInt8]) -> String? {
        guard h.count >= 12 else { return nil }
        func at(_ offset: Int, _ s: String) -> Bool { h[offset...].starts(with: Array(s.utf8)) }
        if at(0, "fLaC") { return "flac" }
        if at(0, "OggS") { return "ogg" }
        if at(0, "RIFF") && at(8, "WAVE") { return "wav" }
        if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { return "aiff" }
        if at(0, "wvpk") { return "wv" }
        if at(0, "MAC ") { return "ape" }
        if at(4, "ftyp") { return "mp4" }                        // the mov/mp4/m4a demuxer
        if h.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "matroska" }
        // The ASF header object's GUID (WMA, WMV): TagLib reads these headers where FFmpeg refuses the file
        // (a damaged or missing data object), so a refusal still leaves the tags and the length.
        if h.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return "asf" }
        if mpegAudioLayer(h) != nil { return "mp3" }
        return nil
    }

    /// The layer (1, 2 or 3) of an MPEG audio frame header: 11 sync bits, a valid version, a layer (ADTS AAC
    /// has layer 00), a valid bit-rate index and sample-rate index. nil when it is not one.
    static func mpegAudioLayer(_ h: [UInt8], at i: Int = 0) -> Int? {
        guard h.count >= i + 4, h[i] == 0xFF, h[i + 1] & 0xE0 == 0xE0, h[i + 1] & 0x18 != 0x08, h[i + 1] & 0x06 != 0,
              h[i + 2] & 0xF0 != 0xF0, h[i + 2] & 0x0C != 0x0C else { return nil }
        return 4 - Int(h[i + 1] >> 1 & 3)
    }

    /// Where the audio starts: after the ID3v2 tags at the start of the file (some taggers stack several),
    /// and in a file named as MPEG audio whose start is neither a frame nor a known format, after the junk
    /// before its first run of frames (`mpegRun`).
    static func audioStart(_ file: MediaFile) -> Int64 {
        var at: Int64 = 0
        for _ in 0..<8 {
            let h = file.bytes(at: at, count: 10)
            guard h.count == 10, h.starts(with: Array("ID3".utf8)) else { break }
            at += 10 + Int64(h[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) }) + (h[5] & 0x10 != 0 ? 10 : 0)
        }
        if mpegExtensions.contains(file.path.fileExtension), byMagic(Array(file.head.prefix(64))) == nil,
           mpegAudioLayer(file.bytes(at: at, count: 4)) == nil, let run = mpegRun(file, from: at) {
            return run
        }
        return at
    }

    /// Whether the file starts with ID3v2 tags that hold no frame: each tag's first byte after its header is
    /// padding (0), as in an MP3 ffmpeg writes without metadata (`-map_metadata -1`, bitexact). A tag with
    /// an extended header (or v2.2's compression flag, the same bit) is not taken for empty.
    static func id3v2TagsHoldNoFrame(_ file: MediaFile) -> Bool {
        var at: Int64 = 0, tags = 0
        for _ in 0..<8 {
            let h = file.bytes(at: at, count: 11)
            guard h.count >= 10, h.starts(with: Array("ID3".utf8)) else { break }
            let size = Int64(h[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) })
            if h[5] & 0x40 != 0 || (size > 0 && (h.count < 11 || h[10] != 0)) { return false }
            tags += 1
            at += 10 + size + (h[5] & 0x10 != 0 ? 10 : 0)
        }
        return tags > 0
    }

    static let mpegExtensions: Set<String> = ["mp3", "mp2", "mp1", "mpga"]
    /// How far past the tags a run of frames is looked for, and how many frames make one.
    static let junkLimit = 1 << 20
    static let runFrames = 4

    /// The first offset from `start` (within `junkLimit`) where `runFrames` consecutive frame headers of one
    /// stream follow each other, each at the end of the one before: mutagen's rule for an MP3 with garbage
    /// before its audio (FFmpeg's probing takes 100 kB of such garbage for AMR, or counts it as MP3 audio).
    /// A lone header inside junk passes the 11 sync bits often; four chained ones practically never.
    static func mpegRun(_ file: MediaFile, from start: Int64) -> Int64? {
        let b = file.bytes(at: start, count: junkLimit + 8 * 1024)
        return b.withUnsafeBytes { raw -> Int64? in
            var i = 0
            while i < min(raw.count, junkLimit) {
                defer { i += 1 }
                guard raw[i] == 0xFF, let first = MPEGFrameWalk.frame(raw, at: i) else { continue }
                var next = i + first.length, chained = 1
                while chained < runFrames, let f = MPEGFrameWalk.frame(raw, at: next), f.stream == first.stream {
                    chained += 1
                    next += f.length
                }
                if chained == runFrames { return start + Int64(i) }
            }
            return nil
        }
    }

    /// Whether TagLib may be given `file` as class `hint`. Its MPEG and FLAC readers search the whole file,
    /// byte by byte, for a frame or the "fLaC" marker when the start holds none: on a preallocated
    /// download full of zeros that took ~110 s per GiB (MPEG) and ~6 s (FLAC), and a scan stalled on it.
    /// So that evidence must sit where it belongs: an MPEG frame header within 64 KiB of the audio start,
    /// or "fLaC" right there.
    static func tagLibCanOpen(_ file: MediaFile, as hint: String) -> Bool {
        switch hint {
        case "mpeg":
            let window = file.bytes(at: audioStart(file), count: 64 * 1024)
            return window.indices.contains { mpegAudioLayer(window, at: $0) != nil }
        case "flac":
            return file.bytes(at: audioStart(file), count: 4) == Array("fLaC".utf8)
        default:
            return true
        }
    }

    /// The first 64 bytes of a file and, when the audio starts later (ID3v2 tags, junk), the 4 bytes there.
    private struct Head {
        var bytes: [UInt8]
        var afterID3: [UInt8]?

        init?(_ file: MediaFile) {
            bytes = Array(file.head.prefix(64))
            guard bytes.count >= 12 else { return nil }
            // After ID3v2 tags, or after the junk before an MP3's frames (audioStart decides both).
            let start = bytes.starts(with: Array("ID3".utf8)) || FormatSniffer.mpegAudioLayer(bytes) == nil ? FormatSniffer.audioStart(file) : 0
            if start > 0 {
                let after = file.bytes(at: start, count: 4)
                guard after.count == 4 else { return nil }
                afterID3 = after
            }
        }
    }
}
