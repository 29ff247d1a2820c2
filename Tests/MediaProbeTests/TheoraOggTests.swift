import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// Issue 49: Theora in Ogg (`.ogv`), made by ffmpeg's libtheora. Before: no frame rate (FFmpeg's header-only
/// open sets none; ffprobe's 25/1 comes from decoding), and with a Vorbis stream beside the video the file was
/// flagged partial, "TagLib could not read this file" (TagLib's Ogg classes read only a first stream of audio).
struct TheoraOggTests {
    @Test(.enabled(if: UndecodableMedia.ffmpeg != nil, "ffmpeg is not installed"), arguments: [false, true])
    func anOgvHasItsFrameRateAndIsWhole(withAudio: Bool) throws {
        let dir = try ReadingRoundThreeFiles.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(withAudio ? "av.ogv" : "video.ogv")
        let audio = withAudio ? ["-f", "lavfi", "-i", "sine=d=2:r=44100", "-c:a", "libvorbis"] : []
        let p = try ChildProcess.run(UndecodableMedia.ffmpeg!, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=d=2:s=160x120:r=25"]
                                     + audio + ["-c:v", "libtheora", "-metadata", "title=Moving", "-shortest", url.path])
        try #require(p.status == 0, "ffmpeg could not make an .ogv: \(p.stderr)")
        for detail in [MediaProbe.Detail.library, .streams] {
            let r = try MediaProbe.probe(MediaPath(url.path), detail: detail)
            #expect(r.item[.frameRate]?.real == 25, "\(url.lastPathComponent), \(detail): \(r.item[.frameRate].debugDescription)")
            #expect(r.item[.videoCodec] == .text("theora") && r.item[.width] == .integer(160))
            #expect(abs(r.item.playbackDuration - 2) < 0.05, "\(detail): \(r.item.playbackDuration)")
            #expect(!r.isPartial, "\(url.lastPathComponent), \(detail): \(r.warnings)")
            #expect(r.item.title == "Moving", "\(url.lastPathComponent), \(detail)")
            if withAudio { #expect(r.item[.audioCodec] == .text("vorbis"), "\(detail)") }
        }
    }
}
