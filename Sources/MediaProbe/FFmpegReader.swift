import CFFmpeg
import FFmpegLoader
import MediaDecode
import MediaModel

/// Container and stream facts from libavformat. Opens the header only (`avformat_open_input`, ~0.2 ms);
/// `avformat_find_stream_info` (~10× the cost, and a full read of a WAV) runs only when the caller says the
/// header left something out. The C context never leaves `read`.
struct FFmpegReader {
    struct Container: Sendable {
        var formatName: String          // ffprobe's format_name ("mp3", "mov,mp4,m4a,3gp,3g2,mj2"…)
        var formatLongName: String?
        var duration: Double?           // seconds
        var bitRate: Int64?
        var streams: [StreamInfo]
        var metadata: [(String, String)]  // format-level tags, then stream-level (Ogg keeps tags on the stream)
        var probedStreams: Bool           // find_stream_info ran
        /// The MP4 major brand ("M4A ", "M4B ", "isom", "qt  "…), when the container has one.
        var brand: String?
        /// An MP4 stream whose sample table is missing or unreadable: FFmpeg opens the file, but nothing in
        /// that stream can be played.
        var emptySampleTable: Int?
        var chapters: [ChapterInfo] = []
    }

    /// The most FFmpeg may read of a file to open it and find its streams. Its parsers read on through data
    /// they cannot frame: a 1 GiB ".mp3" of zeros (what a preallocated download looks like) took 15 s, 200 MB
    /// of random bytes 4.7 s. Real headers need far less (a multi-hour MP4's index is tens of MB). Each byte
    /// counts once (DescriptorIO.State: bytes read again are bounded apart).
    static let readBudget: Int64 = 64 << 20

    /// - Parameter needsStreamInfo: given the header-only view, says whether to read further.
    static func read(_ file: MediaFile, needsStreamInfo: (Container) -> Bool) throws(ProbeError) -> Container {
        let path = file.path
        if let failure = FFmpegLibrary.loadError() { throw .io(path, reason: failure) }
        guard let fresh = avformat_alloc_context() else { throw .io(path, reason: "out of memory") }
        // The budget is kept by DescriptorIO's reads (past it they fail with AVERROR_EXIT); FFmpeg also checks
        // this callback in its own loops (stream info), so they stop at the same point.
        fresh.pointee.interrupt_callback = AVIOInterruptCB(callback: { opaque in
            // DescriptorIO's count (the file's bytes read, each once), not the context's `bytes_read`,
            // which counts every byte read again too.
            guard let state = opaque?.assumingMemoryBound(to: AVFormatContext.self).pointee.pb?.pointee.opaque else { return 0 }
            return state.assumingMemoryBound(to: DescriptorIO.State.self).pointee.spent ? 1 : 0
        }, opaque: UnsafeMutableRawPointer(fresh))
        // FFmpeg reads through the descriptor MediaFile opened and checked, never the path again: a FIFO or
        // a device swapped in for the file since then would have blocked the scan for ever.
        guard let io = DescriptorIO(file, budget: readBudget) else { avformat_free_context(fresh); throw .io(path, reason: "out of memory") }
        defer { io.close() }
        fresh.pointee.pb = io.context
        fresh.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var ctx: UnsafeMutablePointer<AVFormatContext>? = fresh       // avformat_open_input frees it on failure
        // A format recognised from its magic bytes spares FFmpeg probing every demuxer it has.
        let format = FormatSniffer.ffmpegFormat(of: file).flatMap { name in name.withCString { av_find_input_format($0) } }
        let openResult = path.withCString { avformat_open_input(&ctx, $0, format, nil) }
        guard openResult >= 0, let ctx else { throw openError(openResult, path) }
        var context: UnsafeMutablePointer<AVFormatContext>? = ctx
        defer { avformat_close_input(&context) }

        var container = describe(ctx, probed: false)
        if needsStreamInfo(container) {
            let r = avformat_find_stream_info(ctx, nil)
            if r == mlib_averror_exit() { throw ProbeError.notMedia(path, reason: budgetSpent) }
            if r < 0 {
                throw ProbeError.corrupt(path, reason: "FFmpeg: \(errorString(r))")
            }
            container = describe(ctx, probed: true)
        }
        return container
    }

    /// The file already passed open(2) and stat(2) (FileFacts), so most failures here are about content.
    private static let budgetSpent = "FFmpeg found no usable stream in the first \(readBudget >> 20) MiB"

    private static func openError(_ code: Int32, _ path: MediaPath) -> ProbeError {
        switch code {
        case mlib_averror_exit(): .notMedia(path, reason: budgetSpent)
        case mlib_averror(ENOENT): .notFound(path)
        case mlib_averror(EACCES), mlib_averror(EPERM): .permissionDenied(path)
        case mlib_averror_invaliddata():
            .notMedia(path, reason: "FFmpeg: \(errorString(code))")
        case mlib_averror(EINVAL), mlib_averror(ENOSYS):
            // What FFmpeg says when no demuxer takes the file (random bytes named .mp3): "Invalid argument"
            // would read as a mistake on the command line.
            .notMedia(path, reason: "FFmpeg recognises no format in it")
        case mlib_averror(EIO), mlib_averror(ENXIO), mlib_averror(ENODEV):
            // FFmpeg says EIO both for a failing disk and for a demuxer that ran past a short file.
            FileFacts.isReadable(path) ? .corrupt(path, reason: "FFmpeg: the file ends early or is damaged")
                                       : .io(path, reason: errorString(code))
        case mlib_averror_eof(): .corrupt(path, reason: "FFmpeg: unexpected end of file")
        default: .corrupt(path, reason: "FFmpeg: \(errorString(code))")
        }
    }

    static func errorString(_ code: Int32) -> String { FFmpegLibrary.text(code) }

    /// The NUL-terminated text FFmpeg wrote into `buffer`.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func describe(_ ctx: UnsafeMutablePointer<AVFormatContext>, probed: Bool) -> Container {
        let f = ctx.pointee
        let nopts = mlib_nopts_value()
        var duration: Double? = f.duration != nopts && f.duration > 0 ? Double(f.duration) / Double(AV_TIME_BASE) : nil
        var streams: [StreamInfo] = []
        var metadata = dictionary(f.metadata)
        let formatName = f.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        let isMP4 = formatName.hasPrefix("mov,")
        var emptySampleTable: Int?
        for i in 0..<Int(f.nb_streams) {
            guard let st = f.streams[i] else { continue }
            let info = stream(st, index: i)
            if isMP4, emptySampleTable == nil, info.kind == .audio || (info.kind == .video && !info.isAttachedPicture),
               avformat_index_get_entries_count(st) == 0 {
                emptySampleTable = i
            }
            if duration == nil, let d = info.duration, info.kind == .audio || info.kind == .video, !info.isAttachedPicture {
                duration = d
            }
            streams.append(info)
            if info.kind == .audio || !info.isAttachedPicture { metadata += dictionary(st.pointee.metadata) }
        }
        return Container(
            formatName: formatName,
            formatLongName: f.iformat.flatMap { $0.pointee.long_name.map { String(cString: $0) } },
            duration: duration,
            bitRate: f.bit_rate > 0 ? f.bit_rate : nil,
            streams: streams, metadata: metadata, probedStreams: probed,
            brand: metadata.first { $0.0 == "major_brand" }?.1, emptySampleTable: emptySampleTable,
            chapters: ChapterEnds.filled((0..<Int(f.nb_chapters)).compactMap { i in
                guard let c = f.chapters[i]?.pointee, c.time_base.den > 0 else { return nil }
                let base = av_q2d(c.time_base)
                // AV_NOPTS_VALUE: an end the container does not give (Nero chpl).
                return ChapterInfo(start: Double(c.start) * base, end: c.end == nopts ? .nan : Double(c.end) * base,
                                   title: dictionary(c.metadata).first { $0.0 == "title" }?.1 ?? "")
            }, duration: duration))
    }

    private static func stream(_ st: UnsafeMutablePointer<AVStream>, index: Int) -> StreamInfo {
        let s = st.pointee
        let par = s.codecpar.pointee
        let kind: StreamInfo.Kind = switch par.codec_type {
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        case AVMEDIA_TYPE_DATA: .data
        default: .unknown
        }
        // A codec FFmpeg has no id for (AC-4 in FFmpeg 5.1) is named by the container's fourcc, as ffprobe
        // shows it ("none (ac-4 / 0x342D6361)"): the stream is there, with its facts, and named.
        let tag = fourcc(par.codec_tag)
        let name = par.codec_id == AV_CODEC_ID_NONE ? tag ?? "none" : String(cString: avcodec_get_name(par.codec_id))
        var info = StreamInfo(index: index, kind: kind, codec: name)
        if kind == .audio || kind == .video, !(s.disposition & AV_DISPOSITION_ATTACHED_PIC != 0) {
            info.undecodable = undecodable(par, name: name)
            if info.undecodable != nil { info.codecTag = tag }
        }
        if let desc = avcodec_descriptor_get(par.codec_id), let long = desc.pointee.long_name {
            info.codecLongName = String(cString: long)
        }
        if let profile = avcodec_profile_name(par.codec_id, par.profile) { info.profile = String(cString: profile) }
        if s.duration != mlib_nopts_value(), s.duration > 0, s.time_base.den > 0 {
            info.duration = Double(s.duration) * av_q2d(s.time_base)
        }
        info.bitRate = par.bit_rate > 0 ? par.bit_rate : nil
        info.isAttachedPicture = s.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        info.language = dictionary(s.metadata).first { $0.0 == "language" }?.1
        switch kind {
        case .audio:
            info.sampleRate = par.sample_rate > 0 ? Int(par.sample_rate) : nil
            var layout = par.ch_layout
            info.channels = layout.nb_channels > 0 ? Int(layout.nb_channels) : nil
            if layout.nb_channels > 0 {
                var buffer = [CChar](repeating: 0, count: 64)
                if av_channel_layout_describe(&layout, &buffer, buffer.count) > 0 { info.channelLayout = text(buffer) }
            }
            let bits = par.bits_per_raw_sample > 0 ? par.bits_per_raw_sample : par.bits_per_coded_sample
            info.bitDepth = bits > 0 && isLossless(par.codec_id) ? Int(bits) : nil
            if par.format >= 0, let name = av_get_sample_fmt_name(AVSampleFormat(rawValue: par.format)) {
                info.sampleFormat = String(cString: name)
            }
        case .video:
            info.width = par.width > 0 ? Int(par.width) : nil
            info.height = par.height > 0 ? Int(par.height) : nil
            var rate = s.avg_frame_rate.den > 0 && s.avg_frame_rate.num > 0 ? s.avg_frame_rate : s.r_frame_rate
            // Theora in Ogg: the header-only open sets neither rate (ffprobe's comes from decoding); the
            // demuxer's time base is the identification header's frame duration (FRD/FRN), one tick a frame.
            if rate.num <= 0 || rate.den <= 0, par.codec_id == AV_CODEC_ID_THEORA, s.time_base.num > 0, s.time_base.den > 0 {
                rate = AVRational(num: s.time_base.den, den: s.time_base.num)
            }
            if rate.den > 0, rate.num > 0, !info.isAttachedPicture { info.frameRate = av_q2d(rate) }
            if par.format >= 0, let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)) {
                info.pixelFormat = String(cString: name)
            }
        default: break
        }
        return info
    }

    /// Why this FFmpeg cannot decode a stream (nil: it can). A container FFmpeg reads can hold a codec it
    /// has no decoder for (MPEG-H 3D audio, AC-4, IAMF…): the file is a media file all the same.
    private static func undecodable(_ par: AVCodecParameters, name: String) -> String? {
        if avcodec_find_decoder(par.codec_id) == nil { return "this FFmpeg cannot decode \(name)" }
        return par.codec_id == AV_CODEC_ID_FLAC ? DecoderLimits.flac(bits: Int(par.bits_per_raw_sample)) : nil
    }

    /// A codec tag as its four characters, when they are printable ("mhm1", "ac-4"); nil otherwise.
    static func fourcc(_ tag: UInt32) -> String? {
        let bytes = (0..<4).map { UInt8(tag >> (8 * $0) & 0xFF) }
        guard tag != 0, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Bit depth means something for PCM and lossless codecs only (ffprobe reports 0 for lossy ones too).
    private static func isLossless(_ id: AVCodecID) -> Bool {
        guard let desc = avcodec_descriptor_get(id) else { return false }
        return desc.pointee.props & AV_CODEC_PROP_LOSSLESS != 0
    }

    private static func dictionary(_ dict: OpaquePointer?) -> [(String, String)] {
        var out: [(String, String)] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let e = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX) {
            out.append((String(cString: e.pointee.key), String(cString: e.pointee.value)))
            entry = e
        }
        return out
    }
}
