import Foundation
import MediaModel
import Testing
import TestSupport
@testable import TagWriting
#if canImport(Glibc)
import Glibc
#endif

/// Issue 39: an interrupted tag write was completed only when the next mlib command started, so a running
/// `mlib serve` (or `mlib watch`, or a Swift program) could read a half-written file; and `mlib tag`
/// stopped by Ctrl-C exited 130 without a word, leaving hidden copies for the next command.
@Suite(.serialized) final class InterruptedWriteTests: TagWritingSandbox {
    deinit { try? FileManager.default.removeItem(at: dir) }

    let dir: URL

    init() throws { dir = try TagFixtures.temporaryDirectory() }

    static let flac = TagFixtures.formats.first { $0.name == "flac" }!
    static let mp3 = TagFixtures.formats.first { $0.name == "mp3-id3v2.4" }!

    /// A crash in the middle of an in-place write (half the patches written, the journal entry left) while
    /// `mlib serve` runs: its `update` completes the write's undo before it reads the file, so the library
    /// never holds the half-written file's tags (before: the scan read the half-patched file).
    @Test(.enabled(if: ChildProcess.exists("mpc"), "mpc missing (scripts/install-deps.sh)"))
    func aRunningServerUndoesAnInterruptedWriteBeforeItReadsTheFile() throws {
        let music = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let path = try TagFixtures.make(Self.flac, in: music, name: "song")
        let library = dir.appendingPathComponent("library.sqlite").path
        try #require(try mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)
        let before = try bytes(path)
        // The server inherits the journal's location (ServeChild passes the test's environment on).
        let serve = try ServeChild(mlib: URL(fileURLWithPath: "/usr/bin/env"),
                                   arguments: environment.map { "\($0.key)=\($0.value)" }.sorted()
                                       + [ChildProcess.mlib.path, "serve", "--library", library, "--port", "0", "--sink", "null"])
        defer { serve.stop() }

        let fd = open(path, O_RDWR)
        defer { close(fd) }
        let original = try FileIdentity.of(fd: fd, path: path)
        let file = try TagFile(fd: fd, size: original.size, path: path)
        _ = file.setProperties(TagChange.apply(["title=Half Written", "artist=Nobody"].map { TagChange(argument: $0)! },
                                               to: file.properties, totalsApart: true))
        guard case .patches(let patches) = try file.render(), patches.count > 1 else { Issue.record("not in place in several patches"); return }
        var ranges: [(offset: Int64, old: [UInt8])] = []
        for patch in patches { ranges.append((patch.offset, FileIO.read(fd, count: patch.bytes.count, at: patch.offset)!)) }
        let entry = try TagJournal(directory: journal).recordUndo(path: MediaPath(path), file: original, ranges: ranges)
        for patch in patches.prefix(patches.count / 2) { _ = FileIO.writeAll(fd, patch.bytes, at: patch.offset) }
        close(entry.fd)                                    // the writer dies: its lock goes, the entry stays
        try #require(try bytes(path) != before)

        let update = try ChildProcess.run("mpc", ["-h", "127.0.0.1", "-p", String(serve.port), "--wait", "update"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try bytes(path) == before, "the server read the half-written file and left it so")
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal).isEmpty, "the journal entry is still there")
        #expect(try mlib(["ls", "--library", library, "-f", "$title"]).out == "Old\n")
    }

    /// SIGINT (Ctrl-C) in the middle of `mlib tag` over many files: the group being written is finished,
    /// the rest are not begun, mlib says so and exits 130; every file is wholly old or wholly new and no
    /// hidden copy or journal entry is left (before: killed at once, no message, copies left behind).
    @Test func ctrlCInTheMiddleOfATagSaysWhatWasDone() throws {
        let music = dir.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let one = try TagFixtures.make(Self.mp3, in: dir, name: "one")
        let count = 1_000                                  // 8 groups of 128: each rewritten (the lyrics outgrow the tag)
        var paths: [String] = []
        for i in 0..<count {
            let path = music.appendingPathComponent(String(format: "%04d.mp3", i)).path
            try FileManager.default.copyItem(atPath: one, toPath: path)
            paths.append(path)
        }
        let old = try bytes(paths[0])
        let process = try SpawnedProcess(ChildProcess.mlib.path, ["tag", "--yes", "title=New", "lyrics=" + String(repeating: "long lyrics ", count: 150),
                                                                  "--files"] + paths, environment: environment, stderr: .pipe)
        // Ctrl-C once the first file is written (a group is committed), long before the last.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, (try? bytes(paths[0])) == old { usleep(2_000) }
        kill(process.processIdentifier, SIGINT)
        let said = String(decoding: process.readToEnd().stderr, as: UTF8.self)
        let new = try bytes(paths[0])
        try #require(new != old, "the first file was never written")

        #expect(process.terminationReason == .exit && process.terminationStatus == 130,
                "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
        #expect(said.contains("interrupted:"), "\(said)")
        var written = 0
        for path in paths {
            let now = try bytes(path)
            #expect(now == old || now == new, "\(path) is neither old nor new")
            if now == new { written += 1 }
        }
        #expect(written > 0 && written < count, "written \(written) of \(count): the signal came too late to test")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: music.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "left \(hidden.prefix(3)) and \(max(0, hidden.count - 3)) more")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? [] == [], "journal left")
    }
}
