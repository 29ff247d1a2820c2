import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaIndex
import PostgresTestServer
import TestSupport
import Testing

/// `mlib serve` against what an attacker with an ordinary login sends (issue 37): values no client
/// sends, values already out of range in a store, and files swapped for links after they were indexed.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg") && ChildProcess.exists("mpc"), "ffmpeg or mpc missing (scripts/install-deps.sh)"))
struct HostileRequestTests {
    static let auth = BothServeProcess.auth

    /// The library's items: path (relative to the music folder) → id.
    static func ids(_ library: TestLibrary) throws -> [String: String] {
        let output = try mlib(["ls", "--json", "--library", library.library])
        guard output.status == 0, let items = try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]] else {
            throw TestFailure("mlib ls: \(output.stderr)")
        }
        var ids: [String: String] = [:]
        for item in items {
            guard let path = item["path"] as? String, let id = (item["persistentID"] as? NSNumber)?.stringValue else { continue }
            ids[String(path.dropFirst(library.music.path.count + 1))] = id
        }
        return ids
    }

    /// The envelope's error code (nil for "ok"), from a JSON answer.
    static func errorCode(_ body: Data) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let response = object["subsonic-response"] as? [String: Any] else { return -1 }
        return (response["error"] as? [String: Any])?["code"] as? Int
    }

    @Test(arguments: Store.available)
    func aScrobbleFarInTheFutureIsRefusedAndTheServerStartsAgain(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let ids = try Self.ids(library)
        let song = try #require(ids["Album1/mp3-id3v24.mp3"])

        let server = try HTTPServeProcess(library: library)
        for time in ["1e300", "-1e300", "nan", "inf", "9223372036854775807", "-62135596800001"] {
            let answer = try await http("\(server.base)/scrobble?id=\(song)&time=\(time)&f=json&\(Self.auth)")
            #expect(answer.status == 200 && Self.errorCode(answer.body) == 0, "scrobble time=\(time): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let ping = try? await http("\(server.base)/ping?f=json&\(Self.auth)")
        #expect(ping?.status == 200, "the server still answers after the scrobbles")
        #expect(server.stop() == 0, "the server exits cleanly, it did not trap")
        let again = try HTTPServeProcess(library: library)
        #expect(try await http("\(again.base)/getSong?id=\(song)&f=json&\(Self.auth)").status == 200, "and starts again on the same library")
        #expect(again.stop() == 0)
    }

    /// Values out of range already in the store (an older mlib, another program, a hand edit): every
    /// front reads them clamped and logs them, none traps.
    @Test(arguments: Store.available)
    func storedValuesOutOfRangeAreReadClampedByEveryFront(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let song = try #require(try Self.ids(library)["Album1/mp3-id3v24.mp3"])
        let opened = try LibraryLocator(library.library).open()
        let sql = try #require(opened as? SQLStore)
        let id = try #require(Int64(song))
        try sql.write { x in
            try x.execute(#"UPDATE items SET "lastPlayedDate" = 1e297, "playCount" = -5, "skipCount" = -1, rating = 99, "playbackDuration" = 1e300 WHERE id = \#(id)"#)
            try x.execute("UPDATE playlists SET modified = 1e297, created = -1e300")
        }
        let both = try BothServeProcess(library: library)
        let get = try await http("\(both.base)/getSong?id=\(song)&f=json&\(Self.auth)")
        #expect(get.status == 200 && Self.errorCode(get.body) == nil, "getSong: \(String(decoding: get.body, as: UTF8.self))")
        let text = String(decoding: get.body, as: UTF8.self)
        #expect(text.contains("\"played\":\"9999-12-31T23:59:59"), "lastPlayedDate read as the last second of 9999: \(text)")
        for method in ["getAlbumList2?type=recent", "getAlbumList2?type=frequent", "getAlbumList2?type=highest", "search3?query=", "getRandomSongs?size=50",
                       "getAlbumList?type=frequent", "getTopSongs?artist=%D0%9A%D0%B8%D0%BD%D0%BE", "getSimilarSongs2?id=\(song)"] {
            let answer = try await http("\(both.base)/\(method)&f=json&\(Self.auth)")
            #expect(answer.status == 200 && Self.errorCode(answer.body) == nil, "\(method)")
        }
        let playlists = try await http("\(both.base)/getPlaylists?f=json&\(Self.auth)")
        #expect(playlists.status == 200 && String(decoding: playlists.body, as: UTF8.self).contains("9999-12-31T23:59:59"),
                "getPlaylists: \(String(decoding: playlists.body, as: UTF8.self))")
        let stored = try both.mpc(["lsplaylists"])
        #expect(stored.status == 0 && stored.out.contains(TestLibrary.smartPlaylist), "mpc lsplaylists: \(stored.out) \(stored.stderr)")
        let listed = try both.mpc(["listall"])
        #expect(listed.status == 0 && listed.out.contains("mp3-id3v24.mp3"), "mpc listall: \(listed.stderr)")
        let sticker = try both.mpc(["sticker", "Album1/mp3-id3v24.mp3", "list"])
        #expect(sticker.status == 0 && sticker.out.contains("lastPlayed=253402300799"), "MPD stickers: \(sticker.out) \(sticker.stderr)")
        #expect(both.stop() == 0)
        // The CLI (text and JSON) reads them clamped too.
        let ls = try mlib(["ls", "-f", "$playCount $skipCount $rating", "persistentID == \(song)", "--library", library.library])
        #expect(ls.status == 0 && ls.out == "0 0 5\n", "mlib ls: \(ls.out) \(ls.stderr)")
        let json = try mlib(["ls", "--json", "persistentID == \(song)", "--library", library.library])
        #expect(json.status == 0 && json.out.contains("253402300799"), "mlib ls --json: \(json.stderr)")
        #expect(json.stderr.contains("out of range"), "the clamped values are logged: \(json.stderr)")
        // And writers refuse to store them.
        let set = try mlib(["set", "lastPlayedDate=99999999999999", "persistentID == \(song)", "--library", library.library])
        #expect(set.status != 0, "mlib set refuses a date past 9999: \(set.out)")
    }

    /// A song file swapped for a link to a file outside the roots after it was indexed, and a folder's
    /// cover.jpg linked out of the roots: no front sends what the link points to.
    @Test func filesSwappedForLinksOutOfTheRootsAreNotServed() async throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let ids = try Self.ids(library)
        let song = try #require(ids["Album1/mp3-id3v24.mp3"])
        let other = try #require(ids["Other/ogg-vorbis.ogg"])
        // The secret: a song with an embedded picture, and a picture, outside the music folder.
        let fm = FileManager.default
        let secretSong = library.directory.appendingPathComponent("secret.flac").path
        let secretPicture = library.directory.appendingPathComponent("secret.jpg").path
        try fm.copyItem(atPath: Paths.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path, toPath: secretSong)
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=24x24", "-frames:v", "1", secretPicture])
        try #require(made.status == 0)
        let songFile = library.music.appendingPathComponent("Album1/mp3-id3v24.mp3").path
        let coverFile = library.music.appendingPathComponent("Other/cover.jpg").path
        try fm.removeItem(atPath: songFile)
        try fm.createSymbolicLink(atPath: songFile, withDestinationPath: secretSong)
        try fm.removeItem(atPath: coverFile)
        try fm.createSymbolicLink(atPath: coverFile, withDestinationPath: secretPicture)
        let secret = try Data(contentsOf: URL(fileURLWithPath: secretSong))
        let picture = try Data(contentsOf: URL(fileURLWithPath: secretPicture))

        let both = try BothServeProcess(library: library)
        defer { both.stop() }
        for method in ["download?id=\(song)", "stream?id=\(song)", "stream?id=\(song)&format=mp3&maxBitRate=64"] {
            let answer = try await http("\(both.base)/\(method)&f=json&\(Self.auth)")
            #expect(answer.body != secret && Self.errorCode(answer.body) == 70,
                    "\(method): \(answer.status), \(answer.body.count) bytes, \(answer.headers["content-type"] ?? "")")
        }
        for id in [song, other] {
            let answer = try await http("\(both.base)/getCoverArt?id=\(id)&f=json&\(Self.auth)")
            // The secret picture is never sent: the song's album gets error 70 or the placeholder of a
            // song without art (issue 42).
            let placeholder = answer.status == 200 && answer.headers["content-type"] == "image/png" && answer.body.count < 10_000
            #expect(answer.body != picture && (Self.errorCode(answer.body) == 70 || placeholder),
                    "getCoverArt \(id): \(answer.status), \(answer.body.count) bytes, \(answer.headers["content-type"] ?? "")")
        }
        // MPD: albumart follows no cover.jpg out of the roots; readpicture reads no linked song.
        let albumart = try Self.mpd(both.mpdPort, "albumart \"Other/ogg-vorbis.ogg\" 0")
        #expect(albumart.hasPrefix("ACK") && albumart.contains("No file exists"), "albumart: \(albumart.prefix(200))")
        let readpicture = try Self.mpd(both.mpdPort, "readpicture \"Album1/mp3-id3v24.mp3\" 0")
        #expect(readpicture == "OK\n", "readpicture: \(readpicture.prefix(200))")
        // The files in the roots are still served.
        let fine = try #require(ids["Album1/flac-vorbis-cover.flac"])
        let download = try await http("\(both.base)/download?id=\(fine)&\(Self.auth)")
        let original = try Data(contentsOf: library.music.appendingPathComponent("Album1/flac-vorbis-cover.flac"))
        #expect(download.status == 200 && download.body == original)
        let embedded = try Self.mpd(both.mpdPort, "readpicture \"Album1/flac-vorbis-cover.flac\" 0")
        #expect(embedded.hasPrefix("size: "), "readpicture of a file in the roots: \(embedded.prefix(80))")
    }

    /// One MPD command on a new connection; the answer after the greeting, as text (binary bytes as Latin-1).
    static func mpd(_ port: Int, _ command: String) throws -> String {
        let script = """
        import socket, sys
        s = socket.create_connection(("127.0.0.1", \(port)), timeout=10)
        f = s.makefile("rb")
        f.readline()
        s.sendall(sys.argv[1].encode() + b"\\n")
        out = b""
        while True:
            line = f.readline()
            if not line: break
            out += line
            if line.startswith(b"binary: "):
                n = int(line[8:]); out += f.read(n + 1)
            elif line == b"OK\\n" or line.startswith(b"ACK"): break
        sys.stdout.write(out.decode("latin-1"))
        """
        let run = try ChildProcess.run("python3", ["-c", script, command])
        guard run.status == 0 else { throw TestFailure("mpd client: \(run.stderr)") }
        return run.out
    }
}
