import Foundation
import MediaModel
import Testing
@testable import Playlists

/// What the bytes look like: the documented per-format rules.
@Suite struct WriterTests {
    let latin1 = MediaPath(bytes: Array("/m/caf".utf8) + [0xE9] + Array(".mp3".utf8))

    func text(_ items: [MediaItem], _ format: PlaylistFormat, _ options: PlaylistWriter.Options = .init()) -> String {
        String(decoding: PlaylistWriter.data(for: items, format: format, options: options), as: UTF8.self)
    }

    @Test func extendedM3U() {
        let items = [item(MediaPath("/m/Ünï #1.flac"), title: "T", artist: "A", duration: 200.4),
                     item(MediaPath("/m/no tags.mp3"))]
        #expect(text(items, .m3u8) == "#EXTM3U\n#EXTINF:200,A - T\n/m/Ünï #1.flac\n#EXTINF:-1,no tags.mp3\n/m/no tags.mp3\n")
    }

    @Test func lineBreaksInTagsNeverStartALine() {
        let items = [item(MediaPath("/m/x.mp3"), title: "two\nlines", artist: "cr\rlf\r\n")]
        #expect(text(items, .m3u8, .init(title: "list\nname")) == "#EXTM3U\n#PLAYLIST:list name\n#EXTINF:-1,cr lf   - two lines\n/m/x.mp3\n")
        #expect(text(items, .pls).contains("Title1=cr lf   - two lines\n"))
    }

    @Test func nonUTF8NamesPerFormat() {
        let items = [item(latin1)]
        // .m3u has no declared encoding: the raw bytes, exactly.
        let m3u = PlaylistWriter.data(for: items, format: .m3u)
        #expect(m3u.suffix(latin1.bytes.count + 1) == ArraySlice(latin1.bytes + [0x0A]))
        // UTF-8 formats: an escaped file URI, and the whole file is valid UTF-8.
        for format in [PlaylistFormat.m3u8, .pls, .xspf, .jspf] {
            let data = PlaylistWriter.data(for: items, format: format)
            #expect(String(validating: data, as: UTF8.self) != nil, "\(format) is UTF-8")
            #expect(String(decoding: data, as: UTF8.self).contains("file:///m/caf%E9.mp3"), "\(format)")
        }
        #expect(text(items, .json).contains("\"bytes\":[47,109,47,99,97,102,233,46,109,112,51]"))
    }

    @Test func relativeLocationsThatWouldBeMisread() {
        let options = PlaylistWriter.Options(paths: .relative(to: MediaPath("/m")))
        let items = [item(MediaPath("/m/#hash.mp3")), item(MediaPath("/m/http:/x.mp3")), item(MediaPath("/m/ sp.mp3"))]
        let lines = text(items, .m3u8, options).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["./#hash.mp3", "./http:/x.mp3", "./ sp.mp3"])
        #expect(text(items, .xspf, options).contains("<location>http%3A/x.mp3</location>"))
    }

    @Test func plsVersion2() {
        let t = text([item(MediaPath("/a b.mp3"), title: "x", duration: 3), item(MediaPath("/c.mp3"))], .pls)
        #expect(t == "[playlist]\nFile1=/a b.mp3\nTitle1=x\nLength1=3\nFile2=/c.mp3\nTitle2=c.mp3\nLength2=-1\nNumberOfEntries=2\nVersion=2\n")
    }

    @Test func xspfFields() {
        let t = text([item(MediaPath("/m/a&b.flac"), title: "<T>", artist: "A&B", album: "Al", duration: 1.5, track: 7)], .xspf)
        #expect(t.contains("xmlns=\"http://xspf.org/ns/0/\""))
        #expect(t.contains("<location>file:///m/a%26b.flac</location>"))
        #expect(t.contains("<title>&lt;T&gt;</title>"))
        #expect(t.contains("<creator>A&amp;B</creator>"))
        #expect(t.contains("<album>Al</album>"))
        #expect(t.contains("<trackNum>7</trackNum>"))
        #expect(t.contains("<duration>1500</duration>"))
    }

    @Test func jsonCarriesEveryProperty() throws {
        var full = item(MediaPath("/m/x.flac"), title: "T", duration: 2)
        for property in MediaProperty.allCases where full[property] == nil {
            switch property.spec.type {
            case .text, .date: full[property] = .text("v")
            case .integer, .mediaType: full[property] = .integer(1)
            case .real, .duration, .timestamp: full[property] = .real(1.5)
            case .bool: full[property] = .bool(true)
            }
        }
        full.tags = ["ALBUMARTIST": "x"]
        let data = Data(PlaylistWriter.data(for: [full], format: .json))
        let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let keys = Set(array[0].keys)
        #expect(keys == Set(MediaProperty.allCases.map(\.rawValue) + ["tags"]))
    }

    /// XSPF output is checked by a real XML parser, with text that needs escaping and control characters.
    @Test(.enabled(if: toolExists("xmllint"), "xmllint is not installed (apt install libxml2-utils)"))
    func xspfIsWellFormedPerXmllint() throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let items = RoundTripTests.items(under: MediaPath("/m"))
            + [item(MediaPath("/m/x.mp3"), title: "bell\u{7} ]]> <![CDATA[ &amp; \u{1F3B5}", artist: "\u{0}nul")]
        let file = dir.path + "/a.xspf"
        try FileBytes.writeAtomically(PlaylistWriter.data(for: items, format: .xspf, options: .init(title: "<&>")), to: MediaPath(file))
        let result = try run("xmllint", ["--noout", file])
        #expect(result.status == 0, "\(result.err)")
    }
}
