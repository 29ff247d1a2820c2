import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// An MP4 or Matroska file that holds only text (a subtitle track; issue 49 counts such files among those
/// another reader understands): a media container FFmpeg reads, so it is a media file with the container's
/// length, its streams and its tags, not decodable ("no audio or video stream"), not partial: nothing is
/// missing from it. Before: the MP4 was partial with no length ("no audio the readers can find"), the
/// Matroska file "not a media file".
struct TextOnlyContainerTests {
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"), arguments: [("text.mp4", "mov_text"), ("text.mkv", "subrip")])
    func aFileOfTextAloneIsAnUndecodableMediaFile(name: String, codec: String) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = dir.appendingPathComponent("words.srt"), url = dir.appendingPathComponent(name)
        try "1\n00:00:00,000 --> 00:00:02,000\nHello\n".write(to: srt, atomically: true, encoding: .utf8)
        let p = try ChildProcess.run(UndecodableMedia.requireFFmpeg(), ["-nostdin", "-v", "error", "-y", "-i", srt.path,
                                                                        "-c:s", codec == "subrip" ? "srt" : codec, "-metadata", "title=Words", url.path])
        try #require(p.status == 0, "ffmpeg could not make \(name): \(p.stderr)")
        for detail in ReadingRoundThreeTests.details {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(abs(r.item.playbackDuration - 2) < 0.01, "\(name), \(detail): \(r.item.playbackDuration)")
            #expect(r.streams.map(\.kind) == [.subtitle] && r.streams.first?.codec == codec, "\(name), \(detail): \(r.streams)")
            #expect(r.item.title == "Words", "\(name), \(detail)")
            #expect(!r.isDecodable && r.undecodableReason == "no audio or video stream", "\(name), \(detail): \(r.undecodableReason ?? "decodable")")
            #expect(r.item[.isDecodable] == .bool(false), "\(name), \(detail)")
            #expect(!r.isPartial, "\(name), \(detail): \(r.warnings)")
        }
    }
}
