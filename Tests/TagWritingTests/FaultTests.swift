import Foundation
import MediaModel
import Testing
import TestSupport
@testable import TagWriting

/// What must never damage a file: a read-only file, a file another program changed meanwhile, a full
/// disk, kill -9 at any moment of a many-file edit. After each, every file is wholly old or wholly new
/// (byte for byte) once the next mlib command ran, and the library agrees with the files.
@Suite(.serialized) final class FaultTests: TagWritingSandbox {
    deinit { try? FileManager.default.removeItem(at: dir) }

    let dir: URL

    init() throws { dir = try TagFixtures.temporaryDirectory() }

    var writer: TagWriter { TagWriter(journal: TagJournal(directory: journal)) }

    static let flac = TagFixtures.formats.first { $0.name == "flac" }!
    static let mp3 = TagFixtures.formats.first { $0.name == "mp3-id3v2.4" }!

    /// A FLAC file whose tag has padding (ffmpeg's 8 KiB), so that the short edits of a test are written
    /// in place.
    func paddedFLAC(_ name: String) throws -> String {
        try TagFixtures.make(Self.flac, in: dir, name: name)
    }

    /// A value no padding of ffmpeg's holds: the file must be rewritten.
    static let long = String(repeating: "long lyrics ", count: 150)


    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
    }

    static let edit = TagEdit(changes: ["title=New Title", "artist=New Artist", "MOOD=calm", "lyrics=" + long].map { TagChange(argument: $0)! })

    @Test func readOnlyFileIsRefused() throws {
        for path in [try paddedFLAC("in-place"), try TagFixtures.make(Self.mp3, in: dir, name: "rewrite")] {
            chmod(path, 0o444)
            let before = try bytes(path)
            let report = writer.edit(path, Self.edit, write: true)
            #expect(report.outcome == .failed)
            #expect(report.error?.contains("read-only") == true, "\(report.error ?? "")")
            #expect(try bytes(path) == before)
        }
        #expect(try leftovers().isEmpty)
    }

    /// Between reading and writing, another program replaces or rewrites the file: mlib refuses.
    @Test(arguments: ["in place", "rewrite"])
    func fileChangedMeanwhileIsRefused(_ kind: String) throws {
        let path = kind == "in place" ? try paddedFLAC("f") : try TagFixtures.make(Self.mp3, in: dir, name: "f")
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let original = try FileIdentity.of(fd: fd, path: path)
        let file = try TagFile(fd: fd, size: original.size, path: path)
        let changes = kind == "in place" ? Array(Self.edit.changes.prefix(3)) : Self.edit.changes
        _ = file.setProperties(TagChange.apply(changes, to: file.properties, totalsApart: file.keepsTotalsApart))
        let rendering = try file.render()
        if case .patches = rendering { #expect(kind == "in place") } else { #expect(kind == "rewrite") }
        // Another tagger writes its own version, as a new file renamed over this one.
        let other = dir.appendingPathComponent("other").path
        try FileManager.default.copyItem(atPath: path, toPath: other)
        try TagFixtures.python("import mutagen\nf = mutagen.File(p, easy=True); f['title'] = ['Theirs']; f.save()", other)
        rename(other, path)
        let theirs = try bytes(path)
        #expect(throws: TagWriteError.changedMeanwhile(path)) {
            try SafeFileWriter(journal: TagJournal(directory: journal)).write(rendering, to: MediaPath(path), original: original)
        }
        #expect(try bytes(path) == theirs)
        #expect(try leftovers().isEmpty)
    }

    /// A file-size limit (ulimit -f) fails the copy's write: the original stays, no copy is left.
    @Test func fileSizeLimitLeavesTheFile() throws {
        let path = try TagFixtures.make(Self.mp3, in: dir, name: "big", seconds: 4)
        let before = try bytes(path)
        let limitBlocks = before.count / 1024 / 2
        let r = try ChildProcess.run("/bin/bash", ["-c", "ulimit -f \(limitBlocks); exec \"$0\" \"$@\"", ChildProcess.mlib.path,
                                                  "tag", "--files", path, "lyrics=" + Self.long], environment: environment)
        #expect(r.status == 1)
        #expect(r.stderr.contains("no space left"), "\(r.stderr)")
        #expect(try bytes(path) == before)
        #expect(try leftovers().isEmpty)
    }

    /// A disk that fills (a small tmpfs, when mlib's tests run as root and may mount one). Where a tmpfs
    /// cannot be mounted the test says so (skipped, with the reason); fileSizeLimitLeavesTheFile covers the
    /// write path there.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func fullDiskLeavesTheFile() throws {
        let mountPoint = dir.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let source = try TagFixtures.make(Self.mp3, in: dir, name: "src", seconds: 4)
        let size = try bytes(source).count
        let mounted = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=\(size + size / 2)", "tmpfs", mountPoint.path])
        guard mounted.status == 0 else { try Test.cancel("no tmpfs here: \(mounted.stderr)") }
        defer { _ = try? ChildProcess.run("umount", [mountPoint.path]) }
        let path = mountPoint.appendingPathComponent("song.mp3").path
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let before = try bytes(path)
        let r = try mlib(["tag", "--files", path, "lyrics=" + Self.long])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no space left"), "\(r.stderr)")
        #expect(try bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint.path) == ["song.mp3"])
    }

    /// A crash after the in-place write, before the journal entry went (the worst moment, made exact here):
    /// the next mlib command writes the old bytes back.
    @Test func crashAfterInPlaceWriteIsUndone() throws {
        let path = try paddedFLAC("crash")
        let before = try bytes(path)
        let fd = open(path, O_RDWR)
        defer { close(fd) }
        let original = try FileIdentity.of(fd: fd, path: path)
        let file = try TagFile(fd: fd, size: original.size, path: path)
        _ = file.setProperties(TagChange.apply(Array(Self.edit.changes.prefix(3)), to: file.properties, totalsApart: true))
        guard case .patches(let patches) = try file.render() else { Issue.record("not in place"); return }
        let journal = TagJournal(directory: journal)
        var ranges: [(offset: Int64, old: [UInt8])] = []
        for patch in patches { ranges.append((patch.offset, FileIO.read(fd, count: patch.bytes.count, at: patch.offset)!)) }
        let entry = try journal.recordUndo(path: MediaPath(path), file: original, ranges: ranges)
        for patch in Array(patches.prefix(max(1, patches.count / 2))) { _ = FileIO.writeAll(fd, patch.bytes, at: patch.offset) }
        close(entry.fd)                                   // the process dies: its lock goes, the entry stays
        #expect(try bytes(path) != before)
        let next = try mlib(["fields"])
        #expect(next.stderr.contains("an interrupted mlib tag was undone"), "\(next.stderr)")
        #expect(try bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: self.journal).isEmpty)
    }

    /// An entry being written by a live mlib, in the moment between its creation and its lock (seen when two
    /// test suites shared a HOME): another command's recovery must leave it, or the writer's rename fails
    /// ("journal: No such file or directory"). A `.tmp` whose process is gone is still removed.
    @Test func recoveryLeavesAnEntryALiveProcessIsStillCreating() throws {
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
        let live = journal + "/\(getpid())-1.tmp"           // this process: alive, not locked yet
        let dead = journal + "/2147483646-1.tmp"             // no such process
        for path in [live, dead] { try Data("MLIB".utf8).write(to: URL(fileURLWithPath: path)) }
        TagJournal(directory: journal).recover()
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(!FileManager.default.fileExists(atPath: dead))
    }

    /// An entry is created under its final name and sealed (issue 50: no rename, one journal commit fewer
    /// per group). A crash before its fsync returned can leave it cut short or with blocks of zeros; nothing
    /// was written under it, so the next mlib command removes it and restores nothing (applied, such an
    /// entry would write its wrong "old bytes" over the file). An empty entry of a live writer (created, not yet
    /// locked) is left to it.
    @Test func anEntryCutShortIsRemovedAndRestoresNothing() throws {
        let path = try paddedFLAC("torn")
        let before = try bytes(path)
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
        // A complete entry whose "old bytes" (0xAA) would damage the file's first bytes, then cut or zeroed.
        let entry = try TagJournal(directory: dir.appendingPathComponent("scratch").path)
            .recordUndo(path: MediaPath(path), file: try FileIdentity.of(path: MediaPath(path)), ranges: [(0, [UInt8](repeating: 0xAA, count: 64))])
        let sealed = [UInt8](try bytes(entry.path))
        TagJournal(directory: dir.appendingPathComponent("scratch").path).finish(entry)
        let dead = "2147483646"
        try Data(sealed.dropLast(7)).write(to: URL(fileURLWithPath: journal + "/\(dead)-1.undo"))
        try Data(sealed.prefix(sealed.count - 64) + [UInt8](repeating: 0, count: 64)).write(to: URL(fileURLWithPath: journal + "/\(dead)-2.undo"))
        try Data([UInt8](repeating: 0, count: sealed.count)).write(to: URL(fileURLWithPath: journal + "/\(dead)-3.undo"))
        try Data().write(to: URL(fileURLWithPath: journal + "/\(dead)-4.pending"))
        let live = journal + "/\(getpid())-5.undo"
        try Data().write(to: URL(fileURLWithPath: live))

        let next = try mlib(["fields"])
        #expect(!next.stderr.contains("undone"), "\(next.stderr)")
        #expect(try bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal) == ["\(getpid())-5.undo"])
        // The same entry whole is applied: the seal is what told them apart.
        try Data(sealed).write(to: URL(fileURLWithPath: journal + "/\(dead)-6.undo"))
        unlink(live)
        let applied = try mlib(["fields"])
        #expect(applied.stderr.contains("an interrupted mlib tag was undone"), "\(applied.stderr)")
        #expect(try bytes(path) != before)
    }

    /// A crash while the rewritten copy is being made: the next mlib command removes the copy.
    @Test func crashDuringRewriteRemovesTheCopy() throws {
        let path = try TagFixtures.make(Self.mp3, in: dir, name: "crash")
        let before = try bytes(path)
        let copy = dir.appendingPathComponent(".crash.mp3.mlib-tag-test").path
        let entry = try TagJournal(directory: journal).recordPending(temporary: MediaPath(copy))
        try Data(before.prefix(1000)).write(to: URL(fileURLWithPath: copy))
        close(entry.fd)
        let next = try mlib(["fields"])
        #expect(next.stderr.contains("unfinished copy"), "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(try bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal).isEmpty)
    }

    /// A crash in the middle of a group's in-place writes (one journal entry for the group): the next mlib
    /// command writes every file of the group back, those written and those not yet.
    @Test func crashInAGroupUndoesEveryFile() throws {
        let paths = try (0..<4).map { try paddedFLAC("group\($0)") }
        let before = try paths.map(bytes)
        var records: [TagJournal.UndoRecord] = []
        var writes: [(fd: Int32, patches: [(offset: Int64, bytes: [UInt8])])] = []
        for path in paths {
            let fd = open(path, O_RDWR)
            let original = try FileIdentity.of(fd: fd, path: path)
            let file = try TagFile(fd: fd, size: original.size, path: path)
            _ = file.setProperties(TagChange.apply(Array(Self.edit.changes.prefix(3)), to: file.properties, totalsApart: true))
            guard case .patches(let patches) = try file.render() else { Issue.record("not in place"); return }
            records.append(.init(path: MediaPath(path), file: original, ranges: patches.map { ($0.offset, FileIO.read(fd, count: $0.bytes.count, at: $0.offset)!) }))
            writes.append((fd, patches))
        }
        let entry = try TagJournal(directory: journal).recordUndo(records)
        for write in writes.prefix(2) { for patch in write.patches { _ = FileIO.writeAll(write.fd, patch.bytes, at: patch.offset) } }
        for write in writes { close(write.fd) }
        close(entry.fd)                                   // the process dies between the second and third file
        #expect(try bytes(paths[0]) != before[0])
        let next = try mlib(["fields"])
        #expect(next.stderr.components(separatedBy: "an interrupted mlib tag was undone").count == 5, "\(next.stderr)")
        #expect(try paths.map(bytes) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: self.journal).isEmpty)
    }

    /// A crash while a group's copies are being made: the next mlib command removes every copy of the
    /// group (named by the entry's token in the entry's directories) and nothing else.
    @Test func crashDuringAGroupOfRewritesRemovesTheCopies() throws {
        let paths = try (0..<3).map { try TagFixtures.make(Self.mp3, in: dir, name: "g\($0)") }
        let entry = try TagJournal(directory: journal).recordPending(token: "tok", directories: [MediaPath(dir.path)])
        for path in paths.prefix(2) { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: TagJournal.copyPath(of: MediaPath(path), token: "tok").string)) }
        let unrelated = dir.appendingPathComponent(".keep.mp3.mlib-tag-other").path
        try Data([1]).write(to: URL(fileURLWithPath: unrelated))
        close(entry.fd)
        let next = try mlib(["fields"])
        #expect(next.stderr.components(separatedBy: "unfinished copy").count == 3, "\(next.stderr)")
        #expect(try leftovers() == [".keep.mp3.mlib-tag-other"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal).isEmpty)
    }

    /// A live mlib's entry (locked) is left alone by another mlib's recovery.
    @Test func liveEntryIsLeftAlone() throws {
        let path = try TagFixtures.make(Self.mp3, in: dir, name: "live")
        let entry = try TagJournal(directory: journal).recordUndo(path: MediaPath(path), file: try FileIdentity.of(path: MediaPath(path)), ranges: [(0, [0, 0, 0])])
        let before = try bytes(path)
        _ = try mlib(["fields"])
        #expect(try bytes(path) == before)
        #expect(FileManager.default.fileExists(atPath: entry.path))
        TagJournal(directory: journal).finish(entry)
    }

    /// kill -9 between the grouped steps of one group's commit (issue 50: the writeback of every file is
    /// started at once, then each file synced in turn), at each step made exact by `MLIB_TEST_TAG_KILL_AT`:
    /// 10 padded FLACs written in place and 10 MP3s rewritten, one group. After the next mlib command every
    /// file is wholly old or wholly new as the step implies (the in-place files old until their entry goes,
    /// the rewritten ones new once renamed), no hidden copy and no journal entry is left, and a scan gives
    /// the library each file's own title.
    @Test(arguments: [("undo-recorded", false, false), ("in-place-written", false, false), ("in-place-synced", false, false),
                      ("copies-synced", true, false), ("renamed", true, true)])
    func killBetweenTheGroupedSteps(_ point: String, _ inPlaceNew: Bool, _ rewrittenNew: Bool) throws {
        let originals = dir.appendingPathComponent("originals-\(point)")
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        let padded = try paddedFLAC("padded-\(point)"), plain = try TagFixtures.make(Self.mp3, in: dir, name: "plain-\(point)", seconds: 2)
        var names: [String] = []
        for i in 0..<20 {
            let name = i % 2 == 0 ? "\(i).flac" : "\(i).mp3"
            try FileManager.default.copyItem(atPath: i % 2 == 0 ? padded : plain, toPath: originals.appendingPathComponent(name).path)
            names.append(name)
        }
        let edit = ["title=Newer Title", "lyrics=" + Self.long]
        let reference = try ScannedCopy.make(of: originals, as: "reference-\(point)", in: dir, environment: environment)
        let full = try mlib(["tag", "--library", reference.library, "--all", "--yes"] + edit)
        try #require(full.status == 0, "\(full.stderr)")
        try #require(full.out.contains("10 in place, 10 rewritten"), "\(full.out)")

        let trial = try ScannedCopy.make(of: originals, as: "trial-\(point)", in: dir, environment: environment)
        var killed = environment
        killed["MLIB_TEST_TAG_KILL_AT"] = point
        let child = try SpawnedProcess(ChildProcess.mlib.path, ["tag", "--library", trial.library, "--all", "--yes"] + edit, environment: killed)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL,
                "\(point): \(child.terminationReason) \(child.terminationStatus): the step was not reached")

        let scan = try mlib(["scan", "--library", trial.library, trial.music.path])
        #expect(scan.status == 0, "\(point): \(scan.stderr)")
        for name in names {
            let now = try bytes(trial.music.appendingPathComponent(name).path)
            let expectNew = name.hasSuffix(".flac") ? inPlaceNew : rewrittenNew
            let want = try bytes((expectNew ? reference.music : originals).appendingPathComponent(name).path)
            #expect(now == want, "\(point): \(name) is not wholly \(expectNew ? "new" : "old")")
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: trial.music.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "\(point): left \(hidden)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? [] == [], "\(point): journal left")
        let listed = try mlib(["ls", "--library", trial.library, "-f", "$path\t$title"])
        for line in listed.out.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let expectNew = parts[0].hasSuffix(".flac") ? inPlaceNew : rewrittenNew
            #expect(parts[1] == (expectNew ? "Newer Title" : "Old"), "\(point): \(parts[0]) listed as \(parts[1])")
        }
    }

    /// kill -9 at random moments of a 20-file edit through a library (half in place, half rewritten):
    /// after the next mlib command every file is byte for byte its old or its new self, and after a scan the
    /// library shows each file's title. MLIB_TAG_FAULT_MOMENTS and MLIB_TAG_FAULT_FILES set how
    /// many moments and files (24 and 20 by default; 200 and 200 for the issue's figure).
    @Test func killAtRandomMoments() throws {
        let moments = Int(ProcessInfo.processInfo.environment["MLIB_TAG_FAULT_MOMENTS"] ?? "") ?? 24
        let count = Int(ProcessInfo.processInfo.environment["MLIB_TAG_FAULT_FILES"] ?? "") ?? 20
        // The originals, and what mlib makes of them (the same edit on a copy, run to its end).
        let originals = dir.appendingPathComponent("originals")
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        let padded = try paddedFLAC("padded"), plain = try TagFixtures.make(Self.mp3, in: dir, name: "plain", seconds: 2)
        var names: [String] = []
        for i in 0..<count {
            let name = i % 2 == 0 ? "\(i).flac" : "\(i).mp3"
            try FileManager.default.copyItem(atPath: i % 2 == 0 ? padded : plain, toPath: originals.appendingPathComponent(name).path)
            names.append(name)
        }
        // The MP3s (ffmpeg's tag, little room) are rewritten, the FLACs (4 KiB of padding) edited in place.
        let edit = ["title=Newer Title — ü", "artist+=Guest", "album!", "lyrics=" + Self.long]

        func fresh(_ name: String) throws -> (music: URL, library: String) {
            try ScannedCopy.make(of: originals, as: name, in: dir, environment: environment)
        }

        let reference = try fresh("reference")
        let started = Date()
        let full = try mlib(["tag", "--library", reference.library, "--all", "--yes"] + edit)
        let duration = Date().timeIntervalSince(started)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.out.contains("\(count / 2) in place, \(count / 2) rewritten"), "\(full.out)")
        var old: [String: Data] = [:], new: [String: Data] = [:]
        for name in names {
            old[name] = try bytes(originals.appendingPathComponent(name).path)
            new[name] = try bytes(reference.music.appendingPathComponent(name).path)
            #expect(old[name] != new[name])
        }

        var kills = RandomKill(duration: duration)
        for moment in 0..<moments {
            let trial = try fresh("trial")
            try kills.run(ChildProcess.mlib.path, ["tag", "--library", trial.library, "--all", "--yes"] + edit, environment: environment)

            // The next mlib command (a scan) recovers the journal first, then reads what changed.
            let scan = try mlib(["scan", "--library", trial.library, trial.music.path])
            #expect(scan.status == 0, "moment \(moment): \(scan.stderr)")
            var newCount = 0
            for name in names {
                let now = try bytes(trial.music.appendingPathComponent(name).path)
                #expect(now == old[name] || now == new[name], "moment \(moment): \(name) is neither old nor new")
                if now == new[name] { newCount += 1 }
            }
            kills.record(new: newCount, of: count)
            let hidden = try FileManager.default.contentsOfDirectory(atPath: trial.music.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "moment \(moment): left \(hidden)")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? [] == [], "moment \(moment): journal left")

            // The library agrees with the files.
            let listed = try mlib(["ls", "--library", trial.library, "-f", "$path\t$title"])
            #expect(listed.out.split(separator: "\n").count == count, "moment \(moment): \(listed.stderr)")
            for line in listed.out.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                let name = String(parts[0].split(separator: "/").last!)
                let isNew = try bytes(parts[0]) == new[name]
                #expect(parts[1] == (isNew ? "Newer Title — ü" : "Old"), "moment \(moment): \(name) listed as \(parts[1])")
            }
        }
        print("kill -9 at \(moments) moments of a \(count)-file edit (\(String(format: "%.0f", duration * 1000)) ms): \(kills.summary)")
    }
}

/// The journal's paths as hex: any byte (a name that is not UTF-8, a newline) back as it was.
@Suite struct JournalPathTests {
    @Test func pathsGoToHexAndBack() {
        for bytes: [UInt8] in [[], Array("/music/a.flac".utf8), [0x2F, 0xFF, 0x0A, 0x00, 0x80, 0xC3, 0xA9], Array(0...255)] {
            let path = MediaPath(bytes: bytes)
            let hex = TagJournal.hex(path)
            #expect(hex.utf8.count == bytes.count * 2 && hex == hex.lowercased())
            #expect(TagJournal.unhex(hex)?.bytes == bytes)
        }
        #expect(TagJournal.hex(MediaPath(bytes: [0x00, 0x0F, 0xA0, 0xFF])) == "000fa0ff")
    }
}
