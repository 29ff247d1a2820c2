import CFFmpeg
import FFmpegLoader
import MediaModel

/// Decodes one file's best audio stream with FFmpeg and converts it (libswresample) to interleaved
/// `Sample`s (`Int16`, `Int32` or `Float`, full scale at the type's range or ±1) at the requested rate
/// and channel count (the source's own when not given). The one decode layer of mlib: the player pulls
/// `Int32`s at its sink's format, the analyzer `Float`s at the source's, a transcoder whatever it encodes.
/// A reference type holding C handles: create, use and free it on one thread (or task) only.
///
/// Exactness matters for gapless playback and for analysis: at the end the decoder is drained and the
/// resampler flushed, so every sample of the item comes out and nothing is added.
public final class AudioDecoder<Sample: PCMSample> {
    /// For messages (a name that is not UTF-8 shows U+FFFD); the file is opened by `file`'s bytes.
    public let path: String
    /// The file as the kernel names it: what FFmpeg opens.
    public let file: MediaPath
    /// The rate and channels of what `read` returns (the request, with the source's filled in).
    public private(set) var sampleRate = 0
    public private(set) var channels = 0
    /// Length in seconds from the container, if it says.
    public private(set) var duration: Double?
    /// Seconds into the item of the next sample `read` returns.
    public private(set) var position: Double = 0

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var resampler: OpaquePointer?
    private var resamplerInput: (format: Int32, rate: Int32, layout: AVChannelLayout)?
    private var streamIndex: Int32 = -1
    private var timeBase: Double = 1
    private var startPTS: Int64 = 0
    private var draining = false
    private var resamplerFlushed = false
    private var discardUntil: Double?
    private var badPackets = 0
    private var producedAnything = false
    /// Where decoding stops: the caller's limit, or where the item ends when the container says so and
    /// the decoder would not stop there by itself: AAC in MP4, whose edit list cuts off the encoder's
    /// padding (FFmpeg 5.1 drops the priming samples at the start but decodes the padding at the end,
    /// ~20 ms of silence between tracks).
    private var endLimit: Double?
    private var reachedEnd = false

    /// The item's own rate, channel count and sample depth.
    public private(set) var sourceSampleRate = 0
    public private(set) var sourceChannels = 0
    public private(set) var sourceDepth = SourceDepth.int16

    /// The depth the decoder's samples really have: FFmpeg decodes 24-bit FLAC or WAV into 32-bit
    /// samples and says so in `bits_per_raw_sample`; lossy codecs decode to floating point.
    static func depth(of codec: AVCodecContext) -> SourceDepth {
        let bits = Int(codec.bits_per_raw_sample)
        switch codec.sample_fmt {   // (matched by hand: FFmpegLoader has no stub for av_get_packed_sample_fmt)
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: return .int16
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_S64, AV_SAMPLE_FMT_S64P:
            return bits > 0 && bits <= 16 ? .int16 : bits > 0 && bits <= 24 ? .int24 : .int32
        default: return .float
        }
    }

    /// Opens `path` for decoding to `sampleRate` and `channels` (nil: the source's; more or fewer channels
    /// are mixed by libswresample's default matrix), stopping after `limit` seconds when given (as fpcalc
    /// stops at 120 s). Throws `DecodeError` when the file has no decodable audio stream.
    /// `path` is opened by its bytes: a name that is not UTF-8 (Latin-1 `caf\xe9.flac`) opens too.
    public init(path file: MediaPath, sampleRate requestedRate: Int? = nil, channels requestedChannels: Int? = nil,
                limit: Double? = nil) throws {
        let path = file.string
        try FFmpegLibrary.load(for: path)
        self.path = path
        self.file = file
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = file.withCString { avformat_open_input(&context, $0, nil, nil) }
        guard status >= 0, let context else { throw DecodeError(path: path, message: FFmpegLibrary.text(status)) }
        formatContext = context
        do {
            status = avformat_find_stream_info(context, nil)
            guard status >= 0 else { throw DecodeError(path: path, message: FFmpegLibrary.text(status)) }
            var codec: UnsafePointer<AVCodec>?
            let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0)
            guard index >= 0, let codec, let stream = context.pointee.streams[Int(index)] else {
                // An audio stream whose codec this FFmpeg has no decoder for (AC-4, MPEG-H 3D audio): say so,
                // by FFmpeg's codec name or the container's fourcc (issue 49), not "no audio".
                let any = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
                if any >= 0, let par = context.pointee.streams[Int(any)]?.pointee.codecpar?.pointee {
                    let tag = (0..<4).map { UInt8(par.codec_tag >> (8 * $0) & 0xFF) }
                    let name = par.codec_id != AV_CODEC_ID_NONE ? String(cString: avcodec_get_name(par.codec_id))
                        : tag.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) && par.codec_tag != 0 ? String(decoding: tag, as: UTF8.self) : "an unknown codec"
                    throw DecodeError(path: path, message: "this FFmpeg cannot decode \(name) (audio stream #\(any))")
                }
                throw DecodeError(path: path, message: "no decodable audio stream")
            }
            // FFmpeg before 6.1 opens a 32-bit FLAC and decodes none of its frames: said before anything is
            // played, by the rule MediaProbe marks such an item not decodable with (DecoderLimits).
            let par = stream.pointee.codecpar.pointee
            if par.codec_id == AV_CODEC_ID_FLAC, let reason = DecoderLimits.flac(bits: Int(par.bits_per_raw_sample)) {
                throw DecodeError(path: path, message: reason)
            }
            streamIndex = index
            timeBase = av_q2d(stream.pointee.time_base)
            startPTS = stream.pointee.start_time == mlib_nopts_value() ? 0 : stream.pointee.start_time
            if stream.pointee.duration != mlib_nopts_value() && stream.pointee.duration > 0 {
                duration = Double(stream.pointee.duration) * timeBase
            } else if context.pointee.duration > 0 {
                duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
            }
            let container = context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
            if container.contains("mp4"), stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_AAC,
               stream.pointee.duration != mlib_nopts_value(), stream.pointee.duration > 0 {
                endLimit = Double(stream.pointee.duration) * timeBase
            }
            if let limit { endLimit = min(endLimit ?? limit, limit) }
            guard let codecContext = avcodec_alloc_context3(codec) else {
                throw DecodeError(path: path, message: "out of memory")
            }
            self.codecContext = codecContext
            status = avcodec_parameters_to_context(codecContext, stream.pointee.codecpar)
            if status >= 0 { status = avcodec_open2(codecContext, codec, nil) }
            guard status >= 0 else { throw DecodeError(path: path, message: "cannot open decoder: \(FFmpegLibrary.text(status))") }
            let rate = Int(codecContext.pointee.sample_rate), sourceChannelCount = Int(codecContext.pointee.ch_layout.nb_channels)
            sourceSampleRate = rate > 0 ? rate : requestedRate ?? 44_100
            sourceChannels = max(1, sourceChannelCount)
            sourceDepth = Self.depth(of: codecContext.pointee)
            sampleRate = requestedRate ?? sourceSampleRate
            channels = requestedChannels ?? sourceChannels
            packet = av_packet_alloc()
            frame = av_frame_alloc()
        } catch {
            release()
            throw error
        }
    }

    /// Opens `path` (a UTF-8 name; see `init(path: MediaPath, …)`).
    public convenience init(path: String, sampleRate requestedRate: Int? = nil, channels requestedChannels: Int? = nil,
                            limit: Double? = nil) throws {
        try self.init(path: MediaPath(path), sampleRate: requestedRate, channels: requestedChannels, limit: limit)
    }

    deinit { release() }

    /// The next samples (one decoded frame's worth, interleaved, `channels` per frame), or nil at the end
    /// of the item (or of the limit). Damaged packets are skipped; a file that yields nothing decodable throws.
    public func read() throws -> [Sample]? {
        guard !reachedEnd, var samples = try readDecoded() else { return nil }
        if let endLimit, position > endLimit {
            // Past the container's end: keep what lies before it, and stop.
            let excess = min(samples.count / channels,
                             Int(((position - endLimit) * Double(sampleRate)).rounded()))
            samples.removeLast(excess * channels)
            position = endLimit
            reachedEnd = true
            if samples.isEmpty { return nil }
        }
        return samples
    }

    private func readDecoded() throws -> [Sample]? {
        guard let codecContext, let frame, let packet, let formatContext else { return nil }
        while true {
            let received = avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                defer { av_frame_unref(frame) }
                if let samples = try convert(frame), !samples.isEmpty { return samples }
                continue
            }
            if received == mlib_averror_eof() {
                if let tail = try flushResampler(), !tail.isEmpty { return tail }
                if !producedAnything && badPackets > 0 {
                    throw DecodeError(path: path, message: "no decodable audio (\(badPackets) damaged packets)")
                }
                return nil
            }
            if received != mlib_averror_eagain() {
                try countBadPacket(received)   // a damaged frame: go on with the next packet
            }
            if draining { return nil }
            let readStatus = av_read_frame(formatContext, packet)
            if readStatus < 0 {
                // End of file (or a read error, which ends the item the same way): drain the decoder.
                draining = true
                avcodec_send_packet(codecContext, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(codecContext, packet)
            if sent < 0 && sent != mlib_averror_eagain() { try countBadPacket(sent) }
        }
    }

    /// Moves to `seconds` into the item: seek to the key frame before it, then discard the decoded
    /// samples before the target, so playback resumes within a few samples of it.
    public func seek(to seconds: Double) throws {
        guard let formatContext, let codecContext else { return }
        let target = max(0, duration.map { min(seconds, $0) } ?? seconds)
        let timestamp = startPTS + Int64((target / timeBase).rounded(.down))
        let status = av_seek_frame(formatContext, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard status >= 0 else { throw DecodeError(path: path, message: "cannot seek: \(FFmpegLibrary.text(status))") }
        avcodec_flush_buffers(codecContext)
        resetResampler()
        draining = false
        resamplerFlushed = false
        reachedEnd = false
        discardUntil = target
        position = target
    }

    // MARK: Internals

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws -> [Sample]? {
        producedAnything = true
        badPackets = 0
        try prepareResampler(for: frame)
        guard let resampler else { return nil }
        let capacity = Int(swr_get_out_samples(resampler, frame.pointee.nb_samples)) + 32
        let input = UnsafeMutableRawPointer(frame.pointee.extended_data)!
            .assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let channels = self.channels
        var count: Int32 = 0
        // Written by libswresample straight into the array's storage: filling it with zeros first went,
        // in this generic (unspecialised) code, through a value-witness call per sample, 8.7 % of an
        // analysis' CPU.
        var samples = [Sample](unsafeUninitializedCapacity: capacity * channels) { buffer, initialized in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
            count = swr_convert(resampler, &out, Int32(capacity), input, frame.pointee.nb_samples)
            initialized = max(0, Int(count)) * channels
        }
        guard count >= 0 else { throw DecodeError(path: path, message: "resampling failed: \(FFmpegLibrary.text(count))") }

        if let target = discardUntil {
            // First frame after a seek: its timestamp says where it starts; drop what lies before the target.
            discardUntil = nil
            let pts = frame.pointee.best_effort_timestamp
            if pts != mlib_nopts_value() {
                let frameStart = Double(pts - startPTS) * timeBase
                let drop = min(Int(count), max(0, Int(((target - frameStart) * Double(sampleRate)).rounded())))
                samples.removeFirst(drop * channels)
                if frameStart + seconds(frames: Int(count)) <= target { discardUntil = target }
            }
        }
        position += seconds(frames: samples.count / channels)
        return samples
    }

    private func flushResampler() throws -> [Sample]? {
        guard let resampler, !resamplerFlushed else { return nil }
        resamplerFlushed = true
        let capacity = Int(swr_get_out_samples(resampler, 0)) + 32
        let channels = self.channels
        var count: Int32 = 0
        let samples = [Sample](unsafeUninitializedCapacity: capacity * channels) { buffer, initialized in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
            count = swr_convert(resampler, &out, Int32(capacity), nil, 0)
            initialized = max(0, Int(count)) * channels
        }
        guard count > 0 else { return nil }
        position += seconds(frames: Int(count))
        return samples
    }

    /// (Re)creates the resampler when the frame's format differs from the one it was built for.
    private func prepareResampler(for frame: UnsafeMutablePointer<AVFrame>) throws {
        var layout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels == 0 {
            let channels = max(frame.pointee.ch_layout.nb_channels, codecContext?.pointee.ch_layout.nb_channels ?? 0)
            av_channel_layout_default(&layout, max(1, channels))
        } else {
            av_channel_layout_copy(&layout, &frame.pointee.ch_layout)
        }
        if var current = resamplerInput, resampler != nil, current.format == frame.pointee.format,
           current.rate == frame.pointee.sample_rate, av_channel_layout_compare(&current.layout, &layout) == 0 {
            av_channel_layout_uninit(&layout)
            return
        }
        resetResampler()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var swr: OpaquePointer?
        var status = swr_alloc_set_opts2(&swr, &outLayout, Sample.pcmFormat.ffmpegFormat, Int32(sampleRate),
                                         &layout, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        if status >= 0 { status = swr_init(swr) }
        guard status >= 0, let swr else {
            swr_free(&swr)
            av_channel_layout_uninit(&layout)
            throw DecodeError(path: path, message: "cannot convert this audio format: \(FFmpegLibrary.text(status))")
        }
        resampler = swr
        resamplerInput = (frame.pointee.format, frame.pointee.sample_rate, layout)
    }

    private func resetResampler() {
        swr_free(&resampler)
        if var input = resamplerInput { av_channel_layout_uninit(&input.layout) }
        resamplerInput = nil
    }

    private func countBadPacket(_ status: Int32) throws {
        badPackets += 1
        if badPackets > 100 {
            throw DecodeError(path: path, message: "undecodable audio: \(FFmpegLibrary.text(status))")
        }
    }

    private func release() {
        resetResampler()
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }

    private func seconds(frames: Int) -> Double { Double(frames) / Double(sampleRate) }
}
