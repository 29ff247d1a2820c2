import Foundation
import Library
import MediaIndex
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// README's "Coming from iTunes, Navidrome, beets or MPD" runs as written: each `mlib import-userdata` line
/// of its example block, through bash, against a file at the path it names (in a sandbox HOME; MPD's
/// /var/lib/mpd and the example's /srv/music become sandbox folders), each made as that program makes it
/// (MPD's stickers by Debian's mpd through mpc, the beets library by beets from PyPI with BEETSDIR in the
/// sandbox; iTunes, Navidrome and ListenBrainz from their documented formats, as UserDataImportTests). Each
/// exits 0 and matches a track. DocumentedExamplesTests skips these lines for this test.
@Suite(.serialized, .enabled(if: ["ffmpeg", "mpd", "mpc", "beet", "sqlite3"].allSatisfy(ChildProcess.exists),
                             "ffmpeg, mpd, mpc, beets or sqlite3 missing (scripts/install-deps.sh; pip install beets)"))
struct ComingFromExamplesTests {
    /// The README's example lines of that section, in order.
    static func examples() throws -> [String] {
        let readme = try String(contentsOf: ChildProcess.repo.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Coming from iTunes, Navidrome, beets or MPD").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        return block.split(separator: "\n").map(String.init).filter { $0.hasPrefix("mlib import-userdata ") }
    }

    @Test func everyImportExampleRunsAsWritten() async throws {
        let examples = try Self.examples()
        #expect(Set(examples.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }) == ["itunes", "mpd", "beets", "navidrome", "listenbrainz"],
                "\(examples)")
        let box = try await UserDataImportTests.Box(.sqlite)   // t1–t3.mp3 by Ärtist; accounts alice (the owner) and bob
        defer { box.folder.remove() }
        let sandbox = box.folder.directory
        let home = sandbox.appendingPathComponent("home"), work = sandbox.appendingPathComponent("work")
        let mpdDirectory = sandbox.appendingPathComponent("var/lib/mpd"), beets = home.appendingPathComponent(".config/beets")
        for folder in [home.appendingPathComponent("Music"), work, mpdDirectory, beets] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        // iTunes: ~/Music/Library.xml, its tracks under /Users/me/Music (the example's --map FROM).
        try UserDataImportTests.libraryXML("""
            <key>1</key><dict><key>Track ID</key><integer>1</integer><key>Play Count</key><integer>7</integer>
            <key>Location</key><string>file:///Users/me/Music/t1.mp3</string></dict>
            """).write(to: home.appendingPathComponent("Music/Library.xml"), atomically: true, encoding: .utf8)
        // MPD: the sticker database of mpd.conf's sticker_file, written by mpd.
        let mpd = try StickerMPD(directory: mpdDirectory.path, music: box.music, stickers: mpdDirectory.appendingPathComponent("sticker.sql").path)
        try mpd.mpc(["update", "--wait"])
        try mpd.mpc(["sticker", "t2.mp3", "set", "playCount", "3"])
        mpd.stop()
        // beets: ~/.config/beets/library.db, written by beets.
        try "directory: \(box.music)\nlibrary: \(beets.path)/library.db\nimport:\n  copy: no\n  write: no\n"
            .write(toFile: beets.path + "/config.yaml", atomically: true, encoding: .utf8)
        for arguments in [["import", "-A", "-q", box.music], ["modify", "-y", "-W", "title:Song 3", "play_count=2"]] {
            let beet = try ChildProcess.run("beet", arguments, environment: ["BEETSDIR": beets.path, "HOME": home.path, "XDG_CONFIG_HOME": beets.path])
            try #require(beet.status == 0, "beet \(arguments): \(beet.stderr)")
        }
        // Navidrome: navidrome.db in the current folder; its users admin and guest (the example maps them).
        let navidrome = UserDataImportTests.navidromeSchema + """
            INSERT INTO user VALUES ('u1', 'admin', '', '', '', 1), ('u3', 'guest', '', '', '', 0);
            INSERT INTO library VALUES (1, 'Music Library', '\(box.music)/');
            INSERT INTO media_file VALUES ('m1', 't1.mp3', 'Song 1', 'Album', 'Ärtist', 3.0, '', 1);
            INSERT INTO annotation VALUES ('u1', 'm1', 'media_file', 9, NULL, 5, 1, NULL), ('u3', 'm1', 'media_file', 4, NULL, 1, 0, NULL);
            """
        let made = try ChildProcess.run("sqlite3", [work.appendingPathComponent("navidrome.db").path, navidrome])
        try #require(made.status == 0, "\(made.stderr)")
        // ListenBrainz: listens.jsonl in the current folder.
        try #"{"listened_at": 1700000000, "track_metadata": {"artist_name": "Ärtist", "track_name": "Song 2", "release_name": "Album"}}"#
            .write(to: work.appendingPathComponent("listens.jsonl"), atomically: true, encoding: .utf8)

        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "MLIB_LIBRARY": box.folder.library, "MLIB_USER": "",
                           "PATH": ChildProcess.mlib.deletingLastPathComponent().path + ":/usr/bin:/bin"]
        for example in examples {
            let command = example.replacingOccurrences(of: "/var/lib/mpd", with: mpdDirectory.path)
                .replacingOccurrences(of: "/srv/music", with: box.music)
            let shell = try ChildProcess.run("/bin/bash", ["-c", command], environment: environment, cwd: work)
            #expect(shell.status == 0, "\(example) → \(shell.status)\n\(shell.out)\(shell.stderr)")
            let first = shell.out.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.contains("matched") && !first.contains("; 0 matched"), "\(example): \(shell.out)")
        }
        // What the examples wrote, on the right items and users.
        func id(_ n: Int) throws -> Int64 { try box.id(n) }
        #expect(try box.owners(1).playCount == 9, "iTunes' 7, then Navidrome's admin (alice, the owner) 9: the larger")
        #expect(try box.owners(1).rating == 5)
        #expect(try box.owners(2).playCount == 3, "MPD's playCount sticker")
        #expect(try box.owners(3).playCount == 2, "beets' play_count")
        #expect(try box.bobs(2).playCount == 1, "bob's listen")
        #expect(try box.library.history(HistoryQuery(user: .named("bob"))).map(\.listen.itemID) == [try id(2)])
    }
}
