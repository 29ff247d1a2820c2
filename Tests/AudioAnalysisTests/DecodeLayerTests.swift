import Foundation
import MediaDecode
import Testing

/// MediaDecode's interface beyond what the player uses: other sample types, the source's format kept,
/// resampling and downmixing on request, and the decode limit.
@Suite("MediaDecode")
struct DecodeLayerTests {
    @Test func floatsAtTheSourceFormatAndInt16AtARequestedOneWithALimit() throws {
        let fixtures = try AnalysisFixtures()
        let path = try fixtures.music("a.flac", seconds: 5)   // stereo, 44.1 kHz

        let source = try AudioDecoder<Float>(path: path)
        #expect(source.sampleRate == 44_100 && source.channels == 2 && source.sourceChannels == 2)
        var frames = 0
        var peak: Float = 0
        while let chunk = try source.read() {
            frames += chunk.count / 2
            peak = max(peak, chunk.map(abs).max() ?? 0)
        }
        #expect(frames == 5 * 44_100)
        #expect(peak > 0.05 && peak <= 1)

        let limited = try AudioDecoder<Int16>(path: path, sampleRate: 11_025, channels: 1, limit: 2)
        #expect(limited.sampleRate == 11_025 && limited.channels == 1)
        var count = 0
        while let chunk = try limited.read() { count += chunk.count }
        #expect(abs(count - 2 * 11_025) <= 64, "\(count) samples for 2 s at 11,025 Hz")
        #expect(abs(limited.position - 2) < 0.01)
    }

    @Test func aFileWithoutAudioIsADecodeErrorWithItsPath() throws {
        let fixtures = try AnalysisFixtures()
        let path = fixtures.directory.appendingPathComponent("not-audio.mp3").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect { try AudioDecoder<Float>(path: path) } throws: { ($0 as? DecodeError)?.path == path }
    }
}
