import Foundation
import Testing
import TestSupport

/// What still tripped a new user after the first round of issue 30 (points 5, 6, 8, 11 and 13): the play
/// queue's start, a directory given to `play --files`, messages that pointed the wrong way, the order of
/// `--group albums`, and the rough edges of output and manual.
@Suite(.serialized) struct RoughEdgesTests {
    /// `play --dry-run --start 2` marks the item that plays first (it listed the queue with no mark).
    @Test func aDryRunMarksTheStartingItem() throws {
        let folder = try FixtureFolder("edges-start", copying: ["opus.opus", "ogg-vorbis.ogg", "mp3-id3v24.mp3"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let lines = try folder.mlib(["play", "--dry-run", "--sort", "path", "--start", "2"]).out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.map { $0.hasPrefix("▶") } == [false, true, false], "\(lines)")
        let plain = try folder.mlib(["play", "--dry-run", "--sort", "path"]).out.split(separator: "\n")
        #expect(plain.map { $0.hasPrefix("▶") } == [true, false, false], "\(plain)")
    }

    /// `play --files DIR` plays the media files below DIR in path order, as `info DIR` reads them (it said
    /// "Is a directory (skipped)" and exited 1).
    @Test func playFilesTakesADirectory() throws {
        let folder = try FixtureFolder("edges-dir", copying: ["opus.opus", "ogg-vorbis.ogg", "mp3-id3v24.mp3"], as: ["b.opus", "a.ogg", "c.mp3"])
        defer { folder.remove() }
        try Data("not audio".utf8).write(to: folder.music.appendingPathComponent("notes.txt"))
        let play = try folder.mlib(["play", "--files", "--dry-run", folder.music.path])
        #expect(play.status == 0, "\(play.stderr)")
        let info = try CLI.run(["info", "-f", "$title", folder.music.path])
        let queued = play.out.split(separator: "\n"), read = info.out.split(separator: "\n")
        #expect(queued.count == 3 && read.count == 3, "\(play.out)")
        #expect(zip(queued, read).allSatisfy { $0.contains($1) } && queued[0].contains("Café"), "\(play.out) vs \(info.out)")
        let played = try folder.mlib(["play", "--files", "--sink", "null:fast", folder.music.path])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.out.split(separator: "\n").filter { $0.hasPrefix("▶") }.count == 3, "\(played.out)")
    }

    /// A file that is missing or a folder that cannot be read is one line and makes the exit status 1, as
    /// `mlib info` does, while the rest plays (it said so on stderr and exited 0).
    @Test func playFilesSaysWhatItLeftOutInItsStatus() throws {
        let folder = try FixtureFolder("edges-missing", copying: ["opus.opus"], as: ["a.opus"])
        defer { folder.remove() }
        let missing = folder.music.appendingPathComponent("gone.flac").path
        let play = try folder.mlib(["play", "--files", "--dry-run", folder.music.appendingPathComponent("a.opus").path, missing])
        #expect(play.status == 1, "\(play.stderr)")
        #expect(play.stderr.contains("gone.flac: no such file") && play.out.split(separator: "\n").count == 1, "\(play.out)")
        let played = try folder.mlib(["play", "--files", "--sink", "null:fast", folder.music.appendingPathComponent("a.opus").path, missing])
        #expect(played.status == 1, "\(played.stderr)")
        if geteuid() != 0 {   // root reads any folder
            let locked = folder.music.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            chmod(locked.path, 0)
            defer { chmod(locked.path, 0o755) }
            let partial = try folder.mlib(["play", "--files", "--dry-run", folder.music.path])
            #expect(partial.status == 1, "\(partial.stderr)")
        }
    }

    /// A usage error found while running names the command's own usage, not `mlib <subcommand>`.
    @Test func usageErrorsNameTheCommand() throws {
        let folder = try FixtureFolder("edges-usage", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let past = try folder.mlib(["play", "--dry-run", "--start", "5"])
        #expect(past.status == 2)
        #expect(!past.stderr.contains("<subcommand>") && past.stderr.contains("Usage: mlib play"), "\(past.stderr)")
    }

    /// `playlist show NoSuch` and `rate … 7` blamed the library (its path led the line).
    @Test func messagesAboutTheInputDoNotNameTheLibrary() throws {
        let folder = try FixtureFolder("edges-names", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        for arguments in [["playlist", "show", "NoSuch"], ["rate", "path:\(folder.music.path)", "7"], ["playlist", "play", "NoSuch", "--dry-run"]] {
            let r = try folder.mlib(arguments)
            #expect(r.status != 0)
            #expect(!r.stderr.contains(folder.library), "\(arguments): \(r.stderr)")
        }
        #expect(try folder.mlib(["playlist", "show", "NoSuch"]).stderr.hasPrefix("mlib: no playlist named \"NoSuch\""))
    }

    /// `set lastPlayedDate=2024-01-01` takes the ISO forms a query takes (`QueryLiterals.timestamp`).
    @Test func setTakesTheDatesQueriesTake() throws {
        let folder = try FixtureFolder("edges-date", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let set = try folder.mlib(["set", "lastPlayedDate=2024-01-02", "--all"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try folder.mlib(["ls", "-f", "$path", "lastplayed:2024-01-02"]).out.contains(folder.music.path))
        #expect(try folder.mlib(["set", "lastplayed=2024-01-02T10:30", "--all"]).status == 0)
        #expect(try folder.mlib(["set", "lastplayed=-7d", "--all"]).status == 0)
        let bad = try folder.mlib(["set", "lastplayed=yesterday", "--all"])
        #expect(bad.status == 2 && bad.stderr.contains("2024-01-01"), "\(bad.stderr)")
        let tag = try folder.mlib(["set", "title=Foo", "--all"])
        #expect(tag.status == 2 && tag.stderr.contains("mlib tag"), "\(tag.stderr)")
    }

    /// An import whose name is taken says so first, with the two ways out, before any entry is judged.
    @Test func anImportIntoATakenNameSaysSoFirst() throws {
        let folder = try FixtureFolder("edges-import", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        #expect(try folder.mlib(["playlist", "create", "party"]).status == 0)
        let file = folder.dir.appendingPathComponent("party.m3u")
        try Data("/nowhere/a.mp3\n\(folder.music.path)/opus.opus\n".utf8).write(to: file)
        let r = try folder.mlib(["playlist", "import", file.path])
        #expect(r.status == 1)
        let first = r.stderr.split(separator: "\n").first ?? ""
        #expect(first.contains("party") && first.contains("--replace") && first.contains("--name"), "\(r.stderr)")
        #expect(!r.stderr.contains("/nowhere"), "\(r.stderr)")
        #expect(try folder.mlib(["playlist", "import", "--name", "party2", file.path]).out.contains("imported 1 of 2"))
    }

    /// `--group albums` lists albums by album artist, then album, as `beet ls -a` (it was by album title).
    @Test func albumsAreListedByAlbumArtistThenAlbum() throws {
        let folder = try FixtureFolder("edges-albums", copying: ["mp3-id3v1.mp3", "mp3-id3v24.mp3", "flac-vorbis-cover.flac", "m4a-aac-cover.m4a"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let albums = try folder.mlib(["ls", "--group", "albums"])
        #expect(albums.out == "ID3v1 Band - Version One (1)\nThe Fixtures - Test Pressing (1)\nVarious Artists - Test Pressing (1)\nКино - Группа крови — Déjà vu (1)\n",
                "\(albums.out)")
        #expect(try CLI.run(["ls", "--help"]).out.contains("by album artist, then album"))
    }

    /// "; 1 playlist files mirrored" ended every scan line although nothing changed.
    @Test func aScanMentionsPlaylistsOnlyWhenOneChanged() throws {
        let folder = try FixtureFolder("edges-mirror", copying: ["opus.opus"])
        defer { folder.remove() }
        try Data("opus.opus\n".utf8).write(to: folder.music.appendingPathComponent("party.m3u"))
        let first = try folder.mlib(["scan", folder.music.path])
        #expect(first.out.contains("1 playlist file mirrored"), "\(first.out)")
        let again = try folder.mlib(["scan", folder.music.path])
        #expect(again.status == 0)
        #expect(!again.out.contains("mirrored"), "\(again.out)")
    }

    /// "watching 1 directories": the count agrees with its noun.
    @Test func watchCountsDirectoriesInEnglish() throws {
        let folder = try FixtureFolder("edges-watch", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let log = folder.dir.appendingPathComponent("watch.err")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let watch = try SpawnedProcess(CLI.binary.path, ["watch", "--library", folder.library, "--json"], stderr: .file(log.path))
        defer { watch.terminate(); watch.waitUntilExit() }
        var text = ""
        for _ in 0..<200 where !text.contains("watching") {
            Thread.sleep(forTimeInterval: 0.1)
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        #expect(text.contains("watching 1 directory ("), "\(text)")
    }

    /// `play --sink pcm | head -c 1000` ends as every command does when its reader goes: status 141, no message.
    @Test func aClosedPipeEndsPlayQuietly() throws {
        let file = CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path
        let stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("edges-pipe-\(UUID().uuidString)").path
        let shell = try ChildProcess.run("/bin/bash", ["-c", "'\(CLI.binary.path)' play --files --sink pcm '\(file)' 2>\"$0\" | head -c 1000 >/dev/null; echo ${PIPESTATUS[0]}",
                                                       stderrFile])
        let status = shell.out
        #expect(status == "141\n")
        // Standard error has the play line ("▶ 1/1 …", standard output being the audio), and no error.
        let stderr = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
        #expect(!stderr.contains("mlib:") && !stderr.contains("Broken pipe"), "\(stderr)")
        try? FileManager.default.removeItem(atPath: stderrFile)
    }

    /// `mlib info -` reads standard input, as ffprobe does (it said "no such file").
    @Test func infoReadsStandardInput() throws {
        let file = CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac")
        let shell = try SpawnedProcess(CLI.binary.path, ["info", "-f", "$title|$format", "-"], stdin: .file(file.path), stdout: .pipe, stderr: .pipe)
        let (output, errorOutput) = shell.readToEnd()
        let text = String(decoding: output, as: UTF8.self), error = String(decoding: errorOutput, as: UTF8.self)
        let direct = try CLI.run(["info", "-f", "$title|$format", file.path])
        #expect(shell.terminationStatus == 0, "\(error)")
        #expect(text == direct.out && !text.isEmpty, "\(text) vs \(direct.out)")
        let json = try CLI.run(["info", "--help"])
        #expect(json.out.contains("standard input"))
    }

    /// mlib(1) as `man` renders it: `mlib serve` on its own line, the stats paragraph with its spaces, the
    /// lock file's real name, and every key `scan --json` prints named in its paragraph.
    @Test func theManualRendersAndNamesWhatIsReal() throws {
        // -P-bou: plain text, without grotty's overstruck bold and underline.
        let rendered = try ChildProcess.run("/usr/bin/groff", ["-man", "-Tutf8", "-P-bou", "-rLL=100n", CLI.repo.appendingPathComponent("man/mlib.1").path]).out
        let lines = rendered.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasPrefix("mlib serve [options]") }, "mlib serve shares a line in the synopsis")
        #expect(!lines.contains { $0.hasPrefix("mlib fields") && $0.contains("mlib serve") })
        let flowing = rendered.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(flowing.contains("(in the units of mlib info), number of recorded failures, partial reads"), "the stats paragraph lost its spaces")

        let raw = try String(contentsOf: CLI.repo.appendingPathComponent("man/mlib.1"), encoding: .utf8)
        let folder = try FixtureFolder("edges-lock", copying: ["opus.opus"])
        defer { folder.remove() }
        let scan = try folder.mlib(["scan", "--json", folder.music.path])
        let lockName = try FileManager.default.contentsOfDirectory(atPath: folder.dir.path).first { $0.hasSuffix(".lock") }
        let manText = HelpAndManualTests.runningText(raw)
        #expect(manText.contains(try #require(lockName)), "mlib(1) names the lock \(lockName ?? "?")")

        let summary = try #require(try JSONSerialization.jsonObject(with: scan.stdout) as? [String: Any])
        let jsonParagraph = try #require(manText.range(of: "--json Print the summary as a JSON object").map { String(manText[$0.lowerBound...].prefix(1_500)) })
        for key in summary.keys {
            #expect(jsonParagraph.contains(key), "scan --json key \(key) is not documented")
        }
    }
}
