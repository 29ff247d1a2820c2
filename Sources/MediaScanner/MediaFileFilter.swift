#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// Decides cheaply which directory entries are worth probing: hidden names never, known media extensions
/// always, names without an extension after a look at their first bytes, everything else never.
enum MediaFileFilter {
    static let mediaExtensions: Set<String> = [
        "mid", "midi", "mp3", "mp2", "flac", "ogg", "oga", "opus", "spx", "m4a", "m4b", "m4p", "m4r", "mp4", "m4v", "aac",
        "mkv", "mka", "webm", "wav", "wave", "aif", "aiff", "aifc", "wma", "wmv", "asf", "ape", "wv", "mpc", "mp+", "mpp", "ofr", "ofs",
        "tta", "ac3", "dts", "dsf", "dff", "amr", "au", "caf", "avi", "mov", "qt", "ts", "m2ts", "mts",
        "mpg", "mpeg", "vob", "flv", "3gp", "3g2", "ogv", "mid", "midi", "xm", "mod", "s3m", "it",
    ]

    /// Playlist files under a root become playlists in the library (see `ScanSummary.playlistFiles`).
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls", "xspf", "jspf"]

    static func isHidden(_ name: UnsafePointer<CChar>) -> Bool { name[0] == CChar(UInt8(ascii: ".")) }

    enum Verdict { case media, playlist, skip, sniff }

    /// Judges by the name alone.
    static func verdict(forName name: [UInt8]) -> Verdict {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return .sniff }
        let ext = name[(dot + 1)...]
        guard !ext.isEmpty, ext.count <= 5 else { return .skip }
        let lower = String(decoding: ext.map { $0 | 0x20 }, as: UTF8.self)
        if mediaExtensions.contains(lower) { return .media }
        return playlistExtensions.contains(lower) ? .playlist : .skip
    }

    /// For extensionless files: the magic numbers of the containers FFmpeg reads most often.
    static func sniff(_ path: MediaPath) -> Bool {
        // O_NONBLOCK: should the file have been swapped for a FIFO since the walk's stat, the read fails at once.
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 12)
        guard read(fd, &head, 12) == 12 else { return false }
        func starts(_ s: String) -> Bool { head.starts(with: Array(s.utf8)) }
        if starts("ID3") || starts("fLaC") || starts("OggS") || starts("RIFF") || starts("FORM") || starts("MAC ")
            || starts("wvpk") || starts("MPCK") || starts("#!AMR") || starts(".snd") || starts("caff") { return true }
        if head[4...7].elementsEqual("ftyp".utf8) { return true }                       // MP4 family
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }                  // Matroska/WebM
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75]) { return true }                  // ASF/WMA
        if head[0] == 0xFF && head[1] & 0xE0 == 0xE0 { return true }                   // MPEG audio frame sync
        return false
    }
}
