import CEBUR128

/// EBU R128 loudness of one stream of audio (libebur128): integrated loudness, loudness range, sample
/// peak and, when asked, true peak.
///
/// `@unchecked Sendable` because an album's gain needs every track's meter together
/// (`ebur128_loudness_global_multiple`) while the tracks are measured on different tasks: a meter is
/// filled by the one task that decodes its track and handed over, whole, when that task ends; it is never
/// used by two at once.
public final class LoudnessMeter: @unchecked Sendable {
    let state: UnsafeMutablePointer<ebur128_state>
    public let truePeak: Bool
    public let channels: Int

    public init(channels: Int, sampleRate: Int, truePeak: Bool) throws(AnalysisError) {
        var mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue
        if truePeak { mode |= EBUR128_MODE_TRUE_PEAK.rawValue }
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(mode)) else {
            throw .unsupported("libebur128 cannot measure \(channels) channels at \(sampleRate) Hz")
        }
        self.state = state
        self.truePeak = truePeak
        self.channels = channels
        // A mono file is measured as one channel (not dual mono), as loudgain and ffmpeg's ebur128 filter
        // measure it: their ReplayGain values are what players and taggers already use.
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Adds interleaved frames (`channels` samples each, full scale ±1).
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        ebur128_add_frames_float(state, base, samples.count / channels)
    }

    /// Integrated loudness in LUFS (-inf for silence).
    public var integratedLoudness: Double {
        var value = 0.0
        ebur128_loudness_global(state, &value)
        return value
    }

    /// Loudness range in LU.
    public var loudnessRange: Double {
        var value = 0.0
        ebur128_loudness_range(state, &value)
        return value
    }

    /// The largest sample (or, with `truePeak`, the largest true peak) over the channels, linear (1 = full scale).
    public var peak: Double {
        (0..<channels).reduce(0.0) { peak, channel in
            var value = 0.0
            if truePeak { ebur128_true_peak(state, UInt32(channel), &value) } else { ebur128_sample_peak(state, UInt32(channel), &value) }
            return max(peak, value)
        }
    }

    /// The integrated loudness of several meters' audio taken as one programme: an album's loudness,
    /// gated over all its tracks' blocks together (not the mean of the tracks' loudness).
    public static func integratedLoudness(of meters: [LoudnessMeter]) -> Double {
        var states: [UnsafeMutablePointer<ebur128_state>?] = meters.map(\.state)
        var value = 0.0
        ebur128_loudness_global_multiple(&states, states.count, &value)
        return value
    }
}
