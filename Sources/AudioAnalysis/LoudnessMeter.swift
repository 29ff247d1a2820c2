/// EBU R128 loudness of one stream of audio: integrated loudness, loudness range, sample peak and, when
/// asked, true peak. The loudness and the sample peak are `KWeightedLoudness`'s (each sample filtered and
/// summed once); the true peak, when asked, is `TruePeakMeter`'s (libebur128's polyphase 4× oversampling, as
/// loudgain and rsgain measure it, with the same coefficients).
///
/// `@unchecked Sendable` because an album's gain needs every track's meter together
/// (`integratedLoudness(of:)`) while the tracks are measured on different tasks: a meter is filled by the
/// one task that decodes its track and handed over, whole, when that task ends; it is never used by two at once.
public final class LoudnessMeter: @unchecked Sendable {
    private var loudness: KWeightedLoudness
    /// Only when `truePeak` is asked.
    private var truePeakMeter: TruePeakMeter?
    public let truePeak: Bool
    public let channels: Int

    public init(channels: Int, sampleRate: Int, truePeak: Bool) throws(AnalysisError) {
        // libebur128's limits, kept so that the same files are refused.
        guard channels > 0, channels <= 64, sampleRate >= 16, sampleRate <= 2_822_400 else {
            throw .unsupported("cannot measure \(channels) channels at \(sampleRate) Hz")
        }
        truePeakMeter = truePeak ? TruePeakMeter(channels: channels, sampleRate: sampleRate) : nil
        loudness = KWeightedLoudness(channels: channels, sampleRate: sampleRate)
        self.truePeak = truePeak
        self.channels = channels
        // A mono file is measured as one channel (not dual mono), as loudgain and ffmpeg's ebur128 filter
        // measure it: their ReplayGain values are what players and taggers already use.
    }

    /// Adds interleaved frames (`channels` samples each, full scale ±1).
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        loudness.add(samples)
        truePeakMeter?.add(samples)
    }

    /// Integrated loudness in LUFS (-inf for silence).
    public var integratedLoudness: Double { loudness.integratedLoudness }

    /// Loudness range in LU.
    public var loudnessRange: Double { loudness.loudnessRange }

    /// The largest sample (or, with `truePeak`, the largest true peak) over the channels, linear (1 = full scale).
    public var peak: Double {
        truePeakMeter?.peak ?? Double(loudness.samplePeak)
    }

    /// The integrated loudness of several meters' audio taken as one programme: an album's loudness,
    /// gated over all its tracks' blocks together (not the mean of the tracks' loudness), as
    /// `ebur128_loudness_global_multiple`.
    public static func integratedLoudness(of meters: [LoudnessMeter]) -> Double {
        KWeightedLoudness.integratedLoudness(ofBlocks: meters.map(\.loudness.gatingBlocks))
    }
}
