import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
@testable import MediaScanner
import Testing
import TestSupport

/// `mlib scan` as a child process: signals, SIGKILL part-way, the lock, JSON and exit codes.
struct CLIScanTests {
    /// The mlib executable built next to this test bundle.
    static func mlib() throws -> URL {
        let testBinary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var directory = testBinary.deletingLastPathComponent()
        if directory.path.hasSuffix(".xctest") || directory.lastPathComponent == "MacOS" { directory.deleteLastPathComponent() }
        let url = directory.appendingPathComponent("mlib")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "mlib not built at \(url.path)")
        return url
    }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// `mlib` started with its standard output and error piped (their reading ends returned).
    static func start(_ arguments: [String]) throws -> (SpawnedProcess, FileHandle, FileHandle) {
        let process = try SpawnedProcess(try mlib().path, arguments, stdout: .pipe, stderr: .pipe)
        return (process, process.standardOutput!, process.standardError!)
    }

    static func run(_ arguments: [String]) throws -> Run {
        let r = try ChildProcess.run(try mlib().path, arguments)
        return Run(status: r.status, stdout: r.out, stderr: r.stderr)
    }

    /// Items committed so far, read with the sqlite3 tool (read-only, so it cannot disturb the scan).
    static func committedItems(_ library: String) -> Int {
        guard let r = try? ChildProcess.run("/usr/bin/sqlite3", ["-readonly", library, "SELECT COUNT(*) FROM items"]) else { return 0 }
        return Int(r.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// A tree of `count` real media files (copies of the templates) in 10-file directories.
    static func bigTree(_ box: Sandbox, count: Int) throws {
        for i in 0..<count {
            let template = ["a.mp3", "b.flac", "c.ogg", "d.mp3"][i % 4]
            try box.put(template, at: "dir\(i / 10)/file\(i).\(template.split(separator: ".")[1])")
        }
    }

    /// Interrupts a child scan part-way with `signal`, then checks the index, resumes, and compares the
    /// result with a clean scan of the same files.
    func interruptAndResume(signal: Int32, expectedStatus: Int32?) throws {
        let total = 600
        // SIGTERM lets the scan save what it has read, and on an idle machine the readers may have read
        // every file by the time the sqlite3 poll sees the first commit: then the scan was not caught
        // part-way and the resume is not exercised. Such a try starts again on a fresh tree (a few at most).
        var box = try Sandbox()
        for attempt in 1...5 {
            box = try Sandbox()
            try Self.bigTree(box, count: total)
            let (child, _, _) = try Self.start(["scan", "--quiet", "--jobs", "1", "--batch-size", "5", "--library", box.library, box.music.path])
            var committed = 0
            let deadline = Date().addingTimeInterval(60)
            while committed == 0 && child.isRunning && Date() < deadline {
                usleep(5_000)
                committed = Self.committedItems(box.library)
            }
            // Frozen at once, so the scan cannot run on to the end while the signal is sent (on a loaded machine
            // the sqlite3 poll is slow enough for that); SIGKILL needs no resume, others are seen on SIGCONT.
            kill(child.processIdentifier, SIGSTOP)
            kill(child.processIdentifier, signal)
            kill(child.processIdentifier, SIGCONT)
            child.waitUntilExit()
            if let expectedStatus { #expect(child.terminationStatus == expectedStatus) }
            #expect(committed > 0 && committed < total, "the scan was not caught part-way (\(committed) of \(total))")

            let afterKill = try box.index()
            #expect(try afterKill.integrityCheck() == "ok")
            let saved = try afterKill.count(MediaQuery())
            if saved < total { break }
            #expect(attempt < 5, "every try's scan had read all \(total) files before the signal")
        }

        let resumed = try Self.run(["scan", "--quiet", "--library", box.library])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let clean = try Sandbox()
        let cleanRun = try Self.run(["scan", "--quiet", "--library", clean.library, box.music.path])
        #expect(cleanRun.status == 0, "\(cleanRun.stderr)")

        let index = try box.index()
        #expect(try index.integrityCheck() == "ok")
        #expect(try index.count(MediaQuery()) == total)
        #expect(try itemsNotFoundByTitle(index).isEmpty)
        let (resumedState, cleanState) = (try snapshot(index), try snapshot(clean.index()))
        #expect(resumedState.count == cleanState.count)
        let firstDifference = zip(resumedState, cleanState).first { $0 != $1 }
        #expect(firstDifference == nil, "resumed: \(firstDifference?.0 ?? "")\nclean:   \(firstDifference?.1 ?? "")")
        #expect(try index.items(MediaQuery()).map(\.path).count == Set(try index.items(MediaQuery()).map(\.path)).count)
    }

    @Test func aScanKilledPartWayResumesToTheSameIndexAsACleanScan() throws {
        try interruptAndResume(signal: SIGKILL, expectedStatus: nil)
    }

    @Test func sigtermStopsAfterTheCurrentBatchWithStatus130() throws {
        try interruptAndResume(signal: SIGTERM, expectedStatus: 130)
    }

    @Test func aSecondScanWaitsOrExitsWithAClearMessage() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        var held: ScanLock? = try ScanLock(libraryPath: box.library, timeout: 0)

        let refused = try Self.run(["scan", "--no-wait", "--library", box.library, box.music.path])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("another scan is running"))
        let started = Date()
        let timedOut = try Self.run(["scan", "--wait-timeout", "0.3", "--library", box.library, box.music.path])
        #expect(timedOut.status == 3 && Date().timeIntervalSince(started) >= 0.3)
        #expect(timedOut.stderr.contains("waiting for another scan"))

        // A waiting scan proceeds once the lock is released.
        let (waiting, _, _) = try Self.start(["scan", "--quiet", "--library", box.library, box.music.path])
        // Still waiting, not done: it tries the lock every 0.1 s (ScanLock), three tries in 0.3 s.
        usleep(300_000)
        #expect(waiting.isRunning)
        held = nil
        _ = held
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0)
        #expect(try box.index().count(MediaQuery()) == 1)
    }

    /// A scan waiting for another one's lock ends on SIGTERM within a poll of the lock (0.1 s), with 143 as
    /// the signal's default action would, having written nothing (it waited forever before).
    @Test func aScanWaitingForTheLockEndsOnSIGTERM() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        let held = try ScanLock(libraryPath: box.library, timeout: 0)
        let (waiting, _, err) = try Self.start(["scan", "--library", box.library, box.music.path])
        try Self.endWaitingScan(waiting, err)
        withExtendedLifetime(held) {}
    }

    /// Sends SIGTERM to a scan once it says it waits; expects exit 143 within a second.
    static func endWaitingScan(_ waiting: SpawnedProcess, _ err: FileHandle) throws {
        let lines = err
        var said = ""
        while !said.contains("waiting for another scan") {
            let chunk = lines.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        #expect(said.contains("waiting for another scan"), "\(said)")
        // Past its first tries of the lock (every 0.1 s), it is still waiting, not ended.
        usleep(200_000)
        #expect(waiting.isRunning)
        let sent = Date()
        kill(waiting.processIdentifier, SIGTERM)
        while waiting.isRunning && Date().timeIntervalSince(sent) < 5 { usleep(10_000) }
        let took = Date().timeIntervalSince(sent)
        if waiting.isRunning { kill(waiting.processIdentifier, SIGKILL) }
        waiting.waitUntilExit()
        #expect(waiting.terminationReason == .exit && waiting.terminationStatus == 143, "\(waiting.terminationReason) \(waiting.terminationStatus)")
        #expect(took < 1, "ended \(took) s after SIGTERM")
    }

    @Test func concurrentScansNeverInterleave() throws {
        let box = try Sandbox()
        try Self.bigTree(box, count: 40)
        let children = try (0..<3).map { _ in try Self.start(["scan", "--quiet", "--library", box.library, box.music.path]).0 }
        for child in children { child.waitUntilExit(); #expect(child.terminationStatus == 0) }
        let index = try box.index()
        #expect(try index.count(MediaQuery()) == 40)
        #expect(try index.integrityCheck() == "ok")
    }

    @Test func jsonSummaryStatsAndFailures() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        try box.put("b.flac", at: "b.flac")
        try Data().write(to: box.music.appendingPathComponent("empty.mp3"))
        let scan = try Self.run(["scan", "--json", "--library", box.library, box.music.path])
        #expect(scan.status == 1)                                         // one file failed
        #expect(scan.stderr.contains("empty.mp3: empty file"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        for key in ["added", "updated", "moved", "removed", "unchanged", "failed", "elapsed", "filesPerSecond", "failures"] {
            #expect(summary[key] != nil, "no \(key)")
        }
        #expect(summary["added"] as? Int == 2 && summary["failed"] as? Int == 1)
        let failures = try #require(summary["failures"] as? [[String: Any]])
        #expect(failures.first?["code"] as? String == "empty")

        let watcher = try box.index()
        let version = try watcher.textRows("PRAGMA data_version")
        let rescan = try Self.run(["scan", "--library", box.library])
        #expect(rescan.status == 0)
        #expect(rescan.stdout.contains("3 unchanged"))
        #expect(try watcher.textRows("PRAGMA data_version") == version, "an unchanged rescan wrote to the library")

        let stats = try Self.run(["stats", "--json", "--library", box.library])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["items"] as? Int == 2 && object["failures"] as? Int == 1)
        let text = try Self.run(["stats", "--library", box.library])
        #expect(text.stdout.contains("Items:      2"))

        let listed = try Self.run(["failures", "--library", box.library])
        #expect(listed.stdout.hasSuffix("empty.mp3: empty file (0 bytes) [empty]\n"))
        let json = try Self.run(["scan", "--failures", "--json", "--library", box.library])
        #expect((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.count == 1)
    }

    @Test func silentOffATerminalAndForgetRemovesARoot() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        let run = try Self.run(["scan", "--library", box.library, box.music.path])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)                                       // no progress line on a pipe
        #expect(run.stdout.hasPrefix("1 added, 0 updated, 0 moved, 0 removed, 0 unchanged, 0 failed in "))
        #expect(try Self.run(["scan", "--quiet", "--library", box.library]).stdout.isEmpty)

        let forget = try Self.run(["scan", "--forget", box.music.path, "--library", box.library])
        #expect(forget.status == 0)
        #expect(try box.index().roots().isEmpty)
        #expect(try box.index().count(MediaQuery()) == 0)
    }

    @Test func aMissingRootExitsOneAndBadArgumentsTwo() throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "a.mp3")
        #expect(try Self.run(["scan", "--quiet", "--library", box.library, box.music.path]).status == 0)
        try FileManager.default.moveItem(at: box.music, to: box.url.appendingPathComponent("away"))
        let missing = try Self.run(["scan", "--library", box.library])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothing removed"))
        #expect(try box.index().count(MediaQuery()) == 1)
        #expect(try Self.run(["scan", "--library", box.library, box.url.appendingPathComponent("nope").path]).status == 1)
        #expect((try Self.run(["scan", "--jobs", "0", "--library", box.library]).status) == 2)
        // No library at the path: 3 (nothing created); a library without roots: a usage error.
        let empty = try Sandbox()
        #expect(try Self.run(["scan", "--library", empty.library]).status == 3)
        #expect(!FileManager.default.fileExists(atPath: empty.library))
        #expect(try Self.run(["playlist", "create", "P", "--library", empty.library]).status == 0)
        #expect(try Self.run(["scan", "--library", empty.library]).status == 2)
    }
}
