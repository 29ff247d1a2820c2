import Foundation
import MediaIndex
import PostgresStore
import MediaModel
@testable import MediaScanner
import PostgresTestServer
import Testing
import TestSupport

/// `mlib` on a PostgreSQL library, as child processes: a scan killed with SIGKILL, scans of two roots at
/// once (advisory lock per root), a query during a scan, and roots named by host.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresCLITests {
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> SpawnedProcess {
        try SpawnedProcess(try CLIScanTests.mlib().path, arguments, environment: environment)
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        let process = try start(arguments, environment: environment)
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aScanKilledPartWayResumesToTheSameLibraryAsACleanScan() throws {
        let box = try Sandbox(store: .postgres)
        let total = 400
        try CLIScanTests.bigTree(box, count: total)
        let child = try Self.start(["scan", "--quiet", "--jobs", "1", "--batch-size", "5", "--library", box.locator, box.music.path])
        let reader = try box.store()
        var committed = 0
        let deadline = Date().addingTimeInterval(60)
        while committed == 0 && child.isRunning && Date() < deadline {
            usleep(5_000)
            committed = (try? reader.count(MediaQuery())) ?? 0      // a query during the scan never errors
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let afterKill = try reader.count(MediaQuery())
        #expect(committed > 0 && afterKill < total, "the scan was not caught part-way (\(afterKill) of \(total))")
        #expect(try reader.integrityCheck() == "ok")

        #expect(try Self.run(["scan", "--quiet", "--no-wait", "--library", box.locator]) == 0, "the killed scan's lock is gone")
        let clean = try Sandbox(store: .postgres)
        #expect(try Self.run(["scan", "--quiet", "--library", clean.locator, box.music.path]) == 0)

        let index = try box.store()
        #expect(try index.integrityCheck() == "ok")
        #expect(try index.count(MediaQuery()) == total)
        #expect(try itemsNotFoundByTitle(index).isEmpty)
        let (resumed, cleanState) = (try snapshot(index), try snapshot(clean.store()))
        #expect(resumed.count == cleanState.count)
        let firstDifference = zip(resumed, cleanState).first { $0 != $1 }
        #expect(firstDifference == nil, "resumed: \(firstDifference?.0 ?? "")\nclean:   \(firstDifference?.1 ?? "")")
    }

    @Test func scansOfTwoRootsRunAtOnceAndOneRootIsLockedAlone() throws {
        let box = try Sandbox(store: .postgres)
        for i in 0..<60 { try box.put(["a.mp3", "b.flac", "c.ogg"][i % 3], at: "r\(i % 2)/d\(i / 10)/f\(i).\(["mp3", "flac", "ogg"][i % 3])") }
        let r0 = box.music.path + "/r0", r1 = box.music.path + "/r1"
        // Hold r0's lock as a running scan would: a scan of r0 is refused, a scan of r1 is not.
        var held: PostgresRootLock? = try PostgresRootLock(index: PostgresIndex(url: box.locator), roots: [MediaPath(r0)], timeout: 0)
        #expect(try Self.run(["scan", "--quiet", "--no-wait", "--library", box.locator, r1]) == 0)
        #expect(try Self.run(["scan", "--quiet", "--no-wait", "--library", box.locator, r0]) == 3)
        held = nil
        _ = held
        // Both roots at once, each its own process, neither waiting.
        let a = try Self.start(["scan", "--quiet", "--no-wait", "--jobs", "1", "--batch-size", "5", "--library", box.locator, r0])
        let b = try Self.start(["scan", "--quiet", "--no-wait", "--jobs", "1", "--batch-size", "5", "--library", box.locator, r1])
        a.waitUntilExit()
        b.waitUntilExit()
        #expect(a.terminationStatus == 0 && b.terminationStatus == 0)
        let index = try box.store()
        #expect(try index.count(MediaQuery()) == 60)
        #expect(Set(try index.roots()) == [MediaPath(r0), MediaPath(r1)])
    }

    @Test func theSamePathOnTwoHostsIsTwoRoots() throws {
        let box = try Sandbox(store: .postgres)
        for i in 0..<4 { try box.put(["a.mp3", "b.flac"][i % 2], at: "f\(i).\(["mp3", "flac"][i % 2])") }
        let (alphaHost, betaHost) = (["MLIB_HOST": "alpha", "MLIB_HOST_ID": "alpha-id"], ["MLIB_HOST": "beta", "MLIB_HOST_ID": "beta-id"])
        #expect(try Self.run(["scan", "--quiet", "--library", box.locator, box.music.path], environment: alphaHost) == 0)
        #expect(try Self.run(["scan", "--quiet", "--library", box.locator, box.music.path], environment: betaHost) == 0)
        let alpha = try PostgresIndex(try PostgresLocation(url: box.locator), identity: HostIdentity(id: "alpha-id", name: "alpha"))
        let beta = try PostgresIndex(try PostgresLocation(url: box.locator), identity: HostIdentity(id: "beta-id", name: "beta"))
        #expect(try alpha.roots() == [box.root()] && beta.roots() == [box.root()])
        #expect(try alpha.count(MediaQuery()) == 8, "queries read every host's items")
        // A file deleted on one host leaves that host's item only.
        try FileManager.default.removeItem(atPath: box.music.path + "/f0.mp3")
        #expect(try Self.run(["scan", "--quiet", "--library", box.locator], environment: alphaHost) == 0)
        #expect(try alpha.count(MediaQuery()) == 7)
        #expect(try beta.itemCount(under: box.root()) == 4)
    }

    /// `mlib watch` on PostgreSQL: changes show up with identity and ratings kept, and a scan waits while
    /// another process holds the root's lock (as a scan from another terminal or cron would).
    @Test func watchKeepsAPostgreSQLLibraryInStep() throws {
        let box = try Sandbox(store: .postgres)
        let a = try box.put("a.mp3", at: "Artist/01 A.mp3")
        let watcher = try WatchTests.Watcher(box, [box.music.path], library: box.locator)
        let index = try box.store()
        func eventually(_ condition: () throws -> Bool) throws -> Bool {
            let deadline = Date().addingTimeInterval(WatchTests.limit)
            while Date() < deadline {
                if try condition() { return true }
                usleep(50_000)
            }
            return false
        }
        let id = try #require(try index.item(path: a)).persistentID
        try index.setRating(id: id, 5)

        let b = try box.put("b.flac", at: "Artist/02 B.flac")
        #expect(try eventually { try index.item(path: b) != nil }, "added file not listed; \(watcher.stderr)")
        let renamed = MediaPath(box.music.path + "/Artist/01 A (live).mp3")
        try #require(rename(a.string, renamed.string) == 0)
        #expect(try eventually { try index.item(path: renamed).map { $0.persistentID == id && $0[.rating]?.integer == 5 } ?? false },
                "rename lost the item's identity; \(watcher.stderr)")

        // While another process holds the root's lock, the watcher's scan waits for it.
        var held: PostgresRootLock? = try PostgresRootLock(index: PostgresIndex(url: box.locator), roots: [box.root()], timeout: 0)
        let c = try box.put("c.ogg", at: "Artist/03 C.ogg")
        // What must not happen: the file scanned while the lock is held. The watcher's scan starts a debounce
        // after the change and then tries the lock every 0.1 s; a second past the debounce is ten tries.
        usleep(UInt32((WatchTests.debounce + 1) * 1_000_000))
        #expect(try index.item(path: c) == nil, "scanned while the root was locked")
        held = nil
        _ = held
        #expect(try eventually { try index.item(path: c) != nil }, "not scanned once the lock was released; \(watcher.stderr)")
        #expect(watcher.stop() == 130)
    }

    /// Runs mlib to the end; returns its status and standard error.
    static func runCapturing(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stderr: String) {
        let r = try ChildProcess.run(try CLIScanTests.mlib().path, arguments, environment: environment)
        return (r.status, r.stderr)
    }

    /// Waits for `process` at most `seconds`; kills it (and returns nil) past that.
    static func exitStatus(of process: SpawnedProcess, within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return nil
    }

    /// The server going away mid-scan (`pg_ctl stop -m immediate`) ends the scan in seconds with exit 3 and a
    /// SIGTERM sent meanwhile is honoured (the scan used to wait forever on a ROLLBACK over the dead
    /// connection); once the server is back, the next scan completes.
    @Test func aServerLostMidScanEndsTheScanAndTheNextOneCompletes() throws {
        let server = try PostgresTestServer.makeOwn()
        let locator = try server.makeDatabase()
        let box = try Sandbox()
        let total = 1_500
        try CLIScanTests.bigTree(box, count: total)
        for signal in [nil, SIGTERM] {
            let child = try Self.start(["scan", "--quiet", "--jobs", "1", "--batch-size", "5", "--library", locator, box.music.path])
            var committed = 0
            let deadline = Date().addingTimeInterval(60)
            while committed < 50 && child.isRunning && Date() < deadline {
                usleep(5_000)
                committed = (try? LibraryLocator(locator).open(.existing).count(MediaQuery())) ?? 0
            }
            #expect(child.isRunning, "the scan ended before the server was stopped")
            try server.stopImmediately()
            let stopped = Date()
            if let signal { kill(child.processIdentifier, signal) }
            let status = Self.exitStatus(of: child, within: 30)
            #expect(status == 3 || (signal != nil && status == 130), "status \(status.map(String.init) ?? "none: still running after 30 s")")
            #expect(-stopped.timeIntervalSinceNow < 15, "the scan took \(-stopped.timeIntervalSinceNow) s to notice")
            try server.start()
            // Clean up for the next round: the library as the killed scan left it, scanned again below.
        }
        #expect(try Self.run(["scan", "--quiet", "--library", locator]) == 0)
        #expect(try LibraryLocator(locator).open(.existing).count(MediaQuery()) == total)
    }

    /// `ls`, `stats`, `failures` and `root list` on a database that holds no library (even `postgres`): "no
    /// library at …", exit 3, nothing created; as on SQLite.
    @Test func readOnlyCommandsOnADatabaseWithoutALibraryCreateNothing() throws {
        let server = try #require(PostgresTestServer.shared)
        let locator = try server.makeDatabase()
        let shown = try PostgresLocation(url: locator).description
        for command in [["ls"], ["ls", "--count"], ["stats"], ["failures"], ["root", "list"]] {
            let (status, stderr) = try Self.runCapturing(command + ["--library", locator])
            #expect(status == 3 && stderr.contains("no library at \(shown)"), "\(command): \(status) \(stderr)")
        }
        #expect(throws: IndexError.noLibrary(database: shown), "the commands left a library behind") {
            try LibraryLocator(locator).open(.existing)
        }
    }

    /// The "waiting for another scan of …" line names the library without its password.
    @Test func theWaitingLineShowsNoPassword() throws {
        let box = try Sandbox(store: .postgres)
        try box.put("a.mp3", at: "a.mp3")
        let withPassword = box.locator.replacingOccurrences(of: "postgres://mlib@", with: "postgres://mlib:s3cret@")
        #expect(try Self.run(["scan", "--quiet", "--library", withPassword, box.music.path]) == 0)
        let held = try PostgresRootLock(index: PostgresIndex(url: box.locator), roots: [box.root()], timeout: 0)
        let (status, stderr) = try Self.runCapturing(["scan", "--wait-timeout", "1", "--library", withPassword])
        withExtendedLifetime(held) {}
        #expect(status == 3 && stderr.contains("waiting for another scan of postgres://mlib@"), "\(status) \(stderr)")
        #expect(!stderr.contains("s3cret"), "\(stderr)")
    }

    /// As `CLIScanTests.aScanWaitingForTheLockEndsOnSIGTERM`, waiting for a root's advisory lock.
    @Test func aScanWaitingForTheLockEndsOnSIGTERM() throws {
        let box = try Sandbox(store: .postgres)
        try box.put("a.mp3", at: "a.mp3")
        #expect(try Self.run(["scan", "--quiet", "--library", box.locator, box.music.path]) == 0)
        let held = try PostgresRootLock(index: PostgresIndex(url: box.locator), roots: [box.root()], timeout: 0)
        let (waiting, _, err) = try CLIScanTests.start(["scan", "--library", box.locator])
        try CLIScanTests.endWaitingScan(waiting, err)
        withExtendedLifetime(held) {}
    }

    @Test func locatorsReadTheLibpqVariables() throws {
        let env = ["PGHOST": "/run/pg", "PGPORT": "5433", "PGUSER": "ann", "PGDATABASE": "music", "MLIB_HOST": "den"]
        let bare = try PostgresLocation(url: "postgres://", environment: env)
        #expect(bare.endpoint == .unixSocket(path: "/run/pg/.s.PGSQL.5433"))
        #expect(bare.user == "ann" && bare.database == "music")
        #expect(try HostIdentity.current(environment: env.merging(["MLIB_HOST_ID": "den-id"]) { $1 }, database: "music").name == "den")
        let full = try PostgresLocation(url: "postgresql://bob:secret@nas:6000/lib", environment: env)
        #expect(full.endpoint == .tcp(host: "nas", port: 6000))
        #expect(full.user == "bob" && full.password == "secret" && full.database == "lib")
        #expect(!full.description.contains("secret"))
        let socket = try PostgresLocation(url: "postgres://mlib@%2Ftmp%2Fx/db", environment: [:])
        #expect(socket.endpoint == .unixSocket(path: "/tmp/x/.s.PGSQL.5432"))
        let query = try PostgresLocation(url: "postgres:///db?host=/var/pg&port=7", environment: [:])
        #expect(query.endpoint == .unixSocket(path: "/var/pg/.s.PGSQL.7") && query.database == "db")
    }
}

/// Issue 38, "the wrong file is touched": `mlib tag`, `play` and `analyze` on host B with a query selecting
/// host A's items (the same paths exist on B) wrote, played or measured B's own file at that path.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct OtherHostItemsCLITests {
    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let r = try ChildProcess.run(try CLIScanTests.mlib().path, arguments, environment: environment)
        return (r.status, r.stderr)
    }

    @Test func tagPlayAndAnalyzeRefuseAnotherHostsItems() throws {
        let box = try Sandbox(store: .postgres)
        let file = try box.put("a.mp3", at: "f.mp3")
        let (alpha, beta) = (["MLIB_HOST": "alpha", "MLIB_HOST_ID": "alpha-id"], ["MLIB_HOST": "beta", "MLIB_HOST_ID": "beta-id"])
        #expect(try Self.run(["scan", "--quiet", "--library", box.locator, box.music.path], environment: alpha).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file.string))
        let tag = try Self.run(["tag", "--yes", "--all", "--library", box.locator, "title=Written on beta"], environment: beta)
        #expect(tag.status == 1)
        #expect(tag.stderr.contains("cannot write tags: the item is a file of another host (\(file.string) is on 'alpha')"), "\(tag.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.string)) == before, "beta's file at alpha's path is untouched")
        let play = try Self.run(["play", "--sink", "null:fast", "--library", box.locator], environment: beta)
        #expect(play.status == 1 && play.stderr.contains("cannot play"), "\(play.stderr)")
        let analyze = try Self.run(["analyze", "--library", box.locator], environment: beta)
        #expect(analyze.status == 1 && analyze.stderr.contains("cannot analyze"), "\(analyze.stderr)")
        let index = try PostgresIndex(try PostgresLocation(url: box.locator), identity: HostIdentity(id: "alpha-id", name: "alpha"))
        let item = try #require(try index.item(path: file))
        #expect(item.playCount == 0 && item.title != "Written on beta" && item[.loudness] == nil, "nothing recorded on alpha's item")
        // On its own host the same command works.
        #expect(try Self.run(["tag", "--yes", "--all", "--library", box.locator, "title=Written on alpha"], environment: alpha).status == 0)
    }

    /// Issue 38: `mlib user add` on a second host without the key file made a new key silently.
    @Test func userAddOnAHostWithoutTheKeyFileIsRefused() throws {
        let box = try Sandbox(store: .postgres)
        let (first, second) = (box.url.appendingPathComponent("home-a").path, box.url.appendingPathComponent("home-b").path)
        for home in [first, second] { try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true) }
        _ = try box.store()     // the library's tables
        let add = try Self.run(["user", "add", "alice", "--password", "one", "--library", box.locator], environment: ["HOME": first, "XDG_CONFIG_HOME": ""])
        #expect(add.status == 0, "\(add.stderr)")
        let refused = try Self.run(["user", "add", "bob", "--password", "two", "--library", box.locator], environment: ["HOME": second, "XDG_CONFIG_HOME": ""])
        #expect(refused.status == 1 && refused.stderr.contains("copy it from the host where"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: second + "/.config/mlib/" + PostgresTestServer.databaseName(of: box.locator) + ".users-key"))
    }
}
