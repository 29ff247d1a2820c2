import Foundation
@testable import MediaProbe
import MediaDecode
import MediaModel
import Testing
import TestSupport

/// A container FFmpeg reads holding a codec it cannot decode (issue 49: MPEG-H 3D audio, AC-4, 32-bit FLAC
/// in FFmpeg 5.1) is a media file: the container's duration, every stream named (FFmpeg's codec name, else
/// the container's fourcc), the tags, and `decodable: false` with the reason. Before: an AC-4 MP4 was "not a
/// media file (no readable audio or video stream)"; an MPEG-H one read as if it would play.
/// The files: an AAC MP4 made by ffmpeg with its sample entry's fourcc rewritten and its `esds` box renamed
/// (else FFmpeg takes the codec from it), as ffprobe then shows them ("none (ac-4 / 0x342D6361)").
struct UndecodableCodecTests {
    static let ffmpeg = DeclaredDurationTests.ffmpeg

    static func make(_ dir: URL, fourcc: String, config: String) throws -> URL {
        try UndecodableMedia.mp4(in: dir, fourcc: fourcc, config: config)
    }

    /// Also float PCM in MP4 (`fpcm`, ISO 23003-5), IAMF (`iamf`) and DTS-UHD (`dtsx`), which FFmpeg 5.1 names
    /// by their fourcc alone: these read so on main already (session 15 added them here to hold it).
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"),
          arguments: [("ac-4", "dac4", "ac-4"), ("mhm1", "mhaC", "mpegh_3d_audio"), ("fpcm", "pcmC", "fpcm"), ("iamf", "iacb", "iamf"),
                      ("dtsx", "udts", "dtsx")])
    func aCodecFFmpegCannotDecodeIsReadFromItsContainer(fourcc: String, config: String, codec: String) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.make(dir, fourcc: fourcc, config: config)
        for detail in [MediaProbe.Detail.library, .streams] {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 0.76) < 0.03, "\(fourcc), \(detail): \(r.item.playbackDuration)")
            #expect(r.item[.audioCodec]?.text == codec, "\(fourcc), \(detail): \(r.item[.audioCodec].debugDescription)")
            #expect(r.item.title == "Four Sees", "\(fourcc), \(detail)")
            #expect(r.item.artist == "Dolby", "\(fourcc), \(detail)")
            #expect(r.item[.sampleRate]?.integer == 48000, "\(fourcc), \(detail)")
            #expect(!r.isDecodable, "\(fourcc), \(detail)")
            #expect(r.undecodableReason?.contains(codec) == true, "\(fourcc), \(detail): \(r.undecodableReason ?? "none")")
            #expect(!r.isPartial, "\(fourcc), \(detail): \(r.warnings)")
            let json = r.json.serialized()
            #expect(json.contains("\"decodable\":false"), "\(fourcc), \(detail): \(json)")
        }
    }

    /// The 32-bit FLAC of ReadingRoundThreeTests: read whole, and not decodable by FFmpeg 5.1 (libavcodec 59).
    @Test func aThirtyTwoBitFLACIsNotDecodableByThisFFmpeg() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("wide.flac")
        try Data(ReadingRoundThreeFiles.flac32(seconds: 1)).write(to: url)
        for detail in [MediaProbe.Detail.library, .streams] {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            // (FFmpeg 6.1 and later decode it: the rule, not the version, is what is held here.)
            #expect(r.isDecodable == (DecoderLimits.flac(bits: 32) == nil), "\(detail): \(r.undecodableReason ?? "decodable")")
            #expect(abs(r.item.playbackDuration - 1) < 0.001 && !r.isPartial, "\(detail)")
        }
    }

    /// A decodable file says so.
    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func aDecodableFileIsDecodable() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.ffmpeg(dir, "plain.m4a", seconds: 1, ["-c:a", "aac"])
        let r = try MediaProbe.probe(MediaPath(url.path))
        #expect(r.isDecodable && r.undecodableReason == nil)
        #expect(r.json.serialized().contains("\"decodable\":true"))
    }
}
