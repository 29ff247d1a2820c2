import Foundation
import PostgresTestServer
import Testing

/// `mlib serve` on a PostgreSQL library, driven by the real `mpc`. PostgreSQL's client (postgres-nio)
/// blocks with `wait()` on each call; made from the server's event loop, NIO stops the process
/// (SIGILL), so every store call the server makes must run off the loop (issue 22, point 1).
@Suite(.serialized, .enabled(if: PostgresTestServer.isInstalled && toolExists("mpc") && toolExists("ffmpeg"),
                             "PostgreSQL, mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct PostgresServeTests {
    @Test func mpcBrowsesSearchesUpdatesAndEditsPlaylistsOnAPostgreSQLLibrary() throws {
        let postgres = try #require(PostgresTestServer.shared)
        let library = try TestLibrary(library: try postgres.makeDatabase("serve"))
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }

        let stats = try server.mpc(["stats"])
        #expect(stats.status == 0 && stats.out.contains("Songs:        7"), "\(stats)")
        #expect(try server.mpc(["listall"]).out.split(separator: "\n").count == 7)
        #expect(try server.mpc(["ls", "Long"]).out == "Long/tone1.flac\nLong/tone2.flac\n")
        #expect(try server.mpc(["search", "artist", "кино"]).out == "Album1/mp3-id3v24.mp3\nOther/ogg-vorbis.ogg\n")
        #expect(try server.mpc(["list", "album"]).out == "Long Tones\nTest Pressing\nГруппа крови — Déjà vu\n")
        #expect(try server.mpc(["lsplaylists"]).out == "")

        try server.mpc(["findadd", "artist", "Sine Wave"])
        #expect(try server.mpc(["save", "tones"]).status == 0)
        #expect(try server.mpc(["lsplaylists"]).out == "tones\n")
        #expect(try server.mpc(["-f", "%title%", "playlist", "tones"]).out == "Tone 1\nTone 2\n")
        // mpc has no playlistadd: the protocol itself, in a command list with commands that stay on the loop.
        let client = try RawClient(port: server.port)
        #expect(try client.command("command_list_ok_begin\nstatus\nplaylistadd tones opus.opus\nlistplaylists\nping\ncommand_list_end")
                .filter { !$0.contains(":") || $0 == "playlist: tones" } == ["list_OK", "list_OK", "playlist: tones", "list_OK", "list_OK", "OK"])
        #expect(try server.mpc(["playlist", "tones"]).out.split(separator: "\n").count == 3)
        try server.mpc(["clear"])
        try server.mpc(["load", "tones"])
        #expect(try server.mpc(["playlist"]).out.split(separator: "\n").count == 3)
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "set", "rating", "4"]).status == 0)
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "get", "rating"]).out == "rating=4\n")

        // A new file, then `update`: the server scans, and the view shows the new song.
        try FileManager.default.copyItem(at: library.music.appendingPathComponent("Long/tone1.flac"),
                                         to: library.music.appendingPathComponent("Long/tone3.flac"))
        #expect(try server.mpc(["--wait", "update"]).status == 0)
        var listed = ""
        for _ in 0..<50 {
            listed = try server.mpc(["ls", "Long"]).out
            if listed.contains("tone3") { break }
            usleep(100_000)
        }
        // mpd's order: by album, then track (the copy is track 1 too), then name.
        #expect(listed == "Long/tone1.flac\nLong/tone3.flac\nLong/tone2.flac\n")
        #expect(try server.mpc(["stats"]).out.contains("Songs:        8"))

        try server.mpc(["rm", "tones"])
        #expect(try server.mpc(["lsplaylists"]).out == "")
        #expect(server.stop() == 0, "the server survived every command and exits cleanly on SIGTERM")
    }

    /// Issue 38: `mlib serve` never reconnected after a PostgreSQL restart (every command that reached the
    /// store failed, the view froze, `status` said nothing). Now `status` says `error:` while the server is
    /// down, and the store answers again within 5 s of it being back.
    @Test func statusSaysTheLibraryIsUnreachableAndTheServerHealsAfterARestart() throws {
        let postgres = try PostgresTestServer.makeOwn()
        let library = try TestLibrary(library: try postgres.makeDatabase("restart"))
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        #expect(try server.mpc(["stats"]).out.contains("Songs:        7"))
        let client = try RawClient(port: server.port)

        try postgres.stopImmediately()
        var said: String?
        for _ in 0..<100 where said == nil {
            said = try client.command("status").first { $0.hasPrefix("error: ") }
            if said == nil { usleep(100_000) }
        }
        #expect(said?.contains("the library cannot be read") == true, "status while PostgreSQL is down: \(said ?? "no error line")")

        try postgres.start()
        let started = Date()
        var healed: Double?
        while healed == nil && Date().timeIntervalSince(started) < 5 {
            let clean = try !client.command("status").contains { $0.hasPrefix("error: ") }
            if clean, try server.mpc(["sticker", "Long/tone1.flac", "set", "rating", "4"]).status == 0 {
                healed = Date().timeIntervalSince(started)
            } else {
                usleep(100_000)
            }
        }
        #expect(healed != nil, "no answer from the store within 5 s of the restart")
        #expect(try server.mpc(["sticker", "Long/tone1.flac", "get", "rating"]).out == "rating=4\n")
        #expect(server.stop() == 0)
    }
}
