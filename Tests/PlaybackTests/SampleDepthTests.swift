import Foundation
import MediaModel
import Testing
import MediaDecode
@testable import Playback

/// Issue 13: the pipeline was 16-bit, so a 24-bit file lost its low 8 bits on every sink. Samples now
/// travel as 32-bit integers and each sink writes them at the depth it can take: the file's own for a
/// device, the null sink and a WAV file.
@Suite("Output depth above 16 bits", .serialized)
struct SampleDepthTests {
    @Test func a24Bit96kHzFileRendersBitExactThroughTheWAVSink() async throws {
        let fixtures = try AudioFixtures()
        let items = [try fixtures.hiRes("a.flac", seconds: 0.4), try fixtures.hiRes("b.flac", seconds: 0.3)]
        let reference = try items.flatMap { try fixtures.reference24Bit($0) }
        let out = fixtures.path("out.wav")
        let player = MusicPlayer(sink: try SinkSpec.wav(path: out).open(), seed: 1)
        player.setQueue(with: items)
        try await player.playToEnd()

        let wav = try WAVFile(path: out)
        #expect(wav.sampleRate == 96_000 && wav.channels == 2 && wav.bitsPerSample == 24)
        #expect(wav.values.count == reference.count, "\(wav.values.count) samples, ffmpeg decodes \(reference.count)")
        let firstDifference = zip(wav.values, reference).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstDifference == nil, "first difference at sample \(firstDifference?.offset ?? -1)")
        // The low 8 bits are really in use (a 16-bit path would leave them 0).
        #expect(wav.values.filter { $0 & 0xFF != 0 }.count > wav.values.count / 2)
    }

    @Test func volumeScales24BitSamplesWithoutDroppingToSixteenBits() async throws {
        let fixtures = try AudioFixtures()
        let item = try fixtures.hiRes("a.flac", seconds: 0.2)
        let reference = try fixtures.reference24Bit(item)
        let out = fixtures.path("out.wav")
        let player = MusicPlayer(sink: try SinkSpec.wav(path: out).open(), seed: 1)
        player.volume = 0.5
        player.setQueue(with: [item])
        try await player.playToEnd()

        let wav = try WAVFile(path: out)
        #expect(wav.bitsPerSample == 24 && wav.values.count == reference.count)
        let worst = zip(wav.values, reference).map { abs(Double($0) - Double($1) / 2) }.max() ?? .infinity
        #expect(worst <= 0.5, "largest error \(worst) of a 24-bit step")
    }

    @Test func theDecoderReportsTheSourceDepth() throws {
        let fixtures = try AudioFixtures()
        let cases: [(MediaItem, SampleDepth)] = [
            (try fixtures.hiRes("hi.flac", seconds: 0.1), .int24),
            (try fixtures.tone("cd.flac", seconds: 0.1), .int16),
            (try fixtures.tone("cd.wav", seconds: 0.1), .int16),
            (try fixtures.tone("lossy.mp3", seconds: 0.1), .float32),
        ]
        for (item, depth) in cases {
            let decoder = try AudioDecoder(path: item.path, output: .cd)
            #expect(decoder.sourceFormat.depth == depth, "\(item.title ?? "")")
        }
        let hi = try AudioDecoder(path: cases[0].0.path, output: .cd).sourceFormat
        #expect(hi == AudioFormat(sampleRate: 96_000, channels: 2, depth: .int24) && hi.description == "96000:24:2")
    }

    @Test func aDeviceLikeSinkTakesEachItemsDepth() async throws {
        let fixtures = try AudioFixtures()
        let sink = NullSink(realTime: false)
        let player = MusicPlayer(sink: sink, seed: 1)
        let formats = FormatLog()
        player.addObserver { event in
            if case .itemDidEnd = event { formats.append(sink.format) }
        }
        player.setQueue(with: [try fixtures.hiRes("hi.flac", seconds: 0.2), try fixtures.tone("cd.flac", seconds: 0.2)])
        try await player.playToEnd()
        #expect(formats.all == [AudioFormat(sampleRate: 96_000, channels: 2, depth: .int24), .cd])
    }

    @Test func encodingRoundsAndSaturatesAtEachDepth() {
        let samples: [Int32] = [0x0012_3456, -0x0012_3456, Int32.max, Int32.min, 0x7FFF_8000]
        #expect(signedLittleEndian(SampleDepth.int16.encode(samples), bytesPerSample: 2)
                == [0x0012, -0x0012, 32767, -32768, 32767])
        #expect(signedLittleEndian(SampleDepth.int24.encode(samples), bytesPerSample: 3)
                == [0x1234, -0x1234, 8_388_607, -8_388_608, 0x7FFF80])
        #expect(signedLittleEndian(SampleDepth.int32.encode(samples), bytesPerSample: 4) == samples)
        let floats = SampleDepth.float32.encode([Int32.min, 1 << 30]).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats == [-1, 0.5])
    }
}

final class FormatLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AudioFormat] = []
    var all: [AudioFormat] { lock.withLock { stored } }
    func append(_ format: AudioFormat) { lock.withLock { stored.append(format) } }
}
