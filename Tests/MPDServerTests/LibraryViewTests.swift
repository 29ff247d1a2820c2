import Foundation
import PostgresTestServer
import Testing

/// The server's in-memory view follows the library: a scan by another process is seen without an
/// `update`, wakes `idle database`, and a rename (which changes no total) shows too.
@Suite(.serialized, .enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct LibraryViewTests {
    @Test func aScanByAnotherProcessWakesIdleDatabase() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let idler = try RawClient(port: server.port)
        try idler.send(Array("idle database\n".utf8))
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"),
                                         to: library.music.appendingPathComponent("Other/again.opus"))
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q"]).status == 0)
        #expect(try idler.answer() == ["changed: database", "OK"])
        // The view was swapped in before the event: a client that reloads now sees the new file.
        #expect(try server.mpc(["ls", "Other"]).out.contains("Other/again.opus"))
    }

    /// A rename keeps the item's row (no new generation) and changes no total: the store's item change log
    /// shows it to the view (it did not before the log), on both stores.
    @Test(arguments: Store.available) func aRenameThatChangesNoTotalIsSeen(_ store: Store) throws {
        let library = try TestLibrary(library: store == .postgres ? try #require(PostgresTestServer.shared).makeDatabase("view") : nil)
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        try FileManager.default.moveItem(at: library.music.appendingPathComponent("Other/ogg-vorbis.ogg"),
                                         to: library.music.appendingPathComponent("Other/renamed.ogg"))
        try #require(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q"]).status == 0)
        var listed = ""
        for _ in 0..<30 {   // the view looks every half second
            usleep(100_000)
            listed = try server.mpc(["ls", "Other"]).out
            if listed.contains("renamed") { break }
        }
        #expect(listed == "Other/m4a-aac-cover.m4a\nOther/renamed.ogg\n")
        // An update of the server's own rebuilds the view.
        #expect(try server.mpc(["--wait", "update"]).status == 0)
        #expect(try server.mpc(["ls", "Other"]).out == "Other/m4a-aac-cover.m4a\nOther/renamed.ogg\n")
    }

    /// A client's commands keep their order when one of them runs off the loop (a stored-playlist
    /// command), and another client is answered meanwhile.
    @Test func commandsKeepTheirOrderAroundStoreCalls() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let a = try RawClient(port: server.port), b = try RawClient(port: server.port)
        // Pipelined without waiting: the store-bound ones (save, listplaylists) and loop ones (add, status).
        try a.send(Array("add Long\nsave mix\nlistplaylists\nstatus\nrm mix\nlistplaylists\nping\n".utf8))
        #expect(try b.command("ping") == ["OK"])
        #expect(try a.answer() == ["OK"])
        #expect(try a.answer() == ["OK"])
        #expect(try a.answer().first == "playlist: mix")
        #expect(try a.answer().contains("playlistlength: 2"))
        #expect(try a.answer() == ["OK"])
        #expect(try a.answer() == ["OK"])
        #expect(try a.answer() == ["OK"])
    }
}
