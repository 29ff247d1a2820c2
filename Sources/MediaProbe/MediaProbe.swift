#if canImport(Glibc)
import Glibc
#endif
import MediaDecode
import MediaModel

/// Reads one file into a `ProbeResult`.
///
/// Who supplies what (the merge rules, tested against Fixtures/expected.json):
/// - Format detection: by content (FormatSniffer's magic bytes, else FFmpeg's probing); an Ogg file named
///   .mp3 is Ogg. TagLib is then opened as the class the content implies, never by extension.
/// - The formats mlib reads natively (MP3, FLAC, Ogg Vorbis/Opus, PCM WAV, WavPack; `FormatSniffer.tagLibComplete`):
///   every item property comes from TagLib plus `NativeReading` (exact length without LAME delay/padding or
///   Opus pre-skip, the audio bit rate, RIFF INFO's full date and track total, signs of damage), in both
///   probe paths. FFmpeg, when `info` opens it, only adds the stream details it shows. So the index (which
///   reads these formats without FFmpeg) and `mlib info` hold the same values by construction.
/// - Other formats: tags from TagLib's PropertyMap first, FFmpeg's metadata filling keys TagLib lacks (the only
///   source for Matroska/WebM); stream facts from FFmpeg's headers, TagLib filling what they leave unset;
///   `avformat_find_stream_info` only when both lack something essential (~10× the cost of the open).
/// - Bit rate: the audio stream's (the header's nominal rate for CBR, the audio data's average for VBR),
///   never the file average with the cover art in it, unless nothing else is known.
/// - One reader's refusal does not throw away the other's read: when FFmpeg refuses a file TagLib reads
///   (a damaged Ogg page, an MP3 cut after its tag), the result is what TagLib and the native readers found,
///   marked partial with the reason. Only when nothing at all was read is it an error.
public enum MediaProbe {
    /// How much to read. `.streams` is what `mlib info` shows: FFmpeg's view of every stream plus the item.
    /// `.library` is what the index stores: for the formats read natively, without opening FFmpeg at all
    /// (about 40% of a scan's work); every other file, and any file TagLib cannot read, goes the full way.
    /// The item properties are the same either way (MediaProbeTests and CLITests hold them to it).
    public enum Detail: Sendable { case streams, library }

    public static func probe(_ path: MediaPath, detail: Detail = .streams) throws(ProbeError) -> ProbeResult {
        try probe(MediaFile(path), detail: detail)
    }

    /// Reads an opened file (the scanner keeps it open to fingerprint it too).
    public static func probe(_ file: MediaFile, detail: Detail = .streams) throws(ProbeError) -> ProbeResult {
        var result = try read(file, detail: detail)
        // Decided last, from the streams as every path left them (the FLAC path fills them in after `assemble`).
        result.item[.isDecodable] = .bool(result.isDecodable)
        result.item[.undecodableReason] = result.undecodableReason.map(MediaValue.text)
        return result
    }

    static func read(_ file: MediaFile, detail: Detail) throws(ProbeError) -> ProbeResult {
        let path = file.path, facts = file.facts
        guard facts.size > 0 else { throw .empty(path) }
        let known = FormatSniffer.tagLibComplete(file)
        if known == nil, let result = headerFormat(file) { return result }
        if detail == .library, let known, let result = tagLibOnly(file, known) { return result }

        var tagLib: TagLibReader.Result?
        var tagLibHint: String?
        let container: FFmpegReader.Container
        do {
            container = try FFmpegReader.read(file) { header in
                tagLibHint = known?.tagLibClass
                    ?? TagLibReader.hint(formatName: header.formatName, firstAudioCodec: primaryAudio(header.streams)?.codec,
                                        firstStream: header.streams.first?.kind)
                if tagLibHint != nil { tagLib = TagLibReader.read(file, hint: tagLibHint) }
                return needsStreamInfo(header, tagLib)
            }
        } catch {
            guard error.code == "corrupt" || error.code == "not-media",
                  let result = withoutFFmpeg(file, known: known, refusal: error) else { throw error }
            return result
        }

        let ffTags = container.metadata.compactMap { k, v in TagMapping.canonicalFFmpegKey(k).map { ($0, v) } }
        if let known, let tagLib, var result = tagLibOnly(file, known, tagLib: tagLib, ffmpegTags: ffTags) {
            // The item is decided; FFmpeg's streams are the details `info` shows, with the decided length and
            // audio bit rate on the audio stream (FFmpeg's header open leaves MP3's unset).
            let decided = result.streams.first
            result.streams = container.streams
            if let i = result.streams.firstIndex(where: { $0.kind == .audio }) {
                result.streams[i].duration = result.item.playbackDuration
                // FFmpeg's header open leaves FLAC's sample size unset: the decided stream knows it.
                result.streams[i].undecodable = result.streams[i].undecodable ?? decided?.undecodable
                result.streams[i].bitRate = result.item[.bitRate]?.integer ?? result.streams[i].bitRate
                result.streams[i].sampleRate = result.streams[i].sampleRate ?? tagLib.sampleRate
                result.streams[i].channels = result.streams[i].channels ?? tagLib.channels
            }
            return result
        }

        // TagLib's audio properties fill what FFmpeg's header-only open left unset.
        var duration = container.duration ?? tagLib?.lengthMs.map { Double($0) / 1000 }
        var streams = container.streams
        let moov = container.formatName.hasPrefix("mov,") ? ThreeGPPAssets.moov(file) : nil
        // An encrypted track (CENC): FFmpeg names its codec (aac) and, with no key, decodes nothing of it.
        for (i, scheme) in MP4SampleEntries.protectionSchemes(moov: moov).enumerated() where i < streams.count {
            if let scheme, streams[i].kind == .audio || streams[i].kind == .video { streams[i].undecodable = "encrypted (\(scheme))" }
        }
        // Opus always decodes at 48 kHz (what ffprobe shows once it decodes, and the Ogg path shows); a
        // Matroska/WebM header holds the encoder's input rate (24 kHz…), which FFmpeg's header-only open reports.
        for i in streams.indices where streams[i].kind == .audio && streams[i].codec == "opus" { streams[i].sampleRate = 48000 }
        // ADIF AAC: FFmpeg guesses its length from a few bytes and has no sample rate; the header has both.
        if let adif = ADIFHeader.parse(file.head), let i = streams.firstIndex(where: { $0.kind == .audio }) {
            duration = adif.duration(fileSize: facts.size) ?? duration
            streams[i].duration = duration
            streams[i].sampleRate = adif.sampleRate ?? streams[i].sampleRate
            streams[i].channels = adif.channels ?? streams[i].channels
            streams[i].bitRate = adif.bitRate > 0 ? Int64(adif.bitRate) : streams[i].bitRate
        }
        // Musepack SV8: FFmpeg counts whole blocks, rounded down (5.016 s of a 5.232 s stream); the stream
        // header's samples less its leading silence are the length (MusepackSV8Header).
        if container.formatName == "mpc8", let i = streams.firstIndex(where: { $0.kind == .audio }),
           let sv8 = MusepackSV8Header.parse(file.bytes(at: FormatSniffer.audioStart(file), count: 256)) {
            duration = sv8.duration
            streams[i].duration = sv8.duration
        }
        // ADTS AAC: FFmpeg estimates the length from the first frames' bit rate; the frames can be counted.
        if container.formatName == "aac", let i = streams.firstIndex(where: { $0.kind == .audio }),
           let adts = ADTSStream.count(file, from: FormatSniffer.audioStart(file), to: facts.size - NativeReading.trailingTagBytes(file)),
           adts.duration > 0 {
            duration = adts.duration
            streams[i].duration = adts.duration
            streams[i].bitRate = Int64((Double(adts.bytes) * 8 / (Double(adts.samples) / Double(adts.sampleRate))).rounded())
        }
        if let i = streams.firstIndex(where: { $0.kind == .audio }), streams[i].codec == "speex", streams[i].bitRate == nil {
            streams[i].bitRate = NativeReading.speexBitRate(file.head)   // else the file average, tags and all
        }
        if let i = streams.firstIndex(where: { $0.kind == .audio }) {
            streams[i].sampleRate = streams[i].sampleRate ?? tagLib?.sampleRate
            streams[i].channels = streams[i].channels ?? tagLib?.channels
            streams[i].duration = streams[i].duration ?? duration
        }
        var damage: [String] = []
        if !isUsable(primaryAudio(streams)) && !isUsable(streams.first { $0.kind == .video && !$0.isAttachedPicture }) {
            // An MP4 or Matroska file of text alone (a subtitle track): a media container with its length and
            // tags, which nothing here plays (ProbeResult.undecodableReason); nothing is missing from it.
            if !streams.isEmpty, streams.allSatisfy({ $0.kind == .subtitle }), duration != nil,
               container.formatName.hasPrefix("mov,") || container.formatName.hasPrefix("matroska") {
                return assemble(path, facts, formatName: container.formatName, fileType: FileType.of(container, path: path),
                                duration: duration, bitRate: nil, streams: streams, tagLib: tagLib,
                                tags: [tagLib.map { TagMapping.canonicalTagLib($0.properties) } ?? [], ffTags], damage: [],
                                sizeCheck: false, chapters: container.chapters, averageBitRate: false)
            }
            let refusal = ProbeError.notMedia(path, reason: "no readable audio or video stream (\(container.formatName))")
            guard let result = withoutFFmpeg(file, known: known, refusal: refusal) else { throw refusal }
            return result
        }
        if let s = container.emptySampleTable { damage.append("the sample table of stream #\(s) is missing or damaged") }
        if tagLibHint != nil && tagLib == nil { damage.append("TagLib could not read this file; tags are FFmpeg's") }
        // Cut files FFmpeg times by what is there (WAV by its size, Ogg by its last page) without a word: the
        // same signs the native readers see, and WAV's declared length, so the truncation rule holds here too.
        var declared: Double?
        var indexed = false                     // the container's own index says how much is there
        if container.formatName == "wav" {
            let riff = NativeReading.read(file, container: "wav", codec: nil)
            damage += riff.damage
            declared = riff.declaredDuration
        } else if container.formatName == "ogg", let (last, offset) = OggPage.last(in: file.tail),
                  offset + last.length < file.tail.count {
            damage.append("the file ends inside an Ogg page (truncated)")
        } else if container.formatName == "asf", let (whole, packets) = ASFPackets.present(file) {
            indexed = true
            if whole < packets, let header = duration {
                damage.append("the file holds \(whole) of the \(packets) data packets its header declares (truncated)")
                declared = header
                duration = header * Double(whole) / Double(packets)
            }
        }
        let audio = primaryAudio(streams)
        // An audio file's bit rate is its audio stream's (not the file average with the cover art in it); a
        // video file's is the whole file's, as players and ffprobe show it.
        let hasVideo = streams.contains { $0.kind == .video && !$0.isAttachedPicture }
        let bitRate = hasVideo ? container.bitRate : audio?.bitRate
        // A video file's rate above is what FFmpeg derives from the file's size when the container states
        // none (MP4): a cut file would always look whole. Its streams' rates (the sample tables') tell.
        let playable = streams.filter { !$0.isAttachedPicture && ($0.kind == .video || $0.kind == .audio) }
        let streamsRate = playable.allSatisfy({ $0.bitRate != nil }) ? playable.compactMap(\.bitRate).reduce(0, +) : nil
        return assemble(path, facts, formatName: container.formatName, fileType: FileType.of(container, path: path),
                        duration: duration, bitRate: bitRate, streams: streams, tagLib: tagLib,
                        tags: [tagLib.map { TagMapping.canonicalTagLib($0.properties) } ?? [], ffTags,
                               ThreeGPPAssets.read(moov: moov)],
                        damage: damage, sizeCheck: !indexed, chapters: container.chapters.isEmpty ? tagLib?.chapters ?? [] : container.chapters,
                        declaredDuration: declared, payloadBitRate: hasVideo ? streamsRate : nil)
    }

    /// The item from TagLib and the native readings alone: the `.library` fast path, and the decision for these
    /// formats in every path. nil when TagLib (or the native reader) lacks something essential.
    ///
    /// `ffmpegTags` are FFmpeg's tags when FFmpeg opened the file (nil: it did not). They count only when
    /// TagLib found a tag but read nothing from it (a tag its parser gives up on, such as an ID3v2.2 tag
    /// with a bad first frame): then FFmpeg's reading of the same tag is the one there is. Without them such
    /// a file does not take the fast path, so the scan opens FFmpeg too and both paths agree.
    static func tagLibOnly(_ file: MediaFile, _ known: FormatSniffer.TagLibComplete,
                           tagLib read: TagLibReader.Result? = nil, ffmpegTags: [(String, String)]? = nil,
                           damage extra: [String] = []) -> ProbeResult? {
        guard let tagLib = read ?? TagLibReader.read(file, hint: known.tagLibClass),
              let rate = tagLib.sampleRate, let channels = tagLib.channels else { return nil }
        // An ID3v2 tag of padding alone (and no other tag) holds nothing TagLib could have missed: FFmpeg's
        // tags there are the stream's own ("encoder" from the Info frame), shown for no tagged MP3, so an
        // edit that fills the tag made them vanish and the write check refused it (issue 46).
        let emptyID3 = tagLib.tagFormat.hasPrefix("ID3v2.") && !tagLib.tagFormat.contains("+") && FormatSniffer.id3v2TagsHoldNoFrame(file)
        let unreadTag = tagLib.properties.isEmpty && !tagLib.tagFormat.isEmpty && tagLib.pictures.isEmpty && !emptyID3
        if unreadTag && ffmpegTags == nil && extra.isEmpty { return nil }
        let native = NativeReading.read(file, container: known.container, codec: known.codec)
        guard let duration = native.duration ?? tagLib.lengthMs.map({ Double($0) / 1000 }) else { return nil }
        var audio = StreamInfo(index: 0, kind: .audio, codec: known.codec)
        audio.sampleRate = rate
        audio.channels = channels
        audio.duration = duration
        audio.bitRate = native.audioBitRate
        if known.codec == "flac" { audio.undecodable = DecoderLimits.flac(bits: tagLib.bitsPerSample ?? 0) }
        var damage = native.damage + extra
        if native.pictureBlocks > tagLib.pictures.count { damage.append("a picture block is damaged") }
        if tagLib.readByStructure, damage.isEmpty { damage.append("TagLib refused the metadata blocks; read by their structure (damaged)") }
        return assemble(file.path, file.facts, formatName: known.container,
                      fileType: FileType.of(container: known.container, codec: known.codec, path: file.path),
                      duration: duration, bitRate: native.audioBitRate, streams: [audio], tagLib: tagLib,
                      tags: [native.tags, TagMapping.canonicalTagLib(tagLib.properties), unreadTag ? ffmpegTags ?? [] : []],
                      damage: damage, sizeCheck: native.audioBitRate == nil, chapters: tagLib.chapters,
                      declaredDuration: native.declaredDuration, notes: native.notes)
    }

    /// When FFmpeg refused the file: what TagLib and the native readers make of it, marked partial with
    /// FFmpeg's reason. nil when they read nothing either (the refusal stands).
    static func withoutFFmpeg(_ file: MediaFile, known: FormatSniffer.TagLibComplete?, refusal: ProbeError) -> ProbeResult? {
        let reason = "FFmpeg cannot read it: " + refusal.reason
        if let known, let result = tagLibOnly(file, known, damage: [reason]) { return result }
        // A format neither library reads, which mlib reads itself.
        if let midi = MIDIFile.read(file) {
            var audio = StreamInfo(index: 0, kind: .audio, codec: "midi")
            audio.codecLongName = "Standard MIDI File, format \(midi.format), \(midi.tracks) track\(midi.tracks == 1 ? "" : "s")"
            audio.duration = midi.duration
            return assemble(file.path, file.facts, formatName: "smf", fileType: "mid", duration: midi.duration, bitRate: nil,
                            streams: [audio], tagLib: nil, tags: [], damage: [], sizeCheck: false, chapters: [],
                            averageBitRate: false)             // events, not a bit stream
        }
        // A tag with nothing playable after it (an MP3 cut off after its ID3v2 tag): the tags, no stream facts.
        guard let hint = FormatSniffer.tagLibClass(file),
              let tagLib = TagLibReader.read(file, hint: hint, audioProperties: hint != "mpeg" || known != nil) else { return nil }
        var streams: [StreamInfo] = []
        var damage: [String] = []
        let container = FormatSniffer.byMagic(file.head) ?? (hint == "mpeg" ? "mp3" : hint)
        let native = NativeReading.read(file, container: container, codec: nil)
        damage += native.damage
        if let rate = tagLib.sampleRate, let channels = tagLib.channels {
            var audio = StreamInfo(index: 0, kind: .audio, codec: FileType.codecGuess(tagLibClass: hint))
            audio.sampleRate = rate
            audio.channels = channels
            audio.duration = native.duration ?? tagLib.lengthMs.map { Double($0) / 1000 }
            streams.append(audio)
        } else if tagLib.properties.isEmpty {
            return nil
        } else if damage.isEmpty {
            damage.append("no audio the readers can find")
        }
        damage.append(reason)
        return assemble(file.path, file.facts, formatName: container,
                        fileType: FileType.of(container: container, codec: streams.first?.codec, path: file.path),
                        duration: streams.first?.duration, bitRate: native.audioBitRate, streams: streams, tagLib: tagLib,
                        tags: [native.tags, TagMapping.canonicalTagLib(tagLib.properties)], damage: damage, sizeCheck: false,
                        chapters: tagLib.chapters, declaredDuration: streams.isEmpty ? nil : native.declaredDuration, notes: native.notes)
    }

    /// Builds the result from what the readers found; the merge rules above live here.
    static func assemble(_ path: MediaPath, _ facts: FileFacts, formatName: String, fileType: String?,
                                 duration: Double?, bitRate: Int64?, streams: [StreamInfo], tagLib: TagLibReader.Result?,
                                 tags sources: [[(String, String)]], damage: [String], sizeCheck: Bool,
                                 chapters: [ChapterInfo], averageBitRate: Bool = true,
                                 declaredDuration declared: Double? = nil, payloadBitRate: Int64? = nil,
                                 notes: [String] = []) -> ProbeResult {
        var damage = damage
        var duration = duration
        var streams = streams
        var declared = declared
        // A header that promises more audio than the file holds at the stream's own bit rate: truncated. One
        // rule for every format: the duration is the audio present (here estimated at that bit rate), the
        // header's length is kept as `declaredDuration`, the file is flagged. `payloadBitRate` is the streams'
        // own rate where `bitRate` is not (a video file's is FFmpeg's file size over the declared length).
        if sizeCheck, declared == nil, let header = duration, let bitRate = payloadBitRate ?? bitRate, bitRate > 0,
           Double(bitRate) / 8 * header > 1.25 * Double(facts.size) + 4096 {
            damage.append("the file is shorter than its header says (truncated?)")
            declared = header
            duration = min(header, Double(facts.size) * 8 / Double(bitRate))
        }
        if let present = duration, let header = declared {
            for i in streams.indices where streams[i].duration.map({ $0 > present }) ?? false { streams[i].duration = present }
            if header <= present { declared = nil }         // not shorter after all: nothing to keep
        }
        var warnings: [String] = []
        let audio = primaryAudio(streams)
        let video = streams.first { $0.kind == .video && !$0.isAttachedPicture }
        let tags = TagMapping.merge(sources)
        var item = MediaItem(path: path, tags: tags)
        TagMapping.apply(tags, to: &item)

        item[.fileSize] = .integer(facts.size)
        item[.modificationDate] = .real(facts.modificationTime)
        item[.container] = .text(formatName)
        item[.fileType] = fileType.map(MediaValue.text)

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
        } else if averageBitRate, audio != nil || video != nil, let duration, duration > 0 {
            item[.bitRate] = .integer(Int64((Double(facts.size) * 8 / duration).rounded()))
        } else if averageBitRate, audio != nil, let kbps = tagLib?.bitRateKbps {
            item[.bitRate] = .integer(Int64(kbps) * 1000)
        }

        let pictures = tagLib?.pictures ?? []
        item[.hasArtwork] = .bool(!pictures.isEmpty || streams.contains { $0.isAttachedPicture })
        item.mediaType = mediaType(tags: tags, hasVideo: video != nil, extension: path.fileExtension)

        if duration == nil && (audio != nil || video != nil) { damage.append("duration unknown") }
        item[.declaredDuration] = declared.map(MediaValue.real)
        item[.chapterCount] = chapters.isEmpty ? nil : .integer(Int64(chapters.count))
        item[.isPartial] = .bool(!damage.isEmpty)
        item[.partialReason] = damage.first.map(MediaValue.text)
        warnings += damage + notes                   // notes: shown, but the file is whole
        var result = ProbeResult(item: item, streams: streams, pictures: pictures, chapters: chapters, isPartial: !damage.isEmpty, warnings: warnings,
                           tagSource: tagLib.map { $0.properties.isEmpty ? "ffmpeg" : "taglib" } ?? (sources.allSatisfy(\.isEmpty) ? "none" : "ffmpeg"),
                           tagFormat: tagLib.flatMap { $0.tagFormat.isEmpty ? nil : $0.tagFormat })
        // Issue 41: the lyrics of this read (TagLib's frames and tags, else the merged tags FFmpeg gave).
        if !LyricsReader.isAblated {
            result.lyrics = tagLib.map { LyricsReader.embedded($0).lyrics }
                ?? LyricsReader.fromTags(tags, durationMs: duration.map { Int(($0 * 1000).rounded()) }).lyrics
        }
        return result
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

    public init(size: Int64, modificationTime: Double, device: UInt64, inode: UInt64) {
        self.size = size
        self.modificationTime = modificationTime
        self.device = device
        self.inode = inode
    }

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
        case ENOENT, ENOTDIR: .notFound(path)
        case ELOOP: .symlinkLoop(path)      // it exists; "no such file" sent users looking for a typo
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
