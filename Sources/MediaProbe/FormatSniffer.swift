#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// Names the FFmpeg demuxer for the common containers from their first bytes. FFmpeg's own detection asks
/// every demuxer it has to score the header (a good part of the cost of opening a small file); these
/// signatures are unambiguous, and anything else is left to FFmpeg's probing.
enum FormatSniffer {
    static func ffmpegFormat(of path: MediaPath) -> String? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 12)
        guard pread(fd, &head, 12, 0) == 12 else { return nil }
        if head.starts(with: Array("ID3".utf8)) {
            // An ID3v2 tag can front MP3, but also FLAC or AAC: look at what follows the tag.
            let size = head[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10 + (head[5] & 0x10 != 0 ? 10 : 0)
            var after = [UInt8](repeating: 0, count: 4)
            guard pread(fd, &after, 4, off_t(size)) == 4 else { return nil }
            if after.starts(with: Array("fLaC".utf8)) { return "flac" }
            return isMPEGAudioFrame(after) ? "mp3" : nil
        }
        return byMagic(head)
    }

    static func byMagic(_ h: [UInt8]) -> String? {
        func at(_ offset: Int, _ s: String) -> Bool { h[offset...].starts(with: Array(s.utf8)) }
        if at(0, "fLaC") { return "flac" }
        if at(0, "OggS") { return "ogg" }
        if at(0, "RIFF") && at(8, "WAVE") { return "wav" }
        if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { return "aiff" }
        if at(0, "wvpk") { return "wv" }
        if at(0, "MAC ") { return "ape" }
        if at(4, "ftyp") { return "mp4" }                        // the mov/mp4/m4a demuxer
        if h.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "matroska" }
        if isMPEGAudioFrame(h) { return "mp3" }
        return nil
    }

    /// An MPEG audio frame header: 11 sync bits, a valid version, a layer (ADTS AAC has layer 00), a valid
    /// bit-rate index and sample-rate index.
    static func isMPEGAudioFrame(_ h: [UInt8]) -> Bool {
        guard h.count >= 4, h[0] == 0xFF, h[1] & 0xE0 == 0xE0 else { return false }
        return h[1] & 0x18 != 0x08 && h[1] & 0x06 != 0 && h[2] & 0xF0 != 0xF0 && h[2] & 0x0C != 0x0C
    }
}
