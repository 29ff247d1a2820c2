import Foundation
import Testing
import TestSupport

/// MPD `readcomments` carries `LYRICS` (issue 41): a lyrics tag as one `LYRICS:` line per line of text (a
/// value cannot hold a line break), and for a song whose lyrics are only in a sidecar .lrc, the set the scan
/// stored, as LRC (times kept), as `mlib lyrics --lrc` prints it.
@Suite(.serialized) struct ReadcommentsLyricsTests {
    @Test func lyricsTagAndSidecarAreCarried() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let long = library.music.appendingPathComponent("Long")
        let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=3", "-metadata", "title=Sung",
                                      "-metadata", "LYRICS=First line\nSecond line", long.appendingPathComponent("sung.flac").path])
        #expect(made.status == 0, "\(made.err)")
        #expect(try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=3", long.appendingPathComponent("side.flac").path]).status == 0)
        try Data("[00:00.50]Side one\n[00:01.25]Side two\n".utf8).write(to: long.appendingPathComponent("side.lrc"))
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)

        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let sung = try client.command("readcomments Long/sung.flac")
        #expect(sung.filter { $0.hasPrefix("LYRICS: ") } == ["LYRICS: First line", "LYRICS: Second line"], "\(sung)")
        #expect(sung.contains("TITLE: Sung") && sung.last == "OK", "\(sung)")
        let side = try client.command("readcomments Long/side.flac")
        #expect(side.filter { $0.hasPrefix("LYRICS: ") } == ["LYRICS: [00:00.500]Side one", "LYRICS: [00:01.250]Side two"], "\(side)")
        // A song with no lyrics anywhere has none.
        #expect(try client.command("readcomments Long/tone1.flac").allSatisfy { !$0.hasPrefix("LYRICS") })
    }
}
