import CFFmpeg
import FFmpegLoader
import MediaModel

/// Transcodes one file to Opus-in-Ogg, MP3 or raw LPCM in-process: `AudioDecoder` decodes (and resamples to a rate
/// and channel count the encoder takes), libavcodec encodes, libavformat muxes into memory, and `read`
/// hands the container's bytes out as they are produced, so a server can send the first bytes a few
/// milliseconds after the request, without a temporary file or an ffmpeg child process.
///
/// A reference type holding C handles: create, use and free it on one thread (or one task) at a time.
/// Dropping it midway (a client that went away) frees everything; nothing is left behind.
public final class Transcoder {
    public let format: TranscodeFormat
    /// The encoder's bit rate (bits per second), after clamping to what it accepts.
    public let bitRate: Int
    /// The output's sample rate and channel count.
    public let sampleRate: Int
    public let channels: Int
    /// Seconds of audio the output will hold (the item's length less the start offset), if the container says.
    public let duration: Double?

    private let decoder: AudioDecoder<Float>
    private let output = OutputBuffer()
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var planar = false
    private var integer = false
    private var frameSize = 0
    private var pending: [Float] = []
    private var samplesSent: Int64 = 0
    private var headerSent = false
    private var finished = false

    /// Opens `path` and prepares the encoder and muxer; `bitRate` in bits per second (nil: the format's
    /// default), `startAt` seconds into the item (Subsonic's `timeOffset`). Throws `DecodeError` when the
    /// file does not decode or FFmpeg lacks the encoder.
    /// `path` is opened by its bytes (a name that is not UTF-8 opens too).
    public init(path file: MediaPath, format: TranscodeFormat, bitRate: Int? = nil, startAt: Double = 0) throws {
        let path = file.string
        try FFmpegLibrary.load(for: path)
        self.format = format
        guard let encoder = avcodec_find_encoder_by_name(format.encoderName) else {
            throw DecodeError(path: path, message: "this FFmpeg has no \(format.encoderName) encoder")
        }
        // The source's rate when the encoder takes it (no resampling), else the encoder's first (Opus: 48 kHz).
        let probe = try AudioDecoder<Float>(path: file)
        let rates = Self.list(encoder.pointee.supported_samplerates, end: 0)
        let rate = format == .lpcm ? Self.lpcmRate(source: probe.sourceSampleRate)
            : rates.isEmpty || rates.contains(Int32(probe.sourceSampleRate)) ? probe.sourceSampleRate : Int(rates[0])
        let channelCount = min(probe.sourceChannels, 2)
        decoder = probe.sampleRate == rate && probe.channels == channelCount
            ? probe : try AudioDecoder<Float>(path: file, sampleRate: rate, channels: channelCount)
        if startAt > 0 { try decoder.seek(to: startAt) }
        sampleRate = rate
        channels = channelCount
        // libopus takes at most 256 kb/s per channel (a mono file asked at 320 kb/s would not open).
        let highest = format == .opus ? min(format.bitRates.upperBound, 256_000 * channelCount) : format.bitRates.upperBound
        // PCM's rate is what it is: 16 bits per sample.
        self.bitRate = format == .lpcm ? rate * channelCount * 16 : min(max(bitRate ?? format.defaultBitRate, format.bitRates.lowerBound), highest)
        duration = decoder.duration.map { max(0, $0 - startAt) }
        do {
            try openEncoder(encoder, path: path)
            try openMuxer(path: path)
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// The next bytes of the output (the container's header first, then about `chunk` bytes at a time), or
    /// nil once everything, trailer included, has been returned.
    public func read(chunk: Int = 16 * 1024) throws -> [UInt8]? {
        if !headerSent {
            headerSent = true
            return output.take()
        }
        while output.bytes.count < chunk && !finished {
            if let samples = try decoder.read() {
                pending += samples
                try encodeWholeFrames()
            } else {
                try finish()
            }
        }
        return output.bytes.isEmpty && finished ? nil : output.take()
    }

    // MARK: Setup

    private func openEncoder(_ encoder: UnsafePointer<AVCodec>, path: String) throws {
        guard let context = avcodec_alloc_context3(encoder) else { throw DecodeError(path: path, message: "out of memory") }
        codecContext = context
        let formats = Self.list(encoder.pointee.sample_fmts, end: AV_SAMPLE_FMT_NONE)
        // The decoder gives interleaved floats; an encoder that wants them planar (LAME) gets them split.
        if formats.isEmpty || formats.contains(AV_SAMPLE_FMT_FLT) {
            context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        } else if formats.contains(AV_SAMPLE_FMT_FLTP) {
            context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            planar = true
        } else if formats.contains(AV_SAMPLE_FMT_S16) {
            // PCM encoders (LPCM) take interleaved 16-bit integers: converted in `encode`.
            context.pointee.sample_fmt = AV_SAMPLE_FMT_S16
            integer = true
        } else {
            throw DecodeError(path: path, message: "\(format.encoderName) takes no floating-point samples")
        }
        context.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.bit_rate = Int64(bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        // Ogg carries the Opus header in the stream's extradata (the "global header").
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        let status = avcodec_open2(context, encoder, nil)
        guard status >= 0 else {
            throw DecodeError(path: path, message: "cannot open the \(format.encoderName) encoder: \(FFmpegLibrary.text(status))")
        }
        frameSize = context.pointee.frame_size > 0 ? Int(context.pointee.frame_size) : 1024
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard frame != nil, packet != nil else { throw DecodeError(path: path, message: "out of memory") }
    }

    private func openMuxer(path: String) throws {
        guard let codecContext else { return }
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&context, nil, format.muxerName, nil)
        guard status >= 0, let context else {
            throw DecodeError(path: path, message: "no \(format.muxerName) muxer: \(FFmpegLibrary.text(status))")
        }
        formatContext = context
        // Output goes to memory through a write callback; `output` collects it until `read` hands it out.
        let size: Int32 = 32 * 1024
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self),
              let io = avio_alloc_context(buffer, size, 1, Unmanaged.passUnretained(output).toOpaque(), nil,
                                          Transcoder.collect, nil) else {
            throw DecodeError(path: path, message: "out of memory")
        }
        self.io = io
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        if format == .mp3, let options = context.pointee.priv_data {
            // The Xing header is rewritten at the end by seeking back, which a stream cannot do.
            av_opt_set_int(options, "write_xing", 0, 0)
        }
        guard let stream = avformat_new_stream(context, nil) else { throw DecodeError(path: path, message: "out of memory") }
        self.stream = stream
        stream.pointee.time_base = codecContext.pointee.time_base
        status = avcodec_parameters_from_context(stream.pointee.codecpar, codecContext)
        if status >= 0 { status = avformat_write_header(context, nil) }
        guard status >= 0 else {
            throw DecodeError(path: path, message: "cannot write the \(format.muxerName) header: \(FFmpegLibrary.text(status))")
        }
        avio_flush(io)
    }

    /// The write callback of the in-memory output (a C function: no captures, the buffer comes as `opaque`).
    private static let collect: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, bytes, count in
        guard let opaque, let bytes, count > 0 else { return 0 }
        Unmanaged<OutputBuffer>.fromOpaque(opaque).takeUnretainedValue()
            .bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
        return count
    }

    // MARK: Encoding

    private func encodeWholeFrames() throws {
        let frameSamples = frameSize * channels
        var offset = 0
        while pending.count - offset >= frameSamples {
            try encode(pending[offset..<(offset + frameSamples)])
            offset += frameSamples
        }
        pending.removeFirst(offset)
    }

    /// Encodes what is left (a short last frame, which both encoders accept), drains the encoder and
    /// writes the trailer.
    private func finish() throws {
        if !pending.isEmpty {
            try encode(pending[...])
            pending = []
        }
        try send(nil)
        if let formatContext {
            let status = av_write_trailer(formatContext)
            guard status >= 0 else { throw DecodeError(path: decoder.path, message: "cannot finish the stream: \(FFmpegLibrary.text(status))") }
        }
        if let io { avio_flush(io) }
        finished = true
    }

    private func encode(_ samples: ArraySlice<Float>) throws {
        guard let frame, let codecContext else { return }
        let count = samples.count / channels
        frame.pointee.nb_samples = Int32(count)
        frame.pointee.format = codecContext.pointee.sample_fmt.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_copy(&frame.pointee.ch_layout, &codecContext.pointee.ch_layout)
        var status = av_frame_get_buffer(frame, 0)
        guard status >= 0 else { throw DecodeError(path: decoder.path, message: "out of memory") }
        defer { av_frame_unref(frame) }
        samples.withUnsafeBufferPointer { source in
            if integer {
                let plane = frame.pointee.extended_data[0]!.withMemoryRebound(to: Int16.self, capacity: source.count) { $0 }
                for index in 0..<source.count { plane[index] = Int16((min(max(source[index], -1), 1) * 32_767).rounded()) }
            } else if planar {
                for channel in 0..<channels {
                    let plane = frame.pointee.extended_data[channel]!.withMemoryRebound(to: Float.self, capacity: count) { $0 }
                    for index in 0..<count { plane[index] = source[index * channels + channel] }
                }
            } else {
                let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[0]!)
                plane.copyMemory(from: source.baseAddress!, byteCount: source.count * MemoryLayout<Float>.size)
            }
        }
        frame.pointee.pts = samplesSent
        samplesSent += Int64(count)
        try send(frame)
    }

    /// Sends one frame (nil: the end) and muxes every packet the encoder has ready.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        guard let codecContext, let packet, let formatContext, let stream else { return }
        let sent = avcodec_send_frame(codecContext, frame)
        guard sent >= 0 else { throw DecodeError(path: decoder.path, message: "encoding failed: \(FFmpegLibrary.text(sent))") }
        while true {
            let received = avcodec_receive_packet(codecContext, packet)
            if received == mlib_averror_eagain() || received == mlib_averror_eof() { break }
            guard received >= 0 else { throw DecodeError(path: decoder.path, message: "encoding failed: \(FFmpegLibrary.text(received))") }
            packet.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet, codecContext.pointee.time_base, stream.pointee.time_base)
            let written = av_write_frame(formatContext, packet)
            av_packet_unref(packet)
            guard written >= 0 else { throw DecodeError(path: decoder.path, message: "muxing failed: \(FFmpegLibrary.text(written))") }
        }
        if let io { avio_flush(io) }
    }

    // MARK: Internals

    /// The rate of LPCM made from a source at `source` Hz: DLNA's LPCM profile takes 44.1 or 48 kHz only, so
    /// a source at a multiple of 11,025 Hz goes to 44.1 kHz and any other to 48 (a server names the rate in
    /// the `res` before it transcodes).
    public static func lpcmRate(source: Int) -> Int { source > 0 && source % 11_025 == 0 ? 44_100 : 48_000 }

    private static func list<T: Equatable>(_ pointer: UnsafePointer<T>?, end: T) -> [T] {
        guard var pointer else { return [] }
        var values: [T] = []
        while pointer.pointee != end {
            values.append(pointer.pointee)
            pointer += 1
        }
        return values
    }

    private func release() {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        if let formatContext {
            formatContext.pointee.pb = nil
            avformat_free_context(formatContext)
            self.formatContext = nil
        }
        if io != nil {
            av_freep(&io!.pointee.buffer)
            avio_context_free(&io)
        }
    }
}

/// The muxer's output between two `Transcoder.read` calls.
final class OutputBuffer {
    var bytes: [UInt8] = []

    func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}
