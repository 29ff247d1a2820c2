import AudioAnalysis
import CEBUR128
import Foundation
import MediaDecode
import Testing

/// `TruePeakMeter` (libebur128's interpolator in Swift, SIMD, skipping chunks that cannot raise the peak)
/// against libebur128 1.2.6 in `EBUR128_MODE_TRUE_PEAK`, the measurer it replaced, fed the same samples in
/// the same blocks: the peak (largest over the channels) within 0.01 dB, on signals made to have peaks
/// between the samples and on the analysis fixtures.
@Suite("True peak against libebur128")
struct TruePeakReferenceTests {
    static func dB(_ linear: Double) -> Double { 20 * log10(linear) }

    /// libebur128 in true-peak mode.
    final class Reference {
        let state: UnsafeMutablePointer<ebur128_state>
        let channels: Int
        init(channels: Int, sampleRate: Int) {
            state = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(EBUR128_MODE_TRUE_PEAK.rawValue))!
            self.channels = channels
        }
        deinit { var pointer: UnsafeMutablePointer<ebur128_state>? = state; ebur128_destroy(&pointer) }
        func add(_ samples: UnsafeBufferPointer<Float>) { ebur128_add_frames_float(state, samples.baseAddress!, samples.count / channels) }
        var peak: Double {
            (0..<channels).reduce(0.0) { peak, channel in var value = 0.0; ebur128_true_peak(state, UInt32(channel), &value); return max(peak, value) }
        }
    }

    /// Both measurers over interleaved `samples`, in blocks of `block` frames (odd sizes too, so that
    /// blocks end inside a chunk of 8), and `LoudnessMeter`'s peak with `truePeak`.
    static func check(_ name: String, _ samples: [Float], channels: Int, sampleRate: Int = 44100, block: Int = 4096,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        var meter = TruePeakMeter(channels: channels, sampleRate: sampleRate)
        let loudness = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: true)
        let reference = Reference(channels: channels, sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + block * channels)
                let part = UnsafeBufferPointer(rebasing: all[start..<end])
                meter.add(part); loudness.add(part); reference.add(part)
                start = end
            }
        }
        let expected = reference.peak
        #expect(meter.peak == expected || abs(dB(meter.peak) - dB(expected)) <= 0.01,
                "\(name): \(meter.peak) (\(dB(meter.peak)) dB) vs libebur128 \(expected) (\(dB(expected)) dB)", sourceLocation: sourceLocation)
        #expect(loudness.peak == expected || abs(dB(loudness.peak) - dB(expected)) <= 0.01, "\(name): LoudnessMeter \(loudness.peak) vs libebur128 \(expected)",
                sourceLocation: sourceLocation)
        let total = meter.oversampledFrames + meter.skippedFrames
        print("\(name): true peak \(meter.peak) (libebur128 \(expected)); oversampled \(meter.oversampledFrames) of \(total) frames")
    }

    /// A sine at `rate` (cycles per sample) and `phase`, `amplitude`, `frames` long, in channel `channel` of `channels`.
    static func sine(frames: Int, rate: Double, phase: Double, amplitude: Float = 1) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * .pi * rate * Double($0) + phase)) }
    }

    static func interleave(_ channels: [[Float]]) -> [Float] {
        var out = [Float](repeating: 0, count: channels.count * channels[0].count)
        for (c, channel) in channels.enumerated() { for (i, x) in channel.enumerated() { out[i * channels.count + c] = x } }
        return out
    }

    /// Reproducible noise in ±`amplitude` (a linear congruential generator: no seedable one in the standard library).
    static func noise(frames: Int, amplitude: Float, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return amplitude * (Float(state >> 40) / Float(1 << 24) * 2 - 1)
        }
    }

    @Test func agreesOnSignalsWithPeaksBetweenTheSamples() throws {
        let n = 44100 * 3
        // fs/4 at 45°: every sample is ±0.707, the wave between them reaches 1 (+3 dB).
        try Self.check("fs/4 sine, 45°", Self.sine(frames: n, rate: 0.25, phase: .pi / 4), channels: 1)
        try Self.check("fs/4 sine, 30°, stereo, odd blocks",
                       Self.interleave([Self.sine(frames: n, rate: 0.25, phase: .pi / 6, amplitude: 0.9),
                                        Self.sine(frames: n, rate: 0.25, phase: .pi / 5, amplitude: 0.5)]), channels: 2, block: 1001)
        // Full-scale squares: the overshoot (Gibbs) at each edge.
        for period in [6, 10, 37] {
            let square = (0..<n).map { Float(($0 / (period / 2)) % 2 == 0 ? 1 : -1) }
            try Self.check("square, period \(period)", Self.interleave([square, square.map { -$0 * 0.5 }]), channels: 2, block: 777)
        }
        // Noise pushed three times past full scale and clipped.
        try Self.check("clipped noise", Self.noise(frames: 2 * n, amplitude: 3, seed: 7).map { max(-1, min(1, $0)) }, channels: 2)
        // Quiet, then one loud fs/4 burst in the last frames (ending inside a chunk of 8): the running peak is
        // low all along, then every chunk near the burst must be oversampled.
        var quiet = Self.noise(frames: n, amplitude: 0.01, seed: 3)
        let burst = Self.sine(frames: 13, rate: 0.25, phase: .pi / 4, amplitude: 0.95)
        quiet.replaceSubrange(n - 13..<n, with: burst)
        try Self.check("quiet, a burst at the end", quiet, channels: 1, block: 4095)
        // 5.1: each channel its own signal, the burst in the last one only.
        let surround = [Self.noise(frames: n, amplitude: 0.3, seed: 11), Self.sine(frames: n, rate: 0.25, phase: 0.3, amplitude: 0.4),
                        Self.sine(frames: n, rate: 0.13, phase: 1, amplitude: 0.2), Self.noise(frames: n, amplitude: 0.1, seed: 12),
                        Self.noise(frames: n, amplitude: 0.2, seed: 13), quiet]
        try Self.check("5.1", Self.interleave(surround), channels: 6, block: 1234)
        // 2× at 96 kHz, none at 192 kHz (the sample peak), as libebur128.
        try Self.check("fs/4 sine at 96 kHz", Self.sine(frames: n, rate: 0.25, phase: .pi / 4), channels: 1, sampleRate: 96000)
        try Self.check("clipped noise at 96 kHz", Self.noise(frames: n, amplitude: 2, seed: 5).map { max(-1, min(1, $0)) },
                       channels: 2, sampleRate: 96000, block: 999)
        try Self.check("fs/4 sine at 192 kHz", Self.sine(frames: n, rate: 0.25, phase: .pi / 4), channels: 1, sampleRate: 192000)
        try Self.check("silence", [Float](repeating: 0, count: 2 * 1000), channels: 2)
    }

    @Test func agreesOnTheAnalysisFixtures() throws {
        let fixtures = try AnalysisFixtures()
        let flac = try fixtures.music("a.flac")
        let files = [flac,
                     try fixtures.reencode(flac, "a.mp3", options: ["-b:a", "128k"]),
                     try fixtures.reencode(flac, "a.m4a", options: ["-c:a", "aac", "-b:a", "160k"]),
                     try fixtures.music("b.ogg", seconds: 12, seed: 5, frequency: 523, level: 0.5, extra: ["-c:a", "libvorbis"]),
                     try fixtures.tone("m.flac"),
                     try fixtures.music("short.opus", seconds: 20, seed: 9, extra: ["-c:a", "libopus", "-ar", "48000"]),
                     // Loud enough to clip, so that the true peak is above the sample peak.
                     try fixtures.reencode(flac, "loud.flac", options: ["-af", "volume=6"]),
                     try fixtures.reencode(flac, "surround.flac",
                                           options: ["-af", "pan=5.1|FL=c0|FR=0.5*c1|FC=0.3*c0|LFE=c1|BL=0.7*c0|BR=0.2*c1"]),
                     try fixtures.tone("short.wav", seconds: 0.3)]
        for path in files {
            let decoder = try AudioDecoder<Float>(path: path)
            var samples: [Float] = []
            while let chunk = try decoder.read() { samples += chunk }
            try Self.check(URL(fileURLWithPath: path).lastPathComponent, samples, channels: decoder.channels, sampleRate: decoder.sampleRate)
        }
    }
}
