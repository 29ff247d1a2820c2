import Foundation
import MediaModel
import Testing
@testable import Playlists

/// Files as other programs write them.
@Suite struct ReaderTests {
    let base = MediaPath("/lists")

    func read(_ text: String, _ format: PlaylistFormat) throws -> PlaylistDocument {
        try PlaylistReader.read(Array(text.utf8), format: format, base: base)
    }

    @Test func m3uWithBOMAndCRLFAndMixedLocations() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:123,Artist - Title\r\nrel/a b.mp3\r\n\r\n# a comment\r\n"
            + "/abs/c.flac\r\nfile:///u/caf%C3%A9%20x.ogg\r\nFILE://localhost/y.mp3\r\nhttp://radio.example/stream\r\n"
            + "../up.mp3\r\n#EXTINF:-1 tvg-name=\"a,b\",IPTV, Title\r\nz.mp3"
        let doc = try read(text, .m3u)
        #expect(doc.entries.map(\.location) == [
            .file(MediaPath("/lists/rel/a b.mp3")), .file(MediaPath("/abs/c.flac")), .file(MediaPath("/u/café x.ogg")),
            .file(MediaPath("/y.mp3")), .remote("http://radio.example/stream"), .file(MediaPath("/up.mp3")),
            .file(MediaPath("/lists/z.mp3")),
        ])
        #expect(doc.entries[0].title == "Artist - Title")
        #expect(doc.entries[0].duration == 123)
        #expect(doc.entries[1].title == nil)
        #expect(doc.entries[6].title == "IPTV, Title")
        #expect(doc.entries[6].duration == nil)
    }

    @Test func plainM3UWithoutHeader() throws {
        #expect(try read("a.mp3\nb.mp3\n", .m3u).entries.map(\.path) == [MediaPath("/lists/a.mp3"), MediaPath("/lists/b.mp3")])
    }

    @Test func plsInAnyOrderAndCase() throws {
        let text = "[Playlist]\r\nnumberofentries=2\r\nFile2=http://x/s\r\nTitle1=One\r\nfile1=one.mp3\r\nLength1=61\r\nVersion=2\r\n"
        let doc = try read(text, .pls)
        #expect(doc.entries.map(\.location) == [.file(MediaPath("/lists/one.mp3")), .remote("http://x/s")])
        #expect(doc.entries[0].title == "One")
        #expect(doc.entries[0].duration == 61)
    }

    @Test func xspfWithRelativeReferencesAndOtherElements() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
              <title>Road &amp; Trip</title>
              <trackList>
                <track><location>sub/a%20%26%20b.flac</location><location>ignored</location>
                  <title>A &amp; B</title><creator>C</creator><album>D</album><duration>1500</duration>
                  <extension application="x"><title>not this</title></extension></track>
                <track><title>no location</title></track>
                <track><location>file:///abs/x.mp3</location></track>
              </trackList>
            </playlist>
            """
        let doc = try read(text, .xspf)
        #expect(doc.title == "Road & Trip")
        #expect(doc.entries.map(\.location) == [.file(MediaPath("/lists/sub/a & b.flac")), .file(MediaPath("/abs/x.mp3"))])
        #expect(doc.entries[0].title == "A & B")
        #expect(doc.entries[0].artist == "C")
        #expect(doc.entries[0].album == "D")
        #expect(doc.entries[0].duration == 1.5)
    }

    @Test func jspfWithStringOrArrayLocation() throws {
        let text = #"{"playlist":{"title":"T","track":[{"location":["file:///a.mp3"],"duration":2000},{"location":"b%20c.mp3","title":"B"}]}}"#
        let doc = try read(text, .jspf)
        #expect(doc.title == "T")
        #expect(doc.entries.map(\.location) == [.file(MediaPath("/a.mp3")), .file(MediaPath("/lists/b c.mp3"))])
        #expect(doc.entries[0].duration == 2)
    }

    @Test func jsonPathsAndBytes() throws {
        let text = #"[{"path":"x.mp3","playbackDuration":3},{"path":{"bytes":[47,233],"lossy":"/\ufffd"},"title":"t"}]"#
        let doc = try read(text, .json)
        #expect(doc.entries.map(\.location) == [.file(MediaPath("/lists/x.mp3")), .file(MediaPath(bytes: [47, 233]))])
        #expect(doc.entries[0].duration == 3)
    }

    @Test(arguments: [
        ("<playlist><trackList><track>", PlaylistFormat.xspf, "not a valid XSPF playlist"),
        ("<html/>", .xspf, "no <playlist> element"),
        ("{\"tracks\": []}", .jspf, "not a valid JSPF playlist"),
        ("{\"a\": 1}", .json, "not a JSON playlist"),
        ("[{\"title\": \"x\"}]", .json, "item 1 has no usable \"path\""),
        ("File1=x\n", .pls, "no [playlist] section"),
    ])
    func malformedFilesGiveOneClearLine(text: String, format: PlaylistFormat, message: String) {
        do {
            _ = try PlaylistReader.read(Array(text.utf8), format: format, base: base, path: "/lists/bad")
            Issue.record("expected an error")
        } catch let error as PlaylistError {
            #expect(error.description.hasPrefix("/lists/bad: "))
            #expect(error.description.contains(message), "\(error)")
            #expect(!error.description.contains("\n"))
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test(arguments: [
        ("#EXTM3U\n/a.mp3", PlaylistFormat.m3u), ("\u{FEFF}[playlist]\nFile1=a", .pls), ("<?xml version='1.0'?><playlist/>", .xspf),
        (" {\"playlist\": {}}", .jspf), ("[{\"path\": \"/a\"}]", .json), ("/just/a/path.mp3", .m3u),
    ])
    func sniffing(text: String, expected: PlaylistFormat) {
        #expect(PlaylistFormat(sniffing: Array(text.utf8)) == expected)
        #expect(PlaylistFormat.detect(path: MediaPath("/x/list.M3U8"), bytes: Array(text.utf8)) == .m3u8)
    }
}
