import Foundation
import PostgresTestServer
import Testing

/// Issue 44: `mlib serve` listens before its library view is built (at a million songs the build takes tens
/// of seconds, and nothing answered meanwhile). A client connected while the view builds gets `ping` and
/// `status` at once (`status` says `updating_db`, as mpd's does while it updates), and its library command
/// right after the view is in, in the order it sent them; another client is not held meanwhile. The build
/// is made slow by the test-only `MLIB_TEST_VIEW_BUILD_DELAY_MS` (LiveView), which production never sets.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct ServeStartupTests {
    static let delay = 5.0

    @Test(arguments: Store.available)
    func mpdAnswersAtOnceAndLibraryCommandsOnceTheViewIsIn(store: Store) throws {
        let library = try TestLibrary(library: store == .sqlite ? nil : try store.newLocator(sqlitePath: ""))
        defer { library.remove() }
        let launched = Date()
        let server = try ServeProcess(library: library.library,
                                      environment: ["MLIB_TEST_VIEW_BUILD_DELAY_MS": String(Int(Self.delay * 1_000))])
        defer { server.stop() }
        let listening = Date().timeIntervalSince(launched)
        #expect(listening < Self.delay - 1.5, "listening \(listening) s after the start, the build takes more than \(Self.delay) s")

        let client = try RawClient(port: server.port)
        let sent = Date()
        // One write: the server sees the whole pipeline at once, and answers it in order.
        try client.send(Array("ping\nstatus\nlist artist\nping\n".utf8))
        #expect(try client.answer() == ["OK"])
        let status = try client.answer()
        let statusTime = Date().timeIntervalSince(sent)
        #expect(status.contains("updating_db: 1"), "status while the view builds: \(status)")
        #expect(statusTime < 1.5, "ping and status took \(statusTime) s")

        // Another client meanwhile: answered at once, while the first one's `list` waits.
        let other = try RawClient(port: server.port)
        let asked = Date()
        #expect(try other.command("ping") == ["OK"])
        #expect(Date().timeIntervalSince(asked) < 1.5)
        #expect(try other.command("status").contains("updating_db: 1"), "still building when the other client asked")

        let artists = try client.answer()
        let listed = Date().timeIntervalSince(launched)
        #expect(listed >= Self.delay - 0.5, "the list came \(listed) s after the start: before the view was in?")
        #expect(artists.contains("Artist: Sine Wave") && artists.last == "OK", "\(artists)")
        #expect(try client.answer() == ["OK"], "the last ping, after the list")
        // The same answer as once the view is in, and the load is over.
        #expect(try other.command("list artist") == artists)
        #expect(!(try other.command("status").contains { $0.hasPrefix("updating_db") }))
        #expect(try other.command("stats").contains("songs: 7"))
    }

    /// A command list waits as a whole: its commands before the library command are answered in the list's
    /// one answer, after the library is in.
    @Test func aCommandListWaitsForTheLibraryAndKeepsItsOrder() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library, environment: ["MLIB_TEST_VIEW_BUILD_DELAY_MS": "2000"])
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let answer = try client.command("command_list_ok_begin\nping\ncount artist \"Sine Wave\"\nping\ncommand_list_end")
        #expect(answer == ["list_OK", "songs: 2", "playtime: 60", "list_OK", "list_OK", "OK"], "\(answer)")
    }
}
