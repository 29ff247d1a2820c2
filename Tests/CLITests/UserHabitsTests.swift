import Foundation
import Testing

/// What a new user types out of habit from beets, mpc and the shell (issue 30): each habit either works
/// or fails with a message that says what to type instead.
@Suite(.serialized) struct UserHabitsTests {
    /// `mlib --library X ls` and `mlib root --library X list`, as `beet -l lib.db ls` and
    /// `mpc -h host status`: a global option before the subcommand.
    @Test func libraryOptionBeforeTheSubcommand() throws {
        let folder = try FixtureFolder("habits-global", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)

        let list = try CLI.run(["--library", folder.library, "ls", "-f", "$title"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.out == (try folder.mlib(["ls", "-f", "$title"])).out)
        let joined = try CLI.run(["--library=\(folder.library)", "ls", "--json"])
        #expect(joined.status == 0, "\(joined.stderr)")

        let roots = try CLI.run(["root", "--library", folder.library, "list"])
        #expect(roots.status == 0, "\(roots.stderr)")
        #expect(roots.out.contains(folder.music.lastPathComponent), "\(roots.out)")
        let defaultSubcommand = try CLI.run(["root", "--library", folder.library])
        #expect(defaultSubcommand.status == 0, "\(defaultSubcommand.stderr)")
        #expect(defaultSubcommand.out == roots.out)

        // Where it goes is documented.
        #expect(try CLI.run(["--help"]).out.contains("mlib --library X ls"))
    }

    /// `scan --dry-run` on an unchanged library listed every file as `+` although the scan reads none
    /// (issue 30, point 10): it judges each file by the scan's own rule (`FileVerdict`).
    @Test func aDryRunListsWhatTheScanWouldRead() throws {
        let folder = try FixtureFolder("habits-dry-run", copying: ["opus.opus", "mp3-id3v24.mp3"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)

        let unchanged = try folder.mlib(["scan", "--dry-run", folder.music.path])
        #expect(unchanged.status == 0)
        #expect(unchanged.out.isEmpty, "\(unchanged.out)")
        #expect(unchanged.stderr.contains("2 unchanged files not listed"), "\(unchanged.stderr)")

        // A touched file is read again (~), a new one is read (+), and --json says which.
        let touched = folder.music.appendingPathComponent("opus.opus").path
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: touched)
        try FileManager.default.copyItem(atPath: touched, toPath: folder.music.appendingPathComponent("copy.opus").path)
        let changed = try folder.mlib(["scan", "--dry-run", folder.music.path])
        #expect(changed.out.contains("~ \(touched)\n") && changed.out.contains("+ \(folder.music.path)/copy.opus\n"), "\(changed.out)")
        #expect(changed.stderr.contains("1 unchanged file not listed"), "\(changed.stderr)")
        let json = try folder.mlib(["scan", "--dry-run", "--json", folder.music.path])
        #expect(json.out.contains("\"verdict\": \"changed\"") && json.out.contains("\"verdict\": \"unchanged\""), "\(json.out)")
    }

    /// `mlib lss`, `mlib help nosuch`, `mlib playlist shw`: a usage error (2) naming the nearest command.
    @Test func mistypedSubcommandsSuggestTheNearest() throws {
        let top = try CLI.run(["lss"])
        #expect(top.status == 2)
        #expect(top.stderr.contains("unknown command 'lss'") && top.stderr.contains("did you mean 'ls'?"), "\(top.stderr)")

        let help = try CLI.run(["help", "nosuch"])
        #expect(help.status == 2, "\(help.out)")
        #expect(help.stderr.contains("unknown command 'nosuch'"), "\(help.stderr)")
        let helpTypo = try CLI.run(["help", "playlsit"])
        #expect(helpTypo.stderr.contains("did you mean 'playlist'?"), "\(helpTypo.stderr)")
        #expect(try CLI.run(["help", "playlist", "show"]).status == 0)

        let nested = try CLI.run(["playlist", "shw", "x"])
        #expect(nested.status == 2)
        #expect(nested.stderr.contains("did you mean 'show'?"), "\(nested.stderr)")
    }

    /// `--sort artist,yeer`: the key named, with the nearest, as a query's unknown field is.
    @Test func mistypedSortKeysSuggestTheNearest() throws {
        let folder = try FixtureFolder("habits-sort", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let typo = try folder.mlib(["ls", "--sort", "artist,yeer"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown sort key 'yeer'") && typo.stderr.contains("did you mean 'year'?"), "\(typo.stderr)")
    }

    /// `--sort year --sort artist` sorts by both, in that order (it kept only the last).
    @Test func repeatedSortOptionsAddKeys() throws {
        let folder = try FixtureFolder("habits-sort2", copying: ["opus.opus", "ogg-vorbis.ogg", "mp3-id3v24.mp3"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let twice = try folder.mlib(["ls", "-f", "$path", "--sort", "-title", "--sort", "path"])
        let once = try folder.mlib(["ls", "-f", "$path", "--sort", "-title,path"])
        let last = try folder.mlib(["ls", "-f", "$path", "--sort", "path"])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.out == once.out)
        #expect(once.out != last.out, "the fixtures' titles must order them differently from their paths")
    }

    /// `--repeat off` as `--shuffle off`; `--shuffle song` as `--group album`.
    @Test func playModesTakeTheSameWords() throws {
        let folder = try FixtureFolder("habits-modes", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        for arguments in [["--repeat", "off"], ["--repeat", "none"], ["--shuffle", "off"], ["--shuffle", "song"], ["--shuffle", "Albums"],
                          ["--repeat", "ONE"]] {
            let play = try folder.mlib(["play", "--dry-run"] + arguments)
            #expect(play.status == 0, "\(arguments): \(play.stderr)")
        }
        #expect(try folder.mlib(["play", "--dry-run", "--repeat", "sometimes"]).status == 2)
    }

    /// `added:-7d` (an exact instant: matches nothing) and `year-` (beets' sort suffix, searched as a word)
    /// are queries a user means otherwise: a warning says what to write, as for a lower-case `and`.
    @Test func plausibleTermsThatMatchNothingWarn() throws {
        let folder = try FixtureFolder("habits-terms", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let instant = try folder.mlib(["ls", "added:-7d"])
        #expect(instant.stderr.contains("added:-7d.."), "\(instant.stderr)")
        #expect(try folder.mlib(["ls", "added:-7d.."]).stderr.isEmpty)
        let sortSuffix = try folder.mlib(["ls", "year-"])
        #expect(sortSuffix.stderr.contains("--sort -year"), "\(sortSuffix.stderr)")
        let ascending = try folder.mlib(["ls", "artist+"])
        #expect(ascending.stderr.contains("--sort artist"), "\(ascending.stderr)")
    }

    /// `scan --forget X Y` forgot X and ignored Y, `--forget Y --failures` forgot nothing, both exit 0: now a
    /// usage error that says why, and nothing is forgotten.
    @Test func scanOptionsThatWouldBeIgnoredAreRefused() throws {
        let folder = try FixtureFolder("habits-scan", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let other = folder.dir.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        for arguments in [["--forget", folder.music.path, other], ["--forget", folder.music.path, "--failures"],
                          ["--failures", other], ["--dry-run", "--forget", folder.music.path]] {
            let scan = try folder.mlib(["scan"] + arguments)
            #expect(scan.status == 2, "\(arguments): \(scan.stderr)")
            #expect(!scan.stderr.contains("Usage: mlib <subcommand>"), "\(scan.stderr)")
        }
        #expect(try folder.mlib(["root", "list"]).out.contains(folder.music.path), "nothing was forgotten")
    }

    /// `play --start 3` printed `▶ 1/5` for item 3; `--repeat one` printed 1/2, 2/2, 1/2 for one item.
    @Test func playLinesShowTheItemsPosition() throws {
        let folder = try FixtureFolder("habits-position", copying: ["opus.opus", "ogg-vorbis.ogg", "mp3-id3v24.mp3"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let started = try folder.mlib(["play", "--sink", "null:fast", "--sort", "path", "--start", "2"])
        #expect(started.status == 0, "\(started.stderr)")
        let lines = started.out.split(separator: "\n").filter { $0.hasPrefix("▶") }.map { $0.split(separator: " ")[1] }
        #expect(lines == ["2/3", "3/3"], "\(started.out)")
    }

    /// "rated 1 item 4" read as a garbled sentence.
    @Test func rateSaysWhatItSet() throws {
        let folder = try FixtureFolder("habits-rate", copying: ["opus.opus"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let rate = try folder.mlib(["rate", "path:\(folder.music.path)", "4"])
        #expect(rate.status == 0, "\(rate.stderr)")
        #expect(rate.out == "rated 1 item: 4 stars\n")
    }
}
