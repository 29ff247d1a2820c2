import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// An Ogg file's bit rate is its audio's: the header pages (OpusHead and OpusTags, the Speex header and its
/// comments, a cover in the tags) are not audio. The whole file over the length inflated the rate of a
/// short file and of any file with a large tag; Speex states its rate in its header (as mutagen reads it).
@Suite(.enabled(if: FLACTailTests.ffmpeg != nil, "ffmpeg missing (scripts/install-deps.sh)"))
struct OggBitRateTests {
    let dir: URL = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-oggrate-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }()

    /// A file of `seconds` of a tone encoded by `codec`, with a 20,000-byte comment.
    func make(_ name: String, seconds: Double, rate: Int, codec: [String]) throws -> MediaPath {
        let out = dir.appendingPathComponent(name).path
        let made = try ChildProcess.run(FLACTailTests.ffmpeg!, ["-v", "error", "-y", "-f", "lavfi", "-i",
                                                                "sine=frequency=440:duration=\(seconds):sample_rate=\(rate)", "-ac", "1"]
                                            + codec + ["-metadata", "comment=" + String(repeating: "x", count: 20_000), out])
        try #require(made.status == 0, "\(made.stderr)")
        return MediaPath(out)
    }

    func bitRate(_ path: MediaPath) throws -> Int64? {
        try MediaProbe.probe(path).item[.bitRate]?.integer
    }

    @Test func opusBitRateLeavesOutTheTagPages() throws {
        let path = try make("tagged.opus", seconds: 1, rate: 48000, codec: ["-c:a", "libopus", "-b:a", "48k"])
        let rate = try #require(try bitRate(path))
        #expect(rate > 30_000 && rate < 70_000, "\(rate) b/s for a 48 kb/s stream")   // the whole file: ~215 kb/s
    }

    @Test func shortOpusBitRateLeavesOutTheHeaderPages() throws {
        let path = try make("short.opus", seconds: 0.1, rate: 48000, codec: ["-c:a", "libopus", "-b:a", "48k"])
        let rate = try #require(try bitRate(path))
        #expect(rate < 120_000, "\(rate) b/s for a 48 kb/s stream")                      // the whole file: ~1.7 Mb/s
    }

    @Test func speexBitRateIsTheHeaders() throws {
        let path = try make("tagged.spx", seconds: 1, rate: 16000, codec: ["-c:a", "libspeex"])
        let rate = try #require(try bitRate(path))
        #expect(rate > 10_000 && rate < 45_000, "\(rate) b/s")                               // the whole file: ~190 kb/s
    }
}
