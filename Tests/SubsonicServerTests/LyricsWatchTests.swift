import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 41's watch line: a sidecar `.lrc` added next to an indexed file (then changed, then removed) is
/// visible in `mlib lyrics` and in the API's `getLyricsBySongId` within 2 s, with `mlib watch` (its default
/// debounce, 1 s) and `mlib serve` running as users run them, on both stores. The scan the watcher runs is
/// `mlib scan`'s, which compares the folder's sidecars with those it recorded (`LyricsSidecars`): there is
/// no watch-only path to test, so this holds the whole chain, inotify to the API's answer.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing (scripts/install-deps.sh)"))
struct LyricsWatchTests {
    /// The issue's bound.
    static let bound = 2.0

    /// A running `mlib watch --json`, its scan lines counted.
    final class Watcher: @unchecked Sendable {
        let process: SpawnedProcess
        private let lock = NSLock()
        private var lines = 0
        private var errors = ""

        init(library: String, directory: String) throws {
            process = try SpawnedProcess(Paths.mlib.path, ["watch", "--library", library, "--json", directory], stdout: .pipe, stderr: .pipe)
            process.standardOutput!.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.lines += data.filter { $0 == UInt8(ascii: "\n") }.count }
            }
            process.standardError!.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.errors += String(decoding: data, as: UTF8.self) }
            }
            // The first line is the initial scan: the watches are set up by then.
            try #require(Poll.until(timeout: 30, interval: 0.02) { self.lock.withLock { self.lines } >= 1 },
                         "no initial scan; stderr: \(stderr)")
        }

        var stderr: String { lock.withLock { errors } }

        deinit {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// The synced lines' texts `mlib lyrics --json` prints for the item at `path` (nil: no synced set).
    static func cliLines(_ library: TestLibrary, _ path: String) throws -> [String]? {
        let run = try mlib(["lyrics", "--json", "--library", library.library, "path == \"\(path)\""])
        let files = (try? JSONSerialization.jsonObject(with: run.stdout)) as? [[String: Any]] ?? []
        let synced = (files.first?["lyrics"] as? [[String: Any]])?.first { $0["synced"] as? Bool == true }
        return (synced?["lines"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
    }

    /// The synced set's lines (start ms, text) `getLyricsBySongId` answers for `id` (nil: no synced set).
    static func apiLines(_ port: Int, _ id: String) async throws -> [String]? {
        let answer = try await http("http://127.0.0.1:\(port)/rest/getLyricsBySongId?id=\(id)&f=json&\(BothServeProcess.auth)")
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        let list = ((object?["subsonic-response"] as? [String: Any])?["lyricsList"] as? [String: Any])?["structuredLyrics"] as? [[String: Any]]
        let synced = list?.first { $0["synced"] as? Bool == true }
        return (synced?["line"] as? [[String: Any]])?.map { "\($0["start"] as? Int ?? -1) \($0["value"] as? String ?? "")" }
    }

    /// Seconds until both the CLI and the API show `expected` (nil: no synced set), or nil past `limit`.
    static func visible(_ library: TestLibrary, path: String, id: String, port: Int, cli: [String]?, api: [String]?,
                        since start: Date, limit: Double = 10) async throws -> Double? {
        var cliAt: Date?, apiAt: Date?
        while Date().timeIntervalSince(start) < limit {
            if cliAt == nil, try cliLines(library, path) == cli { cliAt = Date() }
            if apiAt == nil, try await apiLines(port, id) == api { apiAt = Date() }
            if let cliAt, let apiAt { return max(cliAt, apiAt).timeIntervalSince(start) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    static func seconds(_ value: Double?) -> String { value.map { String(format: "%.2f s", $0) } ?? "never" }

    @Test(arguments: Store.available)
    func aSidecarAddedChangedAndRemovedIsServedWithinTwoSeconds(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let folder = library.music.appendingPathComponent("Sung")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let song = folder.appendingPathComponent("song.flac")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=6", "-metadata", "title=Watched Song",
                                                   song.path])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        let id = try mlib(["ls", "-f", "$persistentID", "title:\"Watched Song\"", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!id.isEmpty)
        #expect(try Self.cliLines(library, song.path) == nil)

        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let watcher = try Watcher(library: library.library, directory: library.music.path)
        let sidecar = folder.appendingPathComponent("song.lrc")

        // Added.
        var start = Date()
        try Data("[00:01.00]One\n[00:02.50]Two\n".utf8).write(to: sidecar)
        let added = try await Self.visible(library, path: song.path, id: id, port: server.port, cli: ["One", "Two"],
                                           api: ["1000 One", "2500 Two"], since: start)
        print("◇ \(store): sidecar added, seen by mlib lyrics and getLyricsBySongId after \(Self.seconds(added))")
        let addedInTime = (added ?? .infinity) < Self.bound
        #expect(addedInTime, "added: \(Self.seconds(added)); watch: \(watcher.stderr)")

        // Changed in place (same size, same inode: only the mtime tells), with an [offset:].
        start = Date()
        try Data("[offset:500]\n[00:01.00]Uno\n[00:02.50]Dos\n".utf8).write(to: sidecar)
        let changed = try await Self.visible(library, path: song.path, id: id, port: server.port, cli: ["Uno", "Dos"],
                                             api: ["500 Uno", "2000 Dos"], since: start)
        print("◇ \(store): sidecar changed, seen after \(Self.seconds(changed))")
        let changedInTime = (changed ?? .infinity) < Self.bound
        #expect(changedInTime, "changed: \(Self.seconds(changed)); watch: \(watcher.stderr)")

        // Removed.
        start = Date()
        try FileManager.default.removeItem(at: sidecar)
        let removed = try await Self.visible(library, path: song.path, id: id, port: server.port, cli: nil, api: nil, since: start)
        print("◇ \(store): sidecar removed, gone after \(Self.seconds(removed))")
        let removedInTime = (removed ?? .infinity) < Self.bound
        #expect(removedInTime, "removed: \(Self.seconds(removed)); watch: \(watcher.stderr)")

        // The item kept its id throughout.
        #expect(try mlib(["ls", "-f", "$persistentID", "title:\"Watched Song\"", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines) == id)
    }

    /// An audio file renamed away from its sidecar (the .lrc keeps the old stem) is the same item, and no
    /// longer has the sidecar's lyrics; the sidecar renamed after it brings them back.
    @Test(arguments: Store.available)
    func anAudioFileRenamedAwayFromItsSidecarLosesItsLyrics(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let folder = library.music.appendingPathComponent("Sung")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let song = folder.appendingPathComponent("song.flac")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=6", "-metadata", "title=Renamed Song",
                                                   song.path])
        try #require(made.status == 0, "\(made.stderr)")
        try Data("[00:01.00]One\n".utf8).write(to: folder.appendingPathComponent("song.lrc"))
        try #require(try mlib(["scan", "-q", "--library", library.library, library.music.path]).status == 0)
        let id = try mlib(["ls", "-f", "$persistentID", "title:\"Renamed Song\"", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(try Self.cliLines(library, song.path) == ["One"])

        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let watcher = try Watcher(library: library.library, directory: library.music.path)
        let renamed = folder.appendingPathComponent("renamed.flac")
        var start = Date()
        try #require(rename(song.path, renamed.path) == 0)
        let lost = try await Self.visible(library, path: renamed.path, id: id, port: server.port, cli: nil, api: nil, since: start)
        print("◇ \(store): audio renamed away from its sidecar, lyrics gone after \(Self.seconds(lost))")
        #expect(lost != nil, "the renamed item still has the old name's sidecar lyrics; watch: \(watcher.stderr)")
        #expect(try mlib(["ls", "-f", "$persistentID", "title:\"Renamed Song\"", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines) == id, "the rename lost the item's id")

        start = Date()
        try #require(rename(folder.appendingPathComponent("song.lrc").path, folder.appendingPathComponent("renamed.lrc").path) == 0)
        let back = try await Self.visible(library, path: renamed.path, id: id, port: server.port, cli: ["One"], api: ["1000 One"], since: start)
        print("◇ \(store): sidecar renamed after it, lyrics back after \(Self.seconds(back))")
        #expect(back != nil, "watch: \(watcher.stderr)")
    }
}
