import Foundation
import MediaIndex
import MediaModel
@testable import MediaScanner
@testable import MediaWatch
import Testing
import TestSupport

/// `mlib watch` as users run it, a child process on real inotify over temporary trees: each change must
/// show in `mlib ls` within the debounce time plus a second (`visibleWithin` allows more on a loaded
/// machine and records the latency), with identity and user data kept.
@Suite(.serialized) struct WatchTests {
    static let debounce = 0.3
    /// The issue's bound is debounce + 1 s; CI machines are slower and shared, so a test fails only past 8 s.
    static let limit = 8.0

    /// A running `mlib watch --json`, its scans read line by line.
    final class Watcher: @unchecked Sendable {
        let process: SpawnedProcess
        private let lock = NSLock()
        private var lines: [String] = []
        private var errors = ""

        /// `library`: another locator than the box's SQLite file (a PostgreSQL library).
        init(_ box: Sandbox, _ extra: [String] = [], library: String? = nil) throws {
            process = try SpawnedProcess(try CLIScanTests.mlib().path,
                                         ["watch", "--library", library ?? box.library, "--json", "--debounce", String(WatchTests.debounce)] + extra,
                                         stdout: .pipe, stderr: .pipe)
            process.standardOutput!.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.lines += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init) }
            }
            process.standardError!.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.errors += String(decoding: data, as: UTF8.self) }
            }
            // The first line is the initial scan: watches are set up by then.
            try #require(waitForScans(1, timeout: 20), "no initial scan; stderr: \(stderr)")
        }

        var scans: [String] { lock.withLock { lines } }
        var stderr: String { lock.withLock { errors } }

        func waitForScans(_ count: Int, timeout: Double) -> Bool {
            Poll.until(timeout: timeout, interval: 0.02) { scans.count >= count }
        }

        /// SIGTERM; returns the exit status.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
    }

    /// What `mlib ls --json` lists: path → (id, rating).
    static func listed(_ box: Sandbox, _ query: [String] = []) throws -> [String: (id: Int64, rating: Int?)] {
        let run = try CLIScanTests.run(["ls", "--library", box.library, "--json"] + query)
        let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
        var result: [String: (id: Int64, rating: Int?)] = [:]
        for row in rows {
            guard let path = row["path"] as? String, let id = row["persistentID"] as? Int64 ?? (row["persistentID"] as? Int).map(Int64.init) else { continue }
            result[path] = (id, row["rating"] as? Int)
        }
        return result
    }

    /// Added and updated counts of one `--json` line.
    static func counts(_ line: String) -> (added: Int, updated: Int) {
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        let summary = object?["summary"] as? [String: Any]
        return (summary?["added"] as? Int ?? 0, summary?["updated"] as? Int ?? 0)
    }

    /// What `ls` lists, for a failure message.
    static func dump(_ box: Sandbox) -> String {
        ((try? listed(box)) ?? [:]).map { "\($0.key) #\($0.value.id) rating \($0.value.rating.map(String.init) ?? "-")" }.sorted().joined(separator: "; ")
    }

    /// Waits until `condition` holds for what `ls` lists; returns the seconds it took (nil: it never did).
    static func visible(_ box: Sandbox, _ condition: ([String: (id: Int64, rating: Int?)]) -> Bool) throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < limit {
            if condition(try listed(box)) { return Date().timeIntervalSince(start) }
            usleep(50_000)
        }
        return nil
    }

    static func rate(_ box: Sandbox, _ path: MediaPath, _ rating: Int) throws -> Int64 {
        let index = try box.index()
        let id = try #require(try index.item(path: path)).persistentID
        try index.setRating(id: id, rating)
        return id
    }

    @Test func addRetagRenameMoveAndDeleteShowUpWithIdentityKept() async throws {
        let box = try Sandbox()
        let a = try box.put("a.mp3", at: "Artist/Album/01 Alpha.mp3")
        try box.put("b.flac", at: "Artist/Album/02 Bravo.flac")
        let watcher = try Watcher(box, [box.music.path])
        let aID = try Self.rate(box, a, 5)
        let m = box.music.path

        // Added.
        let c = try box.put("c.ogg", at: "Artist/Album/03 Charlie.ogg")
        #expect(try Self.visible(box) { $0[c.string] != nil } != nil, "added file not listed; \(watcher.stderr)")

        // Retagged in place (a tagger rewrites the file): same item, new title.
        try Templates.retag(a, title: "Alpha (Remastered)")
        #expect(try Self.visible(box) { _ in (try? box.index().item(path: a))??.title == "Alpha (Remastered)" } != nil)

        // Renamed, then moved to another directory: the same item, rating kept.
        let renamed = m + "/Artist/Album/01 Alpha (Remastered).mp3"
        try #require(rename(a.string, renamed) == 0)
        #expect(try Self.visible(box) { $0[renamed]?.id == aID && $0[a.string] == nil } != nil, "rename: \(Self.dump(box))")
        try FileManager.default.createDirectory(atPath: m + "/Artist/Singles", withIntermediateDirectories: true)
        let moved = m + "/Artist/Singles/Alpha.mp3"
        try #require(rename(renamed, moved) == 0)
        #expect(try Self.visible(box) { $0[moved]?.id == aID && $0[moved]?.rating == 5 && $0.count == 3 } != nil, "move: \(Self.dump(box))")

        // Deleted.
        try FileManager.default.removeItem(atPath: c.string)
        #expect(try Self.visible(box) { $0[c.string] == nil && $0.count == 2 } != nil)
        // A whole directory deleted: its items leave; the other stays with its rating.
        try FileManager.default.removeItem(atPath: m + "/Artist/Album")
        #expect(try Self.visible(box) { $0.count == 1 && $0[moved]?.rating == 5 } != nil, "\(Self.dump(box)); \(watcher.stderr)")
        #expect(watcher.stop() == 130)
    }

    /// Two recordings of the same audio (other tags), both indexed while watched: deleting one is a
    /// deletion; the other keeps its own id and rating (it used to take the deleted one's).
    @Test func deletingOneOfTwoRecordingsOfTheSameAudioLeavesTheOtherAlone() async throws {
        let box = try Sandbox()
        let first = try box.put("a.mp3", at: "Best Of/01 Alpha.mp3")
        try box.put("b.flac", at: "Best Of/02 Bravo.flac")
        let watcher = try Watcher(box, [box.music.path])
        let firstID = try Self.rate(box, first, 5)
        let second = box.music.path + "/Compilation/07 Alpha.mp3"
        try FileManager.default.createDirectory(atPath: box.path + "/tmp", withIntermediateDirectories: true)
        try Templates.ffmpeg(["-i", first.string, "-map", "0", "-c", "copy", "-metadata", "album=Compilation", box.path + "/tmp/07.mp3"])
        try FileManager.default.createDirectory(atPath: box.music.path + "/Compilation", withIntermediateDirectories: true)
        try #require(rename(box.path + "/tmp/07.mp3", second) == 0)
        #expect(try Self.visible(box) { $0[second] != nil } != nil)
        let secondID = try Self.rate(box, MediaPath(second), 2)
        try FileManager.default.removeItem(atPath: first.string)
        #expect(try Self.visible(box) { $0[first.string] == nil } != nil)
        let kept = try Self.listed(box)[second]
        #expect(kept?.id == secondID && kept?.rating == 2 && secondID != firstID, "\(Self.dump(box))")
        #expect(watcher.stop() == 130)
    }

    @Test func aWholeAlbumMovedWithinAndAcrossRootsKeepsItsItems() async throws {
        let box = try Sandbox()
        let r1 = box.music.path + "/r1", r2 = box.music.path + "/r2"
        let x = try box.put("a.mp3", at: "r1/Artist/Album/01.mp3")
        let y = try box.put("b.flac", at: "r1/Artist/Album/02.flac")
        try box.put("c.ogg", at: "r1/keep.ogg")
        try FileManager.default.createDirectory(atPath: r2, withIntermediateDirectories: true)
        try box.put("d.mp3", at: "r2/other.mp3")
        let watcher = try Watcher(box, [r1, r2])
        let xID = try Self.rate(box, x, 4), yID = try Self.rate(box, y, 2)

        // Within the root: the directory's watches follow it, its files keep their items.
        try #require(rename(r1 + "/Artist/Album", r1 + "/Artist/Album (1999)") == 0)
        #expect(try Self.visible(box) { $0[r1 + "/Artist/Album (1999)/01.mp3"]?.id == xID && $0[r1 + "/Artist/Album (1999)/02.flac"]?.id == yID && $0.count == 4 } != nil,
                "\(Self.dump(box))")
        // New files in the moved directory are seen (its watch has the new name).
        try box.put("d.mp3", at: "r1/Artist/Album (1999)/03.mp3")
        #expect(try Self.visible(box) { $0[r1 + "/Artist/Album (1999)/03.mp3"] != nil } != nil)

        // Across roots.
        try #require(rename(r1 + "/Artist/Album (1999)", r2 + "/Album (1999)") == 0)
        #expect(try Self.visible(box) { $0[r2 + "/Album (1999)/01.mp3"]?.id == xID && $0[r2 + "/Album (1999)/01.mp3"]?.rating == 4
            && $0[r2 + "/Album (1999)/02.flac"]?.id == yID && $0.count == 5 } != nil, "\(Self.dump(box))")
        #expect(watcher.stop() == 130)
    }

    @Test func aFileStillBeingWrittenIsReadOnceItIsComplete() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Album/01.mp3")
        let watcher = try Watcher(box, [box.music.path])
        // Twenty seconds of FLAC, written in four parts with pauses longer than the debounce time.
        let source = box.path + "/long.flac"
        try Templates.ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=20", "-metadata", "title=Long", source])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let target = box.music.path + "/Album/02 Long.flac"
        FileManager.default.createFile(atPath: target, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        let part = bytes.count / 4 + 1
        for start in stride(from: 0, to: bytes.count, by: part) {
            try handle.write(contentsOf: bytes[start..<min(start + part, bytes.count)])
            usleep(useconds_t(Self.debounce * 2.5 * 1_000_000))
        }
        try handle.close()
        #expect(try Self.visible(box) { $0[target] != nil } != nil)
        let item = try #require(try box.index().item(path: MediaPath(target)))
        #expect(abs((item.playbackDuration ?? 0) - 20) < 0.1 && item.title == "Long")
        #expect(try box.index().failures().isEmpty, "a partial file was read: \(String(describing: try? box.index().failures()))")
        // Read once, complete: no scan added it half written and then updated it.
        let counts = watcher.scans.dropFirst().map(Self.counts)
        #expect(counts.map(\.added).reduce(0, +) == 1 && counts.map(\.updated).reduce(0, +) == 0, "\(watcher.scans)")
        #expect(watcher.stop() == 130)
    }

    @Test func anIgnoreFileHidesAFolderAndRemovingItBringsTheSameItemsBack() async throws {
        let box = try Sandbox()
        let live = try box.put("a.mp3", at: "Live/01.mp3")
        try box.put("b.flac", at: "Studio/01.flac")
        let watcher = try Watcher(box, [box.music.path])
        let liveID = try Self.rate(box, live, 3)
        let ignore = box.music.path + "/.mlibignore"
        try "Live/\n".write(toFile: ignore, atomically: false, encoding: .utf8)
        #expect(try Self.visible(box) { $0[live.string] == nil && $0.count == 1 } != nil)
        try FileManager.default.removeItem(atPath: ignore)
        #expect(try Self.visible(box) { $0[live.string]?.id == liveID && $0[live.string]?.rating == 3 } != nil)
        #expect(watcher.stop() == 130)
    }

    @Test func aSymlinkedDirectoryIsWatchedThroughTheLink() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Album/01.mp3")
        let outside = box.path + "/elsewhere/Live"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: box.music.path + "/Live", withDestinationPath: outside)
        let watcher = try Watcher(box, [box.music.path])
        try FileManager.default.copyItem(at: try Templates.url("c.ogg"), to: URL(fileURLWithPath: outside + "/01.ogg"))
        #expect(try Self.visible(box) { $0[box.music.path + "/Live/01.ogg"] != nil } != nil, "\(Self.dump(box))")
        #expect(watcher.stop() == 130)
    }

    @Test func beyondTheWatchLimitDirectoriesAreRescannedPeriodically() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "A/01.mp3")
        try box.put("b.flac", at: "B/01.flac")
        let watcher = try Watcher(box, ["--max-watches", "1", "--fallback-interval", "1", box.music.path])
        #expect(watcher.stderr.contains("--max-watches 1 reached: 2 directories are not watched"), "\(watcher.stderr)")
        let added = try box.put("c.ogg", at: "B/02.ogg")
        #expect(try Self.visible(box) { $0[added.string] != nil } != nil)
        #expect(watcher.stop() == 130)
    }

    /// A scan from cron while the watcher runs: they take turns on the lock, both succeed, and the watcher
    /// goes on following changes.
    @Test func aScanFromCronAndTheWatcherTakeTurns() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Album/01.mp3")
        let watcher = try Watcher(box, [box.music.path])
        let added = try box.put("b.flac", at: "Album/02.flac")
        let cron = try CLIScanTests.run(["scan", "--quiet", "--library", box.library])
        #expect(cron.status == 0, "\(cron.stderr)")
        #expect(try Self.visible(box) { $0[added.string] != nil } != nil)
        let later = try box.put("c.ogg", at: "Album/03.ogg")
        #expect(try Self.visible(box) { $0[later.string] != nil } != nil)
        #expect(watcher.stop() == 130)
    }

    /// Events lost (the kernel's queue overflowed while the watcher was stopped): everything watched is
    /// rescanned and nothing is missed. The queue is made small for this watcher alone (the limit is read
    /// when an inotify instance is created, and restored at once). Needs root to set it; CI runs as root.
    @Test(.enabled(if: geteuid() == 0, "setting max_queued_events needs root"))
    func aQueueOverflowRescansEverythingWatched() async throws {
        let limitFile = "/proc/sys/fs/inotify/max_queued_events"
        let saved = try String(contentsOfFile: limitFile, encoding: .utf8)
        let box = try Sandbox()
        try box.put("a.mp3", at: "Album/01.mp3")
        try "16\n".write(toFile: limitFile, atomically: false, encoding: .utf8)
        let watcher: Watcher
        do {
            defer { try? saved.write(toFile: limitFile, atomically: false, encoding: .utf8) }
            watcher = try Watcher(box, [box.music.path])
        }
        kill(watcher.process.processIdentifier, SIGSTOP)
        for i in 0..<40 { try box.put(["b.flac", "c.ogg", "d.mp3"][i % 3], at: "Album/many\(i).\(["flac", "ogg", "mp3"][i % 3])") }
        // Its creation is among the lost events: only a rescan of everything finds it.
        try box.put("a.mp3", at: "Later/01.mp3")
        kill(watcher.process.processIdentifier, SIGCONT)
        #expect(try Self.visible(box) { $0.count == 42 } != nil, "\(Self.dump(box)); \(watcher.stderr)")
        // And the directory is watched from now on.
        let after = try box.put("b.flac", at: "Later/02.flac")
        #expect(try Self.visible(box) { $0[after.string] != nil } != nil)
        #expect(watcher.stderr.contains("queue overflow"), "\(watcher.stderr)")
        #expect(watcher.stop() == 130)
    }

    /// A disk bind-mounted inside the root, unmounted and mounted again: nothing removed, and a file added
    /// on it meanwhile is seen once it is back. Needs root (mount); CI runs as root.
    @Test(.enabled(if: geteuid() == 0, "mounting needs root"))
    func aDiskUnmountedAndMountedAgainKeepsItsItems() async throws {
        let box = try Sandbox()
        try box.put("a.mp3", at: "Local/01.mp3")
        let store = box.path + "/disk", disk = box.music.path + "/NAS"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Templates.url("b.flac"), to: URL(fileURLWithPath: store + "/01.flac"))
        try FileManager.default.copyItem(at: try Templates.url("c.ogg"), to: URL(fileURLWithPath: store + "/02.ogg"))
        // Root in a container without CAP_SYS_ADMIN cannot mount: said, not passed silently.
        guard run("/bin/mount", ["--bind", store, disk]) == 0 else { try Test.cancel("mount --bind failed here (no CAP_SYS_ADMIN?)") }
        defer { run("/bin/umount", ["-l", disk]) }
        let watcher = try Watcher(box, [box.music.path])
        let onDisk = disk + "/01.flac"
        let id = try Self.rate(box, MediaPath(onDisk), 5)

        try #require(run("/bin/umount", [disk]) == 0)
        try #require(watcher.waitForScans(2, timeout: Self.limit), "no scan after the unmount; \(watcher.stderr)")
        #expect(try Self.listed(box)[onDisk]?.id == id, "items of an unmounted disk removed: \(Self.dump(box))")
        #expect(watcher.stderr.contains("nothing removed"), "\(watcher.stderr)")

        try FileManager.default.copyItem(at: try Templates.url("d.mp3"), to: URL(fileURLWithPath: store + "/03.mp3"))
        try #require(run("/bin/mount", ["--bind", store, disk]) == 0)
        #expect(try Self.visible(box) { $0[disk + "/03.mp3"] != nil && $0[onDisk]?.id == id && $0[onDisk]?.rating == 5 } != nil,
                "\(Self.dump(box)); \(watcher.stderr)")
        // Watching resumed on the mounted disk: a change there is seen.
        try FileManager.default.removeItem(atPath: disk + "/02.ogg")
        #expect(try Self.visible(box) { $0[disk + "/02.ogg"] == nil } != nil)
        #expect(watcher.stop() == 130)
    }
}

/// Unit checks of the watcher's parts that need no process.
struct WatchPartsTests {
    @Test func mountinfoEscapesAreDecoded() {
        #expect(MountTable.unescape(ArraySlice(Array(#"/media/My\040Disk\134x"#.utf8))) == Array("/media/My Disk\\x".utf8))
    }

    @Test func changesWaitForTheDebounceAndForFilesBeingWritten() {
        var options = WatchOptions()
        options.debounce = 1
        options.maxDelay = 10
        options.stableAfter = 5
        var changes = ChangeSet()
        let t0 = Date(timeIntervalSince1970: 1_000)
        changes.touch(MediaPath("/m/a"), at: t0)
        changes.writing(MediaPath("/m/b/big.flac"), at: t0)
        changes.touch(MediaPath("/m/b"), at: t0)
        #expect(changes.take(at: t0.addingTimeInterval(0.5), options).isEmpty)
        #expect(changes.take(at: t0.addingTimeInterval(1), options) == [MediaPath("/m/a")])
        #expect(changes.nextDue(options) == t0.addingTimeInterval(5))
        changes.closed(MediaPath("/m/b/big.flac"))
        #expect(changes.take(at: t0.addingTimeInterval(1.1), options) == [MediaPath("/m/b")])
        #expect(changes.isEmpty)
    }
}
