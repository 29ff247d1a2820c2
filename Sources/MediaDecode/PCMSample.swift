import CFFmpeg

/// The sample types a decoder can deliver, interleaved: what a sink, an analyzer or an encoder takes.
public enum PCMSampleFormat: Sendable, Hashable {
    /// Signed 16-bit (Chromaprint's input, CD audio).
    case int16
    /// Signed 32-bit, full scale at `Int32`'s range (the player's pipeline: 16- and 24-bit sources exact).
    case int32
    /// 32-bit float, full scale at ±1 (libebur128's, and most encoders', input).
    case float32

    var ffmpegFormat: AVSampleFormat {
        switch self {
        case .int16: AV_SAMPLE_FMT_S16
        case .int32: AV_SAMPLE_FMT_S32
        case .float32: AV_SAMPLE_FMT_FLT
        }
    }

    var planarFFmpegFormat: AVSampleFormat {
        switch self {
        case .int16: AV_SAMPLE_FMT_S16P
        case .int32: AV_SAMPLE_FMT_S32P
        case .float32: AV_SAMPLE_FMT_FLTP
        }
    }
}

/// A Swift sample type `AudioDecoder` can fill: `Int16`, `Int32` or `Float`.
public protocol PCMSample: Sendable, BitwiseCopyable {
    static var pcmFormat: PCMSampleFormat { get }
    static var zero: Self { get }
}

extension Int16: PCMSample { public static var pcmFormat: PCMSampleFormat { .int16 } }
extension Int32: PCMSample { public static var pcmFormat: PCMSampleFormat { .int32 } }
extension Float: PCMSample { public static var pcmFormat: PCMSampleFormat { .float32 } }

/// How deep the source's samples are (what a sink that can switch should be set to, so the item is not
/// requantised): integer sources at 16, 24 or 32 bits, lossy codecs and float files as float.
public enum SourceDepth: Sendable, Hashable {
    case int16, int24, int32, float
}
