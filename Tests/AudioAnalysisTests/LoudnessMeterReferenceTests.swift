import AudioAnalysis
import CEBUR128
import Foundation
import MediaDecode
import Testing

/// `LoudnessMeter` (each sample K-weighted and summed once) against libebur128 1.2.6, the reference it
/// replaced, fed the same decoded samples: integrated loudness, loudness range and album loudness within
/// 0.01 LU, sample peak within 0.01 dB.
@Suite("Loudness meter against libebur128")
struct LoudnessMeterReferenceTests {
    static func dB(_ linear: Double) -> Double { 20 * log10(linear) }

    /// libebur128's state for the same audio, in the modes the analysis used before.
    final class Reference {
        let state: UnsafeMutablePointer<ebur128_state>
        let channels: Int
        init(channels: Int, sampleRate: Int) {
            let mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue
            state = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(mode))!
            self.channels = channels
        }
        deinit { var pointer: UnsafeMutablePointer<ebur128_state>? = state; ebur128_destroy(&pointer) }
        func add(_ samples: UnsafeBufferPointer<Float>) { ebur128_add_frames_float(state, samples.baseAddress!, samples.count / channels) }
        var loudness: Double { var value = 0.0; ebur128_loudness_global(state, &value); return value }
        var range: Double { var value = 0.0; ebur128_loudness_range(state, &value); return value }
        var peak: Double {
            (0..<channels).reduce(0.0) { peak, channel in var value = 0.0; ebur128_sample_peak(state, UInt32(channel), &value); return max(peak, value) }
        }
        static func loudness(of references: [Reference]) -> Double {
            var states: [UnsafeMutablePointer<ebur128_state>?] = references.map(\.state)
            var value = 0.0
            ebur128_loudness_global_multiple(&states, states.count, &value)
            return value
        }
    }

    /// Both meters over `path`'s decoded audio, in the decoder's chunks.
    static func measure(_ path: String) throws -> (LoudnessMeter, Reference) {
        let decoder = try AudioDecoder<Float>(path: path)
        let meter = try LoudnessMeter(channels: decoder.channels, sampleRate: decoder.sampleRate, truePeak: false)
        let reference = Reference(channels: decoder.channels, sampleRate: decoder.sampleRate)
        while let chunk = try decoder.read() {
            chunk.withUnsafeBufferPointer { meter.add($0); reference.add($0) }
        }
        return (meter, reference)
    }

    @Test func agreesWithLibebur128OnTheAccuracyFixtures() throws {
        let fixtures = try AnalysisFixtures()
        let flac = try fixtures.music("a.flac")
        let files = [flac,
                     try fixtures.reencode(flac, "a.mp3", options: ["-b:a", "128k"]),
                     try fixtures.reencode(flac, "a.m4a", options: ["-c:a", "aac", "-b:a", "160k"]),
                     try fixtures.music("b.ogg", seconds: 12, seed: 5, frequency: 523, level: 0.5, extra: ["-c:a", "libvorbis"]),
                     try fixtures.tone("m.flac"),
                     try fixtures.music("short.opus", seconds: 20, seed: 9, extra: ["-c:a", "libopus", "-ar", "48000"]),
                     try fixtures.tone("mono.wav", seconds: 8, frequency: 1000),
                     // A level rising all along: the range's percentiles fall between blocks, so they must be
                     // the same blocks as libebur128's (every second from 3 s, 3 s long).
                     try fixtures.reencode(flac, "ramp.flac", options: ["-af", "volume='0.02+t/16':eval=frame"]),
                     // 5.1, each channel at its own level: the centre, the LFE (weight 0) and the surrounds
                     // (1.41) weighted as libebur128 does.
                     try fixtures.reencode(flac, "surround.flac",
                                           options: ["-af", "pan=5.1|FL=c0|FR=0.5*c1|FC=0.3*c0|LFE=c1|BL=0.7*c0|BR=0.2*c1"]),
                     // Shorter than one gating block (no block: -inf) and than one short-term block (range 0).
                     try fixtures.tone("short.wav", seconds: 0.3),
                     try fixtures.music("two.flac", seconds: 2.5)]
        let measured = try files.map { try Self.measure($0) }
        for (path, (meter, reference)) in zip(files, measured) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            if reference.loudness.isInfinite {
                #expect(meter.integratedLoudness == reference.loudness, "\(name): \(meter.integratedLoudness) vs \(reference.loudness)")
            } else {
                #expect(abs(meter.integratedLoudness - reference.loudness) <= 0.01, "\(name): \(meter.integratedLoudness) vs libebur128 \(reference.loudness)")
            }
            #expect(abs(meter.loudnessRange - reference.range) <= 0.01, "\(name) range \(meter.loudnessRange) vs libebur128 \(reference.range)")
            #expect(abs(Self.dB(meter.peak) - Self.dB(reference.peak)) <= 0.01, "\(name) peak \(meter.peak) vs libebur128 \(reference.peak)")
        }
        let album = LoudnessMeter.integratedLoudness(of: measured.map(\.0))
        let referenceAlbum = Reference.loudness(of: measured.map(\.1))
        #expect(abs(album - referenceAlbum) <= 0.01, "album \(album) vs libebur128 \(referenceAlbum)")
    }

    @Test func silenceIsMinusInfinityLikeLibebur128() throws {
        let meter = try LoudnessMeter(channels: 2, sampleRate: 44100, truePeak: false)
        let reference = Reference(channels: 2, sampleRate: 44100)
        let silence = [Float](repeating: 0, count: 2 * 44100 * 5)
        silence.withUnsafeBufferPointer { meter.add($0); reference.add($0) }
        #expect(meter.integratedLoudness == -.infinity && reference.loudness == -.infinity)
        #expect(meter.loudnessRange == reference.range)
        #expect(meter.peak == 0)
    }
}
