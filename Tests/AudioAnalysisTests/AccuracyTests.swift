import AudioAnalysis
import Foundation
import Testing

/// The one-pass analysis against the reference tools on the same files: loudgain (ReplayGain 2.0),
/// ffmpeg's ebur128 filter, and fpcalc.
@Suite("Analysis accuracy")
struct AccuracyTests {
    static func dB(_ linear: Double) -> Double { 20 * log10(linear) }

    @Test func trackAndAlbumGainMatchLoudgainAndFFmpeg() throws {
        let fixtures = try AnalysisFixtures()
        let flac = try fixtures.music("a.flac")
        let files = [flac,
                     try fixtures.reencode(flac, "a.mp3", options: ["-b:a", "128k"]),
                     try fixtures.music("b.ogg", seconds: 12, seed: 5, frequency: 523, level: 0.5, extra: ["-c:a", "libvorbis"]),
                     try fixtures.tone("m.flac")]
        let measured = try files.map { try TrackAnalyzer.analyze(path: $0, truePeak: true) }
        let reference = try AnalysisFixtures.loudgain(files)
        #expect(reference.count == files.count + 1)
        for (index, (analysis, _)) in measured.enumerated() {
            let name = URL(fileURLWithPath: files[index]).lastPathComponent
            #expect(abs(analysis.loudness - reference[index].loudness) <= 0.1, "\(name): \(analysis.loudness) vs loudgain \(reference[index].loudness)")
            #expect(abs(analysis.trackGain! - reference[index].gain) <= 0.1, "\(name) gain")
            #expect(abs(Self.dB(analysis.peak) - Self.dB(reference[index].peak)) <= 0.1, "\(name) true peak \(analysis.peak) vs \(reference[index].peak)")
            let filter = try AnalysisFixtures.ebur128Filter(files[index])
            #expect(abs(analysis.loudness - filter.loudness) <= 0.1, "\(name): \(analysis.loudness) vs ebur128 \(filter.loudness)")
            #expect(abs(analysis.loudnessRange - filter.range) <= 0.1, "\(name) range \(analysis.loudnessRange) vs \(filter.range)")
            #expect(abs(Self.dB(analysis.peak) - filter.truePeak) <= 0.1, "\(name) true peak vs ebur128 \(filter.truePeak)")
        }
        let albumLoudness = LoudnessMeter.integratedLoudness(of: measured.map(\.1))
        let album = reference[files.count]
        #expect(abs(albumLoudness - album.loudness) <= 0.1, "album \(albumLoudness) vs loudgain \(album.loudness)")
        #expect(abs(TrackAnalysis.gain(forLoudness: albumLoudness)! - album.gain) <= 0.1)
    }

    @Test func samplePeakMatchesFFmpeg() throws {
        let fixtures = try AnalysisFixtures()
        let flac = try fixtures.music("a.flac")
        for path in [flac, try fixtures.reencode(flac, "a.m4a", options: ["-c:a", "aac", "-b:a", "160k"])] {
            let (analysis, _) = try TrackAnalyzer.analyze(path: path)
            let filter = try AnalysisFixtures.ebur128Filter(path)
            #expect(!analysis.truePeak)
            #expect(abs(Self.dB(analysis.peak) - filter.samplePeak) <= 0.1, "\(path): \(Self.dB(analysis.peak)) vs \(filter.samplePeak)")
            #expect(abs(analysis.loudness - filter.loudness) <= 0.1)
        }
    }

    @Test func fingerprintsEqualFpcalc() throws {
        let fixtures = try AnalysisFixtures()
        let flac = try fixtures.music("long.flac", seconds: 130)   // past fpcalc's 120 s
        let mp3 = try fixtures.reencode(flac, "long.mp3", options: ["-b:a", "192k"])
        let files = [flac, mp3, try fixtures.reencode(mp3, "long-f32.wav", options: ["-c:a", "pcm_f32le"]),
                     try fixtures.reencode(mp3, "long-f32p.caf", options: ["-c:a", "pcm_f32le"]),
                     try fixtures.music("short.opus", seconds: 20, seed: 9, extra: ["-c:a", "libopus", "-ar", "48000"]),
                     try fixtures.tone("mono.wav", seconds: 8, frequency: 1000)]
        for path in files {
            let (analysis, _) = try TrackAnalyzer.analyze(path: path)
            let reference = try AnalysisFixtures.fpcalc(path)
            #expect(!reference.isEmpty)
            let differing = zip(analysis.fingerprint, reference).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(analysis.fingerprint.count == reference.count && differing.isEmpty,
                    "\(path): \(analysis.fingerprint.count) vs fpcalc \(reference.count) values, differing at \(differing.prefix(10))")
        }
    }
}
