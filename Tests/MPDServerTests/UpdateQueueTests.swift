import Foundation
import MediaModel
import PostgresStore
import PostgresTestServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `update` while an update runs is queued, as mpd's (`src/db/update/Service.cxx`): each gets the next job
/// id, `status` shows the running one as `updating_db`, and each is scanned in turn (before: the second
/// `update` answered the first job's id and its directory was never scanned). The first update is held
/// waiting by the test holding the store's scan lock, as a running `mlib scan` would.
@Suite(.serialized, .enabled(if: toolExists("mpc") && toolExists("ffmpeg"), "mpc or ffmpeg missing (scripts/install-deps.sh)"))
struct UpdateQueueTests {
    @Test func updatesAskedForWhileOneRunsAreQueuedOnSQLite() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        // The SQLite scan lock: an exclusive flock on `<library>.lock` (MediaScanner.ScanLock).
        let fd = open(library.library + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "cannot take the scan lock")
        try queuesUpdates(library, release: { flock(fd, LOCK_UN); close(fd) }, fillQueue: true)
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL missing (scripts/install-deps.sh)"))
    func updatesAskedForWhileOneRunsAreQueuedOnPostgreSQL() throws {
        let postgres = try #require(PostgresTestServer.shared)
        let library = try TestLibrary(library: try postgres.makeDatabase("updatequeue"))
        defer { library.remove() }
        let root = MediaPath(library.music.resolvingSymlinksInPath().path)
        var held: PostgresRootLock? = try PostgresRootLock(index: PostgresIndex(url: library.library), roots: [root], timeout: 0)
        try queuesUpdates(library, release: { withExtendedLifetime(held) { held = nil } }, fillQueue: false)
    }

    /// With the scan lock held: `update Album1` (job 2, waiting for the lock), `update Other` (job 3,
    /// queued); `fillQueue` then asks for 31 more (the queue holds 32) and a 34th, refused as mpd refuses
    /// it. After `release`, both directories' new files are in the library and no update runs.
    private func queuesUpdates(_ library: TestLibrary, release: () -> Void, fillQueue: Bool) throws {
        let fm = FileManager.default
        for (name, directory) in [("one.opus", "Album1"), ("two.opus", "Other")] {
            try fm.copyItem(at: Paths.fixtures.appendingPathComponent("opus.opus"),
                            to: library.music.appendingPathComponent("\(directory)/\(name)"))
        }
        let count = { try run(Paths.mlib.path, ["ls", "--count", "--library", library.library]).out }
        let before = try count()
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        // The server's loading of the library at start-up was job 1 (issue 44: `status` shows it while the
        // view builds, as mpd's update at start-up): the first `update` is job 2.
        #expect(try client.command("update Album1") == ["updating_db: 2", "OK"])
        #expect(try client.command("update Other") == ["updating_db: 3", "OK"])
        if fillQueue {
            for job in 4...34 { #expect(try client.command("update Other") == ["updating_db: \(job)", "OK"]) }
            #expect(try client.command("update") == ["ACK [54@0] {update} Update queue is full"])
        }
        #expect(try client.command("status").contains("updating_db: 2"), "the running job is the first")
        #expect(try server.mpc(["status"]).out.contains("Updating DB (#2)"))
        release()

        var status = "", added = false
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            usleep(100_000)
            status = try server.mpc(["status"]).out
            added = try count() == "\(Int(before.trimmingCharacters(in: .whitespacesAndNewlines))! + 2)\n"
            if added && !status.contains("Updating DB") { break }
        }
        let after = try count()
        #expect(added, "both directories scanned: \(before) then \(after)")
        #expect(!status.contains("Updating DB"), "\(status)")
        #expect(try server.mpc(["ls", "Other"]).out.contains("Other/two.opus"))
        #expect(try server.mpc(["ls", "Album1"]).out.contains("Album1/one.opus"))
    }
}
