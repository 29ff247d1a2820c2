import CFFmpeg
import FFmpegLoader

/// How libswresample resamples, where a caller must match another program's output sample for sample
/// (Chromaprint's fpcalc sets its own filter); nil fields keep libswresample's defaults.
public struct ResamplerSettings: Sendable, Hashable {
    public var filterSize: Int?
    public var phaseShift: Int?
    public var linearInterpolation: Bool?
    /// Cutoff frequency as a fraction of the output's Nyquist frequency.
    public var cutoff: Double?
    /// The format libswresample computes in (planar); e.g. `.int16` for 16-bit integer arithmetic.
    public var internalFormat: PCMSampleFormat?

    public init(filterSize: Int? = nil, phaseShift: Int? = nil, linearInterpolation: Bool? = nil, cutoff: Double? = nil,
                internalFormat: PCMSampleFormat? = nil) {
        self.filterSize = filterSize
        self.phaseShift = phaseShift
        self.linearInterpolation = linearInterpolation
        self.cutoff = cutoff
        self.internalFormat = internalFormat
    }
}

/// Converts interleaved samples from one sample type, rate and channel count to another (libswresample),
/// for a second view of decoded audio: the analyzer measures loudness on the decoder's floats and feeds
/// Chromaprint the same audio as 16-bit mono at 11,025 Hz. Holds a C handle: use it on one thread.
public final class SampleConverter<Input: PCMSample, Output: PCMSample> {
    public let inputChannels: Int
    public let outputChannels: Int
    private var context: OpaquePointer?

    public init(inputRate: Int, inputChannels: Int, outputRate: Int, outputChannels: Int,
                settings: ResamplerSettings = ResamplerSettings()) throws {
        try FFmpegLibrary.load(for: "")
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        var inLayout = AVChannelLayout(), outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(inputChannels))
        av_channel_layout_default(&outLayout, Int32(outputChannels))
        defer {
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_uninit(&outLayout)
        }
        var swr: OpaquePointer?
        var status = swr_alloc_set_opts2(&swr, &outLayout, Output.pcmFormat.ffmpegFormat, Int32(outputRate),
                                         &inLayout, Input.pcmFormat.ffmpegFormat, Int32(inputRate), 0, nil)
        if status >= 0, let swr {
            let object = UnsafeMutableRawPointer(swr)
            if let size = settings.filterSize { av_opt_set_int(object, "filter_size", Int64(size), 0) }
            if let shift = settings.phaseShift { av_opt_set_int(object, "phase_shift", Int64(shift), 0) }
            if let linear = settings.linearInterpolation { av_opt_set_int(object, "linear_interp", linear ? 1 : 0, 0) }
            if let cutoff = settings.cutoff { av_opt_set_double(object, "cutoff", cutoff, 0) }
            if let format = settings.internalFormat {
                av_opt_set_int(object, "tsf", Int64(format.planarFFmpegFormat.rawValue), 0)
            }
            status = swr_init(swr)
        }
        guard status >= 0, let swr else {
            swr_free(&swr)
            throw DecodeError(path: "", message: "cannot convert this audio format: \(FFmpegLibrary.text(status))")
        }
        context = swr
    }

    deinit { swr_free(&context) }

    /// The converted samples for `input` (whole frames, interleaved); the resampler keeps a few back
    /// until `flush`.
    public func convert(_ input: UnsafeBufferPointer<Input>) throws -> [Output] {
        try run(input.baseAddress.map { UnsafeRawPointer($0) }, frames: input.count / inputChannels)
    }

    /// What the resampler still holds, at the end of the input.
    public func flush() throws -> [Output] { try run(nil, frames: 0) }

    private func run(_ input: UnsafeRawPointer?, frames: Int) throws -> [Output] {
        guard let context else { return [] }
        let capacity = Int(swr_get_out_samples(context, Int32(frames))) + 32
        let channels = outputChannels
        var count: Int32 = 0
        // Filled by libswresample in place (no zero fill first: see `AudioDecoder.convert`).
        let output = [Output](unsafeUninitializedCapacity: capacity * channels) { buffer, initialized in
            var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
            if let input {
                var planes: UnsafePointer<UInt8>? = input.assumingMemoryBound(to: UInt8.self)
                count = swr_convert(context, &out, Int32(capacity), &planes, Int32(frames))
            } else {
                count = swr_convert(context, &out, Int32(capacity), nil, 0)
            }
            initialized = max(0, Int(count)) * channels
        }
        guard count >= 0 else { throw DecodeError(path: "", message: "resampling failed: \(FFmpegLibrary.text(count))") }
        return output
    }
}
