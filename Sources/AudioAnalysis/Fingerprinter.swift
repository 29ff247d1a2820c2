import CChromaprint
import ChromaprintLoader
import MediaDecode

/// Chromaprint's raw fingerprint of the start of a stream, computed as `fpcalc -raw` computes it: the
/// audio converted by libswresample, with fpcalc's own settings, to 16-bit mono at Chromaprint's rate
/// (11,025 Hz), and only the first `seconds` of it (fpcalc's default: 120) fed to the default algorithm.
/// Holds C handles: one task fills it and reads it.
public final class Fingerprinter {
    /// fpcalc's `SetCompatibleMode`: the resampler settings its converter uses, so the same file gives the
    /// same 16-bit samples, hence the same fingerprint. (Debian's fpcalc 1.5.1 computes in libswresample's
    /// default format; later Chromaprint sources also force 16-bit arithmetic, which changed one value in
    /// 948 of an MP3's fingerprint here.)
    static let fpcalcResampler = ResamplerSettings(filterSize: 16, phaseShift: 8, linearInterpolation: true, cutoff: 0.8)
    public static let defaultLength = 120.0

    private let context: OpaquePointer
    private let converter: SampleConverter<Float, Int16>
    private var remainingFrames: Int

    public init(channels: Int, sampleRate: Int, seconds: Double = defaultLength) throws(AnalysisError) {
        if let failure = mlib_chromaprint_load_error() { throw .fingerprint(String(cString: failure)) }
        guard let context = chromaprint_new(Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue)) else {
            throw .fingerprint("Chromaprint: out of memory")
        }
        self.context = context
        let rate = Int(chromaprint_get_sample_rate(context))
        do {
            converter = try SampleConverter(inputRate: sampleRate, inputChannels: channels, outputRate: rate, outputChannels: 1,
                                            settings: Self.fpcalcResampler)
        } catch {
            chromaprint_free(context)
            throw .unsupported("\(error)")
        }
        remainingFrames = Int(seconds * Double(rate))   // fpcalc counts its limit in converted frames
        guard chromaprint_start(context, Int32(rate), 1) == 1 else {
            chromaprint_free(context)
            throw .fingerprint("Chromaprint: cannot start")
        }
    }

    deinit { chromaprint_free(context) }

    /// False once the length has been fed: the caller can stop converting.
    public var wantsMore: Bool { remainingFrames > 0 }

    public func add(_ samples: UnsafeBufferPointer<Float>) throws(AnalysisError) {
        guard wantsMore else { return }
        let converted: [Int16]
        do { converted = try converter.convert(samples) } catch { throw .unsupported("\(error)") }
        feed(converted)
    }

    /// The raw fingerprint (32-bit sub-fingerprints, about 8 per second). The resampler's last few samples
    /// are not fed: fpcalc 1.5.1 with FFmpeg 5 stops at the decoder's end of file without flushing its
    /// converter, and equal fingerprints matter more than 2 ms of a short file's end.
    public func finish() throws(AnalysisError) -> [UInt32] {
        guard chromaprint_finish(context) == 1 else { throw .fingerprint("Chromaprint: cannot finish") }
        var raw: UnsafeMutablePointer<UInt32>?
        var size: Int32 = 0
        guard chromaprint_get_raw_fingerprint(context, &raw, &size) == 1, let raw else {
            throw .fingerprint("Chromaprint: no fingerprint")
        }
        defer { chromaprint_dealloc(raw) }
        return Array(UnsafeBufferPointer(start: raw, count: Int(size)))
    }

    private func feed(_ samples: [Int16]) {
        let count = min(samples.count, remainingFrames)
        guard count > 0 else { return }
        remainingFrames -= count
        samples.withUnsafeBufferPointer { _ = chromaprint_feed(context, $0.baseAddress, Int32(count)) }
    }
}
