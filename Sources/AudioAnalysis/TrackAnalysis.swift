/// What one decode pass over a file tells: its EBU R128 loudness, the ReplayGain 2.0 values derived from
/// it, and its Chromaprint fingerprint.
public struct TrackAnalysis: Sendable, Hashable {
    /// Integrated loudness, LUFS.
    public var loudness: Double
    /// Loudness range, LU.
    public var loudnessRange: Double
    /// Sample peak (true peak when measured so), linear: 1 is full scale.
    public var peak: Double
    /// Whether `peak` is a true peak (`--true-peak`).
    public var truePeak: Bool
    /// Chromaprint's raw fingerprint of the first 120 s (default algorithm).
    public var fingerprint: [UInt32]
    /// Seconds of audio decoded.
    public var duration: Double

    /// ReplayGain 2.0's reference loudness: a track is brought to -18 LUFS.
    public static let referenceLoudness = -18.0

    /// The gain in dB that brings the track to the reference loudness (nil for digital silence).
    public var trackGain: Double? { Self.gain(forLoudness: loudness) }

    public static func gain(forLoudness loudness: Double) -> Double? {
        loudness.isFinite ? referenceLoudness - loudness : nil
    }

    public init(loudness: Double, loudnessRange: Double, peak: Double, truePeak: Bool, fingerprint: [UInt32], duration: Double) {
        self.loudness = loudness
        self.loudnessRange = loudnessRange
        self.peak = peak
        self.truePeak = truePeak
        self.fingerprint = fingerprint
        self.duration = duration
    }
}
