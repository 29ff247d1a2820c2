import MediaModel

/// The clean file type (`mp3`, `flac`, `m4a`, `m4b`, `mp4`, `mkv`, `webm`, `ogg`, `opus`, `wav`, `aiff`, `wv`,
/// `ape`, `mpc`, `dsf`…) that queries, `stats` and `ls` use. FFmpeg's demuxer names are lists shared by
/// several types (`mov,mp4,m4a,3gp,3g2,mj2` is audio and video alike; `matroska,webm`): the content decides
/// where it can (the MP4 brand, the codecs), the extension only between types the content cannot tell apart.
enum FileType {
    static func of(_ c: FFmpegReader.Container, path: MediaPath) -> String? {
        let audio = c.streams.first { $0.kind == .audio }?.codec
        let hasVideo = c.streams.contains { $0.kind == .video && !$0.isAttachedPicture }
        return of(container: c.formatName, codec: audio, hasVideo: hasVideo, brand: c.brand, path: path)
    }

    static func of(container: String, codec: String?, hasVideo: Bool = false, brand: String? = nil, path: MediaPath) -> String? {
        let ext = path.fileExtension
        let names = DemuxerNames(container)
        if names.contains("mp4") || names.contains("mov") {
            switch brand?.trimmed {
            case "M4B": return "m4b"
            case "qt": return "mov"
            case let b? where b.hasPrefix("3g"): return "3gp"
            default: break
            }
            if hasVideo { return ext == "mov" ? "mov" : ext == "m4v" ? "m4v" : "mp4" }
            return ext == "m4b" ? "m4b" : "m4a"
        }
        if names.contains("matroska") || names.contains("webm") {
            if ext == "webm" { return "webm" }
            return hasVideo || ext != "mka" ? "mkv" : "mka"
        }
        if names.contains("ogg") {
            switch codec {
            case "opus": return "opus"
            case "speex": return "spx"
            case "flac": return "oga"
            default: return hasVideo ? "ogv" : "ogg"
            }
        }
        let first = container.prefix { $0 != "," }
        switch first {
        case "mpc8": return "mpc"
        case "asf": return hasVideo ? "wmv" : "wma"
        case "mpeg": return "mpg"
        case "mpegts": return "ts"
        case "", "unknown": return nil
        default: return String(first)
        }
    }

    /// The codec FFmpeg would name for a file only TagLib read.
    static func codecGuess(tagLibClass: String) -> String {
        switch tagLibClass {
        case "mpeg": "mp3"
        case "ogg-vorbis": "vorbis"
        case "ogg-opus": "opus"
        case "ogg-flac", "flac": "flac"
        case "ogg-speex": "speex"
        case "mp4": "aac"
        case "wavpack": "wavpack"
        case "ape": "ape"
        case "mpc": "musepack"
        case "tta": "tta"
        case "asf": "wmav2"
        default: tagLibClass
        }
    }
}

/// FFmpeg's comma-separated demuxer names ("mov,mp4,m4a,3gp,3g2,mj2"), asked one name at a time without
/// building a collection (a Set per call was a measurable part of reading a small file).
struct DemuxerNames {
    let list: String
    init(_ list: String) { self.list = list }

    func contains(_ name: String) -> Bool {
        var rest = Substring(list)
        while true {
            let end = rest.firstIndex(of: ",") ?? rest.endIndex
            if rest[..<end] == name { return true }
            guard end < rest.endIndex else { return false }
            rest = rest[rest.index(after: end)...]
        }
    }
}
