import Foundation
import MediaModel
import Testing
@testable import Playback

/// Issue 13: AAC in MP4 kept its encoder padding at the end of each item (FFmpeg 5.1's mov demuxer drops
/// the priming samples but not the padding the edit list cuts off), so an album of .m4a files had
/// ~20 ms of silence between tracks. The decoder stops at the edit list's duration.
@Suite("AAC in MP4 is gapless", .serialized)
struct AACGaplessTests {
    @Test func twoAACItemsPlayExactlyTheirLength() async throws {
        let fixtures = try AudioFixtures()
        let items = [try fixtures.tone("one.m4a", seconds: 1.0), try fixtures.tone("two.m4a", seconds: 0.5, frequency: 660)]
        let out = fixtures.path("out.wav")
        let player = MusicPlayer(sink: try WAVFileSink(path: out), seed: 1)
        player.setQueue(with: items)
        try await player.playToEnd()
        let wav = try WAVFile(path: out)
        let frames = wav.frameCount
        var run = 0, longest = 0
        for f in 0..<frames {
            run = (wav.samples[2 * f] == 0 && wav.samples[2 * f + 1] == 0) ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest <= 2, "silent run of \(longest) frames")
        // 1.5 s at 44.1 kHz; before the fix 45,056 + 23,552 = 68,608 (1,024-sample packets, padding kept).
        #expect(abs(frames - 66_150) <= 2, "\(frames) frames")
    }
}
