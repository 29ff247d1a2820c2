import Foundation
import MediaModel
import Testing
@testable import Playback

/// Issue 13: ReplayGain tags were indexed but never applied. The gain of `replayGainMode` scales the
/// samples, limited by the peak so that nothing clips.
@Suite("ReplayGain", .serialized)
struct ReplayGainTests {
    /// The output's peak for a tone (ffmpeg's sine: 1/8 of full scale) tagged with `gains`, in `mode`,
    /// as a ratio to the untouched tone's peak.
    func ratio(_ mode: ReplayGainMode, trackGain: Double?, trackPeak: Double?, albumGain: Double? = nil,
               albumPeak: Double? = nil, shuffle: ShuffleMode = .off) async throws -> Double {
        let fixtures = try AudioFixtures()
        var tone = try fixtures.tone("t.wav", seconds: 0.3)
        func peak(_ item: MediaItem, _ mode: ReplayGainMode) async throws -> Int {
            let out = fixtures.path("\(mode)-\(UUID().uuidString).wav")
            let player = MusicPlayer(sink: try WAVFileSink(path: out), seed: 1)
            player.replayGainMode = mode
            player.setQueue(with: [item])
            player.shuffleMode = shuffle
            try await player.playToEnd()
            return try WAVFile(path: out).samples.map { abs(Int($0)) }.max() ?? 0
        }
        let plain = try await peak(tone, .off)
        tone[.replayGainTrackGain] = trackGain.map(MediaValue.real)
        tone[.replayGainTrackPeak] = trackPeak.map(MediaValue.real)
        tone[.replayGainAlbumGain] = albumGain.map(MediaValue.real)
        tone[.replayGainAlbumPeak] = albumPeak.map(MediaValue.real)
        return Double(try await peak(tone, mode)) / Double(plain)
    }

    @Test func trackGainScalesTheSamples() async throws {
        let r = try await ratio(.track, trackGain: -6.0206, trackPeak: 0.125)
        #expect(abs(r - 0.5) < 0.01, "ratio \(r)")
    }

    @Test func albumGainInAlbumModeAndTrackGainWithoutOne() async throws {
        let album = try await ratio(.album, trackGain: -6.0206, trackPeak: 0.125, albumGain: -12.041, albumPeak: 0.125)
        #expect(abs(album - 0.25) < 0.01, "ratio \(album)")
        let fallback = try await ratio(.album, trackGain: -6.0206, trackPeak: 0.125)
        #expect(abs(fallback - 0.5) < 0.01, "ratio \(fallback)")
    }

    /// +24 dB on a tone peaking at 1/8 would clip (×15.8): the peak limits the gain to ×8.
    @Test func thePeakPreventsClipping() async throws {
        let r = try await ratio(.track, trackGain: 24, trackPeak: 0.125)
        #expect(abs(r - 8) < 0.1, "ratio \(r)")
    }

    @Test func offAndAutoModes() async throws {
        let off = try await ratio(.off, trackGain: -6.0206, trackPeak: 0.125)
        #expect(abs(off - 1) < 0.01)
        // auto: album gain when the queue plays in order, track gain when shuffled by songs (as MPD's).
        let inOrder = try await ratio(.auto, trackGain: -6.0206, trackPeak: 0.125, albumGain: -12.041, albumPeak: 0.125)
        #expect(abs(inOrder - 0.25) < 0.01, "ratio \(inOrder)")
        let shuffled = try await ratio(.auto, trackGain: -6.0206, trackPeak: 0.125, albumGain: -12.041, albumPeak: 0.125,
                                       shuffle: .songs)
        #expect(abs(shuffled - 0.5) < 0.01, "ratio \(shuffled)")
    }

    @Test func theFactorRule() {
        var item = MediaItem(path: MediaPath("/x.flac"))
        #expect(ReplayGain.factor(for: item, mode: .track, shuffle: .off) == 1)   // untagged: unchanged
        item[.replayGainTrackGain] = .real(6.0206)
        #expect(abs(ReplayGain.factor(for: item, mode: .track, shuffle: .off) - 2) < 0.001)
        item[.replayGainTrackPeak] = .real(0.8)
        #expect(abs(ReplayGain.factor(for: item, mode: .track, shuffle: .off) - 1.25) < 0.001)
    }
}

/// Issue 28: a file without ReplayGain tags plays at the gain `mlib analyze` measured; tags win when present.
@Suite("ReplayGain from analysis")
struct AnalysedGainTests {
    @Test func theAnalysedGainAppliesWhenTheFileHasNoTags() {
        var item = MediaItem(path: MediaPath("/a.flac"))
        item[.trackGain] = .real(-6.0206)
        item[.trackPeak] = .real(0.1)
        item[.albumGain] = .real(-12.041)
        item[.albumPeak] = .real(0.1)
        #expect(abs(ReplayGain.factor(for: item, mode: .track, shuffle: .off) - 0.5) < 0.001)
        #expect(abs(ReplayGain.factor(for: item, mode: .album, shuffle: .off) - 0.25) < 0.001)
        #expect(ReplayGain.factor(for: item, mode: .off, shuffle: .off) == 1)
        // Clipping prevention with the analysed peak: +12 dB on a peak of 0.5 is limited to 2×.
        item[.trackGain] = .real(12)
        item[.trackPeak] = .real(0.5)
        #expect(abs(ReplayGain.factor(for: item, mode: .track, shuffle: .off) - 2) < 0.001)
        // The file's own tags win.
        item[.replayGainTrackGain] = .real(0)
        #expect(ReplayGain.factor(for: item, mode: .track, shuffle: .off) == 1)
    }
}
