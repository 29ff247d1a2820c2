import Foundation
import MediaIndex
import PostgresStore
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// The server's `update` and play statistics are the library's (`Library.scan`, `Library.record`): the
/// same lock, the same counts as `mlib scan` and `mlib play`.
@Suite(.serialized, .enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct LibraryGlueTests {
    /// On PostgreSQL the scan lock is an advisory lock per root: `update` waits while another scan (here
    /// the test, holding the root's lock as `mlib scan` would) has it, and scans once it is released.
    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func aPostgresUpdateWaitsForTheRootsScanLock() throws {
        // Installed but not started: a failure, not a pass (it returned green here before).
        guard let server = PostgresTestServer.shared else { throw Store.Unavailable() }
        let locator = try server.makeDatabase("update")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-pgupdate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let music = directory.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"), to: music.appendingPathComponent("opus.opus"))
        try #require(try run(Paths.mlib.path, ["scan", "--quiet", "--library", locator, music.path]).status == 0)

        let root = MediaPath(music.resolvingSymlinksInPath().path)
        var held: PostgresRootLock? = try PostgresRootLock(index: PostgresIndex(url: locator), roots: [root], timeout: 0)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("ogg-vorbis.ogg"), to: music.appendingPathComponent("ogg-vorbis.ogg"))
        let serve = try ServeProcess(library: locator)
        defer { serve.stop() }
        #expect(try serve.mpc(["update"]).status == 0)
        let count = { try run(Paths.mlib.path, ["ls", "--count", "--library", locator]).out }
        #expect(try Poll.until(timeout: 10) { try serve.mpc(["status"]).out.contains("Updating DB") }, "the update is not waiting")
        // What must not happen: a scan while the lock is held. The waiting update tries the lock every 0.1 s
        // (PostgresRootLock); 0.3 s is three tries, any of which would have let a wrong scan through.
        usleep(300_000)
        #expect(try count() == "1\n", "the update scanned while another scan held the root's lock")

        withExtendedLifetime(held) { held = nil }
        #expect(try Poll.until(timeout: 10) { try count() == "2\n" }, "the update did not scan once the lock was released")
    }

    /// One play of the same item, through `mlib play` in one library and through the server in another,
    /// leaves the same statistics (play count, skip count, last played set).
    @Test func aPlayThroughTheServerCountsAsAPlayThroughMlibPlay() throws {
        let viaPlay = try TestLibrary(), viaServer = try TestLibrary()
        defer { viaPlay.remove(); viaServer.remove() }
        let statistics = { (library: String) in
            try run(Paths.mlib.path, ["ls", "--library", library, "-f", "$playCount $skipCount ${lastPlayed}", "title:Opus"]).out
        }
        #expect(try statistics(viaPlay.library).hasPrefix("0 0 "))

        let played = try run(Paths.mlib.path, ["play", "--library", viaPlay.library, "--sink", "null:fast", "--record-plays", "title:Opus"])
        try #require(played.status == 0, "mlib play: \(played.err)")

        let server = try ServeProcess(library: viaServer.library, extra: ["--record-plays"])
        defer { server.stop() }
        try server.mpc(["add", "opus.opus"])
        try server.mpc(["play"])
        let viaServerStatistics = try Poll.value(timeout: 10, { try statistics(viaServer.library) }) { $0.hasPrefix("1 ") }
        let viaPlayStatistics = try statistics(viaPlay.library)
        #expect(viaPlayStatistics.hasPrefix("1 0 "))
        #expect(viaServerStatistics.prefix(4) == viaPlayStatistics.prefix(4))
        // Last played is set by both (a date; the two differ by the seconds between the plays).
        #expect(viaServerStatistics.count > 5 && viaPlayStatistics.count > 5)
    }

    /// Statistics that cannot be written (the item left the library while it played) are an error the
    /// client sees in `status`, not dropped.
    @Test func aPlayThatCannotBeRecordedIsAnError() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        let server = try ServeProcess(library: library.library, extra: ["--record-plays"])
        defer { server.stop() }
        try server.mpc(["add", "Long"])          // two 30 s tones: skipping the first is a skip
        try server.mpc(["play"])
        let forgot = try run(Paths.mlib.path, ["root", "forget", "--library", library.library, library.music.resolvingSymlinksInPath().path])
        try #require(forgot.status == 0, "mlib root forget: \(forgot.err)")
        try server.mpc(["next"])                 // a skip after less than 20 s: a skip count to write
        let status = try Poll.value(timeout: 10, { try server.mpc(["status"]).out }) { $0.contains("ERROR") }
        #expect(status.contains("ERROR: cannot record play statistics"), "\(status)")
    }
}
