import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// An HEVC MP4 whose first frames carry an SEI message of a payload type H.265 does not define (issue 49: such a
/// file read 0.13 s and partial where it decodes to 0.39 s and its container says 0.439 s). Made here, it reads
/// as long as its container says and FFmpeg decodes (0.44 s, 11 frames), whole, already before the test was
/// written (HEVC in MP4 is read as on main): the issue's file is not reproduced; the test holds the read.
struct HEVCUnknownSEITests {
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"))
    func anUnknownSEIInTheFirstFramesDoesNotShortenTheVideo() throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try ReadingRoundThreeFiles.hevcWithUnknownSEI(dir)
        let marker: [UInt8] = [39 << 1, 1, 77, 7, 0, 0, 3, 1]            // the SEI, escaped, is in the samples
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect((0...(bytes.count - marker.count)).filter { bytes[$0..<$0 + marker.count].elementsEqual(marker) }.count == 3)
        #expect(try ReadingRoundThreeFiles.decodedFrames(url) == 11, "FFmpeg decodes all 11 frames")
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 0.44) < 0.001, "\(detail): \(r.item.playbackDuration)")
            #expect(r.streams.first?.codec == "hevc" && r.streams.first?.width == 64, "\(detail): \(r.streams)")
            #expect(r.item.title == "Unknown SEI", "\(detail)")
            #expect(r.isDecodable, "\(detail): \(r.undecodableReason ?? "")")
            #expect(!r.isPartial, "\(detail): \(r.warnings)")
        }
    }
}
