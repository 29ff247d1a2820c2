import Foundation
import MediaModel
import Testing
import MediaDecode
@testable import Playback

@Suite("AudioDecoder")
struct DecoderTests {
    @Test(arguments: [("a.flac", 44_100, 2), ("b.mp3", 44_100, 2), ("c.wav", 44_100, 1), ("d.flac", 48_000, 1),
                      ("e.wav", 22_050, 2), ("f.ogg", 48_000, 2)])
    func decodesExactlyWhatFFmpegDecodes(name: String, rate: Int, channels: Int) throws {
        let fixtures = try AudioFixtures()
        let item = try fixtures.tone(name, seconds: 0.8, sampleRate: rate, channels: channels)
        let decoder = try AudioDecoder(path: item.path, output: .cd)
        var frames = 0
        while let chunk = try decoder.read() { frames += chunk.count / 2 }
        #expect(frames == (try fixtures.referenceFrames(item)))
        #expect(abs(decoder.position - Double(frames) / 44_100) < 1e-9)
        #expect(decoder.duration.map { abs($0 - 0.8) < 0.05 } == true)
    }
}
