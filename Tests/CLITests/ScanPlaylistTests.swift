import Foundation
import Testing

/// Playlist files under a scanned root are mirrored as playlists, follow edits of the file, and never
/// replace a playlist the user made.
@Suite(.serialized) struct ScanPlaylistTests {
    @Test func playlistFilesUnderARootBecomePlaylists() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-scanpl-\(UUID().uuidString)")
        let root = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (source, name) in [("flac-vorbis-cover.flac", "a.flac"), ("opus.opus", "b.opus")] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(source), to: root.appendingPathComponent(name))
        }
        let m3u = root.appendingPathComponent("party.m3u")
        try "#EXTM3U\nb.opus\na.flac\nmissing.mp3\n".write(to: m3u, atomically: true, encoding: .utf8)
        let library = dir.appendingPathComponent("lib.sqlite").path
        func mlib(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--library", library]) }
        func entries(_ name: String) throws -> [String] {
            let r = try mlib(["playlist", "show", name, "--json"])
            let items = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]], "\(r.stderr)")
            return items.map { URL(fileURLWithPath: $0["path"] as! String).lastPathComponent }
        }

        // The user already has a playlist called "party": the mirror takes another name.
        #expect(try mlib(["playlist", "create", "party"]).status == 0)
        let scan = try mlib(["scan", root.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try entries("party (2)") == ["b.opus", "a.flac"])
        #expect(try entries("party") == [])

        // An edit of the file reaches the playlist on the next scan.
        try "a.flac\n".write(to: m3u, atomically: true, encoding: .utf8)
        #expect(try mlib(["scan", "--quiet"]).status == 0)
        #expect(try entries("party (2)") == ["a.flac"])
        let list = try mlib(["playlist", "list"]).out
        #expect(list.contains("party (2)"))
    }
}
