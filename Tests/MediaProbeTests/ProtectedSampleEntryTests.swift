import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// MP4 tracks whose sample entry says what FFmpeg 5.1 cannot play though it names a codec it knows or none
/// (issue 49): a CENC-encrypted track and Dolby Vision AV1. Each is a media file with the container's length,
/// its streams and its tags, not decodable with the reason, not partial, not "not a media file".
struct ProtectedSampleEntryTests {
    /// A CENC-encrypted AAC track: FFmpeg names it `aac` (from `frma`) and hands the encrypted samples to its
    /// decoder, which decodes nothing. Before: main read it as a decodable AAC file.
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func aCENCEncryptedTrackIsReadAndNotDecodable() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.cencEncryptedAAC(dir)
        #expect(try ReadingRoundThreeFiles.decodedSeconds(url) == 0, "FFmpeg decodes the scrambled samples")
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 0.76) < 0.03, "\(detail): \(r.item.playbackDuration)")
            #expect(r.item.title == "Sealed" && r.item.artist == "Widevine", "\(detail)")
            #expect(r.streams.map(\.kind) == [.audio] && r.streams.first?.codec == "aac", "\(detail): \(r.streams)")
            #expect(r.item[.sampleRate]?.integer == 48000, "\(detail)")
            #expect(!r.isDecodable && r.undecodableReason == "encrypted (cenc)", "\(detail): \(r.undecodableReason ?? "decodable")")
            #expect(r.item[.isDecodable] == .bool(false), "\(detail)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }

    /// Dolby Vision AV1 (`dav1` + `dvvC`): FFmpeg 5.1 has no codec id for the fourcc; the file is read from its
    /// container by the rule for every such codec. This read so on main already (session 15 tests it to hold it).
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func aDolbyVisionAV1VideoIsReadAndNotDecodable() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.dolbyVisionAV1(dir)
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 0.4) < 0.01, "\(detail): \(r.item.playbackDuration)")
            #expect(r.item.title == "Vision", "\(detail)")
            #expect(r.streams.map(\.kind) == [.video] && r.streams.first?.codec == "dav1", "\(detail): \(r.streams)")
            #expect(r.streams.first?.width == 64 && r.streams.first?.height == 64, "\(detail): \(r.streams)")
            #expect(!r.isDecodable && r.undecodableReason == "this FFmpeg cannot decode dav1", "\(detail): \(r.undecodableReason ?? "decodable")")
            #expect(r.item[.isDecodable] == .bool(false), "\(detail)")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }
}
