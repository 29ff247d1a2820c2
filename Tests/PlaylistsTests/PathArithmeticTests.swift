import MediaModel
import Testing
@testable import Playlists

@Suite struct PathArithmeticTests {
    @Test(arguments: [
        ("/m/a/x.mp3", "/m/a", "x.mp3"),
        ("/m/a/x.mp3", "/m/b/c", "../../a/x.mp3"),
        ("/m/a/x.mp3", "/", "m/a/x.mp3"),
        ("/m/a/x.mp3", "/m/a/b/", "../x.mp3"),
        ("/m/ab/x.mp3", "/m/a", "../ab/x.mp3"),          // a shared prefix of bytes is not a shared folder
        ("/m/./a//x.mp3", "/m/z/../a", "x.mp3"),
    ])
    func relative(path: String, dir: String, expected: String) {
        #expect(MediaPath(path).relative(to: MediaPath(dir)) == MediaPath(expected))
    }

    @Test(arguments: [
        ("x.mp3", "/m/a", "/m/a/x.mp3"),
        ("../b/x.mp3", "/m/a", "/m/b/x.mp3"),
        ("../../../../x.mp3", "/m/a", "/x.mp3"),           // `..` above the root stays at the root
        ("/abs/./y/../x.mp3", "/m", "/abs/x.mp3"),
        ("./#x.mp3", "/m", "/m/#x.mp3"),
    ])
    func resolved(path: String, base: String, expected: String) {
        #expect(MediaPath(path).resolved(against: MediaPath(base)) == MediaPath(expected))
    }

    @Test func relativeThenResolvedIsIdentityForNonUTF8() {
        let p = MediaPath(bytes: Array("/m/a/\u{1}".utf8) + [0xE9, 0x80])
        let dir = MediaPath("/m/b")
        #expect(p.relative(to: dir).resolved(against: dir) == p)
    }

    @Test func fileURIEscapesBytesAndDecodesBack() {
        var out = ByteBuffer()
        let p = MediaPath(bytes: Array("/a b/#1&%\"'".utf8) + [0xE9] + Array("é.mp3".utf8))
        FileURI.append(absolute: p, to: &out)
        let uri = String(decoding: out.bytes, as: UTF8.self)
        #expect(uri == "file:///a%20b/%231%26%25%22%27%E9%C3%A9.mp3")
        #expect(FileURI.path(ofFileURI: out.bytes) == p)
        #expect(FileURI.path(ofFileURI: Array("file://localhost/x%20y".utf8)) == MediaPath("/x y"))
        #expect(FileURI.path(ofFileURI: Array("file:/x".utf8)) == MediaPath("/x"))
        #expect(FileURI.path(ofFileURI: Array("file://otherhost/x".utf8)) == nil)
    }

    @Test func schemes() {
        #expect(FileURI.scheme(of: Array("http://x".utf8)) == "http")
        #expect(FileURI.scheme(of: Array("FILE:///x".utf8)) == "file")
        #expect(FileURI.scheme(of: Array("C:\\music".utf8)) == nil)
        #expect(FileURI.scheme(of: Array("my song: live.mp3".utf8)) == nil)
        #expect(FileURI.scheme(of: Array("/abs:x".utf8)) == nil)
    }
}
