import Foundation
import MediaModel
import Testing
@testable import Playback

/// Issue 13: output was fixed at 44.1 kHz stereo, so a 48 kHz or 96 kHz file was resampled. A sink that
/// can take another rate (a device, the null sink) is switched to each file's rate and channel count;
/// a WAV file takes the first item's, a PCM pipe keeps its one format.
@Suite("The sink takes the file's rate", .serialized)
struct SinkRateTests {
    @Test func aSinkThatAllowsItPlaysEachFileAtItsOwnRate() async throws {
        let fixtures = try AudioFixtures()
        let items = [try fixtures.tone("hi.flac", seconds: 0.5, sampleRate: 48_000, channels: 1),
                     try fixtures.tone("lo.wav", seconds: 0.25, sampleRate: 22_050)]
        let sink = NullSink(realTime: false)
        let player = MusicPlayer(sink: sink, seed: 1)
        player.setQueue(with: items)
        try await player.playToEnd()
        // 0.5 s at 48 kHz + 0.25 s at 22.05 kHz, not 0.75 s at 44.1 kHz (33,075 frames).
        #expect(abs(sink.frameCount - (24_000 + 5_512)) <= 2, "\(sink.frameCount) frames")
        #expect(sink.format == AudioFormat(sampleRate: 22_050, channels: 2))
    }

    @Test func aWAVFileTakesTheFirstItemsFormatAndKeepsIt() async throws {
        let fixtures = try AudioFixtures()
        let out = fixtures.path("out.wav")
        let player = MusicPlayer(sink: try WAVFileSink(path: out), seed: 1)
        player.setQueue(with: [try fixtures.tone("hi.flac", seconds: 0.5, sampleRate: 48_000, channels: 1),
                               try fixtures.tone("lo.wav", seconds: 0.25, sampleRate: 22_050)])
        try await player.playToEnd()
        let wav = try WAVFile(path: out)
        // One file, one format: the second item is converted to 48 kHz mono.
        #expect(wav.sampleRate == 48_000 && wav.channels == 1 && wav.bitsPerSample == 16)
        #expect(abs(wav.frameCount - (24_000 + 12_000)) <= 2, "\(wav.frameCount) frames")
    }

    @Test func aWAVFileOpenedWithAFormatKeepsIt() async throws {
        let fixtures = try AudioFixtures()
        let out = fixtures.path("out.wav")
        let player = MusicPlayer(sink: try WAVFileSink(path: out, format: .cd), seed: 1)
        player.setQueue(with: [try fixtures.hiRes("hi.flac", seconds: 0.5, sampleRate: 48_000)])
        try await player.playToEnd()
        let wav = try WAVFile(path: out)
        #expect(wav.sampleRate == 44_100 && wav.channels == 2 && wav.bitsPerSample == 16 && wav.frameCount == 22_050)
    }
}
