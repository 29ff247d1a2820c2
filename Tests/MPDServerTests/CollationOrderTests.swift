import Foundation
import Library
import PostgresTestServer
import Testing

/// Directories and songs come in Debian's mpd order (issue 26, 7: mlib sorted bytes, and after `mpc add /`
/// 1,086 of 2,019 queue positions differed): names collated as ICU's root collation (what mpd 0.23.12
/// gives under C.UTF-8 and en_US.UTF-8 alike), a directory's songs by album, disc, track, then file name.
/// The expected lists are mpd 0.23.12's answers on the same folder.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct CollationOrderTests {
    static let directoryNames = ["b", "B", "a", "A", "é", "e", "_x", "1", " z", "Zebra", "ábc", "abd", "a b", "a-b", "a_b", "ab"]
    static let mpdDirectoryOrder = [" z", "_x", "1", "a", "A", "a b", "a_b", "a-b", "ab", "ábc", "abd", "b", "B", "e", "é", "Songs", "Zebra"]
    static let mpdSongOrder = ["d", "c", "f", "b", "a", "e"].map { "Songs/\($0).flac" }

    /// The collation the environment picks: the same order under C.UTF-8, en_US.UTF-8 and no locale, as mpd's.
    @Test(arguments: [["LANG": "C.UTF-8"], ["LANG": "en_US.UTF-8"], ["LC_ALL": "C"], [:]])
    func namesCollateAsMPDUnder(_ environment: [String: String]) {
        let collation = NameCollation(environment: environment)
        let expected = Self.mpdDirectoryOrder.filter { $0 != "Songs" }
        #expect(Self.directoryNames.sorted(by: collation.areInIncreasingOrder) == expected)
    }

    @Test(arguments: Store.available) func directoriesAndSongsInMPDsOrder(_ store: Store) throws {
        let library = try TestLibrary(library: store == .postgres ? try #require(PostgresTestServer.shared).makeDatabase("collation") : nil)
        defer { library.remove() }
        let music = library.music.appendingPathComponent("Order")
        let songs = music.appendingPathComponent("Songs")
        try FileManager.default.createDirectory(at: songs, withIntermediateDirectories: true)
        for name in Self.directoryNames {
            try FileManager.default.createDirectory(at: music.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"),
                                             to: music.appendingPathComponent("\(name)/s.opus"))
        }
        // No album first, then albums collated ("alpha" before "Beta"), then disc, then track (none first).
        let tags: [(String, [String])] = [("b", ["album=Beta", "track=2"]), ("a", ["album=Beta", "track=10"]), ("c", ["album=alpha", "track=1"]),
                                          ("d", []), ("e", ["album=Beta", "disc=2", "track=1"]), ("f", ["album=Beta"])]
        for (name, metadata) in tags {
            let made = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=1"] + metadata.flatMap { ["-metadata", $0] }
                                + [songs.appendingPathComponent("\(name).flac").path])
            #expect(made.status == 0)
        }
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        func values(_ key: String, _ command: String) throws -> [String] {
            try client.command(command).filter { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
        }
        #expect(try values("directory", "lsinfo Order") == Self.mpdDirectoryOrder.map { "Order/\($0)" })
        #expect(try values("file", "lsinfo Order/Songs") == Self.mpdSongOrder.map { "Order/\($0)" })
        let listed = try values("file", "listall Order")
        let expectedWalk = Self.mpdDirectoryOrder.flatMap { $0 == "Songs" ? Self.mpdSongOrder : ["\($0)/s.opus"] }.map { "Order/\($0)" }
        #expect(listed == expectedWalk)
        #expect(try values("file", "listallinfo Order") == expectedWalk)
        #expect(try client.command("add Order").last == "OK")
        #expect(try values("file", "playlistinfo") == expectedWalk)
    }
}
