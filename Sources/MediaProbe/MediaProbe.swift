#if canImport(Glibc)
import Glibc
#endif
import MediaModel

/// Reads one file into a `ProbeResult`.
///
/// Who supplies what (the merge rules, tested against Fixtures/expected.json):
/// - Format detection: FFmpeg, by content (an Ogg file named .mp3 is Ogg). TagLib is then opened as the
///   class FFmpeg's format implies, never by extension.
/// - Tags: TagLib's PropertyMap first (it knows ID3v2 frames, MP4 atoms, APE and RIFF INFO best); FFmpeg's
///   metadata fills keys TagLib lacks and is the only source for Matroska/WebM and formats TagLib does not know.
/// - Stream facts (codec, sample rate, channels, dimensions, frame rate): FFmpeg, which reads the codec's own
///   headers; TagLib's audio properties fill what FFmpeg's header-only open leaves unset.
/// - Duration: FFmpeg's container or stream duration when the header has it, else TagLib's length; only when
///   both lack something essential does `avformat_find_stream_info` run (it is ~10× the cost of the open).
/// - Bit rate: FFmpeg's when known, else file size × 8 / duration (as ffprobe computes it).
/// - Cover art: TagLib's picture lists, or an FFmpeg stream with the attached-picture disposition.
public enum MediaProbe {
    /// How much to read. `.streams` is what `mlib info` shows: FFmpeg's view of every stream plus TagLib's
    /// tags. `.library` is what the index stores: for the formats TagLib reads completely (MP3, Ogg
    /// Vorbis/Opus, FLAC, PCM WAV, WavPack), recognised by their magic bytes, TagLib alone, without opening FFmpeg
    /// at all (about 40% of a scan's work); every other file, and any file TagLib cannot read, goes the full
    /// way. The item properties agree between the two (MediaProbeTests holds them to it on every fixture).
    public enum Detail: Sendable { case streams, library }

    public static func probe(_ path: MediaPath, detail: Detail = .streams) throws(ProbeError) -> ProbeResult {
        try probe(MediaFile(path), detail: detail)
    }

    /// Reads an opened file (the scanner keeps it open to fingerprint it too).
    public static func probe(_ file: MediaFile, detail: Detail = .streams) throws(ProbeError) -> ProbeResult {
        let path = file.path, facts = file.facts
        guard facts.size > 0 else { throw .empty(path) }
        if detail == .library, let result = tagLibOnly(file) { return result }

        var tagLib: TagLibReader.Result?
        var tagLibHint: String?
        let container = try FFmpegReader.read(file) { header in
            tagLibHint = TagLibReader.hint(formatName: header.formatName, firstAudioCodec: primaryAudio(header.streams)?.codec)
            if tagLibHint != nil { tagLib = TagLibReader.read(file, hint: tagLibHint) }
            return needsStreamInfo(header, tagLib)
        }

        // TagLib's audio properties fill what FFmpeg's header-only open left unset.
        let duration = container.duration ?? tagLib?.lengthMs.map { Double($0) / 1000 }
        var streams = container.streams
        if let i = streams.firstIndex(where: { $0.kind == .audio }) {
            streams[i].sampleRate = streams[i].sampleRate ?? tagLib?.sampleRate
            streams[i].channels = streams[i].channels ?? tagLib?.channels
            streams[i].duration = streams[i].duration ?? duration
        }
        guard isUsable(primaryAudio(streams)) || isUsable(streams.first { $0.kind == .video && !$0.isAttachedPicture }) else {
            throw .notMedia(path, reason: "no readable audio or video stream (\(container.formatName))")
        }
        var warnings: [String] = []
        if tagLibHint != nil && tagLib == nil { warnings.append("TagLib could not read this file; tags are FFmpeg's") }
        let ffTags = container.metadata.compactMap { k, v in TagMapping.canonicalFFmpegKey(k).map { ($0, v) } }
        return assemble(path, facts, formatName: container.formatName, duration: duration, bitRate: container.bitRate,
                        streams: streams, tagLib: tagLib, ffTags: ffTags,
                        endsEarly: container.formatName == "flac" && FLACTail.endsEarly(file),
                        warnings: warnings)
    }

    /// The `.library` fast path: nil when the file is not one TagLib reads completely, or TagLib fails on it.
    static func tagLibOnly(_ file: MediaFile) -> ProbeResult? {
        let path = file.path, facts = file.facts
        guard let known = FormatSniffer.tagLibComplete(file), let tagLib = TagLibReader.read(file, hint: known.tagLibClass),
              let rate = tagLib.sampleRate, let channels = tagLib.channels, let ms = tagLib.lengthMs else { return nil }
        var audio = StreamInfo(index: 0, kind: .audio, codec: known.codec)
        audio.sampleRate = rate
        audio.channels = channels
        audio.duration = Double(ms) / 1000
        return assemble(path, facts, formatName: known.container, duration: audio.duration, bitRate: nil, streams: [audio],
                        tagLib: tagLib, ffTags: [], endsEarly: known.endsEarly, warnings: [])
    }

    /// Builds the result from what the readers found; the merge rules above live here.
    private static func assemble(_ path: MediaPath, _ facts: FileFacts, formatName: String, duration: Double?,
                                 bitRate: Int64?, streams: [StreamInfo], tagLib: TagLibReader.Result?,
                                 ffTags: [(String, String)], endsEarly: Bool, warnings: [String]) -> ProbeResult {
        var warnings = warnings
        let audio = primaryAudio(streams)
        let video = streams.first { $0.kind == .video && !$0.isAttachedPicture }
        let tags = TagMapping.merge([tagLib?.properties ?? [], ffTags])
        var item = MediaItem(path: path, tags: tags)
        TagMapping.apply(tags, to: &item)

        item[.fileSize] = .integer(facts.size)
        item[.modificationDate] = .real(facts.modificationTime)
        item[.container] = .text(formatName)

        if let duration { item.playbackDuration = duration }
        if let audio {
            item[.audioCodec] = .text(audio.codec)
            item[.sampleRate] = audio.sampleRate.map { .integer(Int64($0)) }
            item[.channels] = audio.channels.map { .integer(Int64($0)) }
            let lossless = audio.bitDepth != nil || losslessCodecs.contains(audio.codec) || audio.codec.hasPrefix("pcm_")
            item[.bitDepth] = (audio.bitDepth ?? (lossless ? tagLib?.bitsPerSample : nil)).map { .integer(Int64($0)) }
        }
        if let video {
            item[.videoCodec] = .text(video.codec)
            item[.width] = video.width.map { .integer(Int64($0)) }
            item[.height] = video.height.map { .integer(Int64($0)) }
            item[.frameRate] = video.frameRate.map(MediaValue.real)
        }
        if let bitRate {
            item[.bitRate] = .integer(bitRate)
        } else if let duration, duration > 0 {
            item[.bitRate] = .integer(Int64((Double(facts.size) * 8 / duration).rounded()))
        } else if let kbps = tagLib?.bitRateKbps {
            item[.bitRate] = .integer(Int64(kbps) * 1000)
        }

        let pictures = tagLib?.pictures ?? []
        item[.hasArtwork] = .bool(!pictures.isEmpty || streams.contains { $0.isAttachedPicture })
        item.mediaType = mediaType(tags: tags, hasVideo: video != nil, extension: path.fileExtension)

        // A header that promises more audio than the file holds (an MP3's Xing frame count, say): truncated.
        var partial = duration == nil
        if duration == nil { warnings.append("duration unknown") }
        if endsEarly || (duration.flatMap { d in tagLib?.bitRateKbps.map { Double($0) * 125 * d } } ?? 0) > 1.25 * Double(facts.size) {
            partial = true
            warnings.append("the file is shorter than its header says (truncated?)")
        }
        return ProbeResult(item: item, streams: streams, pictures: pictures, isPartial: partial, warnings: warnings,
                           tagSource: tagLib.map { $0.properties.isEmpty ? "ffmpeg" : "taglib" } ?? (ffTags.isEmpty ? "none" : "ffmpeg"),
                           tagFormat: tagLib.flatMap { $0.tagFormat.isEmpty ? nil : $0.tagFormat })
    }

    static let losslessCodecs: Set<String> = ["flac", "alac", "wavpack", "ape", "tta", "mlp", "truehd", "wmalossless"]

    static func primaryAudio(_ streams: [StreamInfo]) -> StreamInfo? { streams.first { $0.kind == .audio } }

    static func isUsable(_ s: StreamInfo?) -> Bool {
        guard let s, s.codec != "none" else { return false }
        return s.kind == .audio ? (s.sampleRate ?? 0) > 0 || s.channels != nil : (s.width ?? 0) > 0
    }

    /// Whether the header-only view (plus TagLib) leaves out something `info` must show.
    static func needsStreamInfo(_ header: FFmpegReader.Container, _ tagLib: TagLibReader.Result?) -> Bool {
        let audio = primaryAudio(header.streams)
        let video = header.streams.first { $0.kind == .video && !$0.isAttachedPicture }
        if audio == nil && video == nil { return true }
        if let audio {
            if audio.codec == "none" { return true }
            if (audio.sampleRate ?? tagLib?.sampleRate) == nil || (audio.channels ?? tagLib?.channels) == nil { return true }
            // TagLib read nothing for a format it knows: a damaged file or a wrong guess; let FFmpeg look closer.
            if tagLib == nil && TagLibReader.hint(formatName: header.formatName, firstAudioCodec: audio.codec) != nil
                && header.formatName == "mp3" { return true }
        }
        if let video, video.width == nil || video.codec == "none" { return true }
        if header.duration == nil && tagLib?.lengthMs == nil { return true }
        return false
    }

    /// As MPMediaType, from what the file says about itself: the MP4 `stik` atom (FFmpeg's `media_type`),
    /// TV-show tags, genre words and the .m4b extension; otherwise audio is music and video a movie.
    static func mediaType(tags: [String: String], hasVideo: Bool, extension ext: String) -> MediaType {
        let genre = tags["GENRE"]?.lowercased() ?? ""
        switch tags["MEDIA_TYPE"].flatMap({ Int($0) }) {
        case 2: return .audioBook
        case 6: return .musicVideo
        case 10: return .tvShow
        case 21: return hasVideo ? .videoPodcast : .podcast
        case 9: return .movie
        default: break
        }
        if hasVideo {
            if tags["SHOW"] != nil || tags["EPISODE_ID"] != nil || tags["TVSHOW"] != nil { return .tvShow }
            if genre.contains("podcast") { return .videoPodcast }
            return .movie
        }
        if ext == "m4b" || genre.contains("audiobook") || genre.contains("audio book") { return .audioBook }
        if genre.contains("podcast") || tags["PODCAST"] != nil { return .podcast }
        return .music
    }
}

/// What the file system says about a path, with the errors a user should see.
public struct FileFacts: Sendable, Hashable {
    public var size: Int64
    public var modificationTime: Double
    public var device: UInt64
    public var inode: UInt64

    public static func read(_ path: MediaPath) throws(ProbeError) -> FileFacts {
        var st = stat()
        guard path.withCString({ stat($0, &st) }) == 0 else { throw error(errno, path) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path) }
        return FileFacts(size: Int64(st.st_size),
                         modificationTime: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9,
                         device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// The error a user should see for `errno` from stat(2) or open(2) on `path`.
    static func error(_ code: Int32, _ path: MediaPath) -> ProbeError {
        switch code {
        case ENOENT, ENOTDIR, ELOOP: .notFound(path)
        case EACCES, EPERM: .permissionDenied(path)
        default: .io(path, reason: String(cString: strerror(code)))
        }
    }
}

extension FileFacts {
    /// Whether the first and last 64 KiB of the file can be read: tells a damaged file from a failing disk.
    static func isReadable(_ path: MediaPath) -> Bool {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        guard Glibc.read(fd, &buffer, buffer.count) >= 0 else { return false }
        let end = lseek(fd, 0, SEEK_END)
        guard end >= 0 else { return false }
        return pread(fd, &buffer, buffer.count, max(0, end - 65536)) >= 0
    }
}
