import Foundation
import MediaModel
import MediaProbe
import Testing

/// `fileType` is the clean type queries, `stats` and `ls` use: FFmpeg's `mov,mp4,m4a,3gp,3g2,mj2` is an
/// m4a for audio and an mp4 for video, an Ogg stream of Opus is opus, and the content decides over the name.
struct FileTypeTests {
    @Test(arguments: [
        ("mp3-id3v24.mp3", "mp3"), ("flac-vorbis-cover.flac", "flac"), ("ogg-vorbis.ogg", "ogg"), ("opus.opus", "opus"),
        ("m4a-aac-cover.m4a", "m4a"), ("m4a-alac.m4a", "m4a"), ("video-h264-aac.mp4", "mp4"),
        ("video-mpeg4-opus.mkv", "mkv"), ("wav-riff-info.wav", "wav"), ("aiff-id3.aiff", "aiff"),
        ("wavpack-ape.wv", "wv"), ("bad/ogg-named.mp3", "ogg"), ("odd/mp3-tag-only.mp3", "mp3"),
    ])
    func fileTypeIsClean(_ file: String, _ type: String) throws {
        let path = MediaPath(FixtureTests.fixtures.appendingPathComponent(file).path)
        for detail in [MediaProbe.Detail.streams, .library] {
            let item = try MediaProbe.probe(path, detail: detail).item
            #expect(item[.fileType]?.text == type, "\(file) (\(detail))")
        }
    }
}
