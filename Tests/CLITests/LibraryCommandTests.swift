import Foundation
import Testing
import TestSupport

/// The main job end to end through the real binary: scan the fixtures into a fresh library, query it,
/// export and re-import a playlist, keep a static playlist across a rescan.
@Suite(.serialized) struct LibraryCommandTests {
    let dir: URL
    let library: String

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        library = dir.appendingPathComponent("library.sqlite").path
        // The odd and damaged files of Fixtures/odd have their own scan test (ScanInfoAgreementTests); the
        // counts here are about the tagged fixtures.
        let scan = try CLI.run(["scan", "--quiet", "--exclude", "odd/", "--library", library, CLI.fixtures.path])
        // The bad fixtures fail; everything else is indexed.
        #expect(scan.status == 1, "\(scan.stderr)")
    }

    func mlib(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--library", library]) }

    /// The `path` of each item in a JSON array, in order.
    func paths(_ r: CLI.Result) throws -> [String] {
        let items = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        return items.map { $0["path"] as? String ?? "?" }
    }

    func goodFixtureCount() throws -> Int {
        let data = try Data(contentsOf: CLI.fixtures.appendingPathComponent("expected.json"))
        let files = (try JSONSerialization.jsonObject(with: data) as! [String: Any])["files"] as! [String: [String: Any]]
        return files.filter { !$0.key.hasPrefix("odd/") && !($0.value["error"] is String) }.count
    }

    @Test func everyReadableFixtureIsListed() throws {
        let r = try mlib(["ls", "--json"])
        #expect(r.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        let expected = try goodFixtureCount()
        #expect(items.count == expected)
        #expect(try mlib(["ls", "--count"]).out == "\(items.count)\n")
    }

    @Test func defaultLinesLeaveOutWhatIsNotTagged() throws {
        let lines = try mlib(["ls"]).out.split(separator: "\n").map(String.init)
        #expect(lines.contains("mp3-notags.mp3"), "an untagged file shows its name")
        #expect(!lines.contains { $0.hasPrefix(" - ") || $0.hasSuffix(" - ") || $0.contains(" -  - ") })
        let albums = try mlib(["ls", "--group", "albums"]).out.split(separator: "\n")
        #expect(albums.contains("(none) (1)"), "an untagged file's album line shows no artist")
        #expect(!albums.contains { $0.hasPrefix(" - ") })
    }

    @Test func bothQueryFormsAgree() throws {
        let short = try mlib(["ls", "--paths", "artist:кино"]).out
        let format = try mlib(["ls", "--paths", #"artist ==[cd] "КИНО""#]).out
        #expect(!short.isEmpty)
        #expect(short == format)
        #expect(try mlib(["ls", "--count", "artist:кино", "year:2000..2005"]).out == "2\n")
    }

    @Test func syntaxErrorPointsAtThePosition() throws {
        let r = try mlib(["ls", #"title CONTAINS "x" AND"#])
        #expect(r.status == 2)
        #expect(r.stderr.contains("position"))
        #expect(r.stderr.contains("^"))
    }

    @Test func groupedAlbumsCountTheirItems() throws {
        let r = try mlib(["ls", "--group", "albums", "--json"])
        #expect(r.status == 0)
        #expect(r.out.contains("Test Pressing"))
    }

    /// `--sort -added` is read as a value by every command that sorts (it was a usage error in ls and play).
    @Test func aDescendingSortKeyWorksInEveryCommand() throws {
        #expect(try mlib(["playlist", "create", "Sorted"]).status == 0)
        for args in [["ls", "--sort", "-added"], ["play", "--dry-run", "--sink", "null", "--sort", "-added"],
                     ["export", "--sort", "-added"], ["playlist", "add", "Sorted", "year:2003", "--sort", "-added"],
                     ["playlist", "smart", "Recent", "year:2003", "--sort", "-added"],
                     ["playlist", "export", "Sorted", "--sort", "-year", "--limit", "1", "--title", "Best"],
                     ["ls", "--group", "albums", "--sort", "-count"]] {
            let r = try mlib(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
    }

    /// The README's `ls --group albums --sort artist` sorts the albums by artist (it was by title), and a
    /// group line's template sees the first item's stream facts.
    @Test func groupsHonourSortAndCarryStreamFacts() throws {
        let lines = try mlib(["ls", "--group", "albums", "--sort", "artist", "-f", "${albumArtist}|${artist}"]).out
            .split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let artists = lines.map { $0[0].isEmpty ? $0[1] : $0[0] }.filter { !$0.isEmpty }
        #expect(artists.count > 2)
        #expect(artists == artists.sorted { $0.lowercased() < $1.lowercased() }, "\(artists)")
        let byCount = try mlib(["ls", "--group", "albums", "--sort", "-count", "-f", "$count"]).out.split(separator: "\n").compactMap { Int($0) }
        #expect(byCount == byCount.sorted(by: >) && byCount.count > 2, "\(byCount)")
        let facts = try mlib(["ls", "--group", "albums", "-f", "$duration|$container"]).out.split(separator: "\n")
        #expect(!facts.isEmpty && facts.allSatisfy { !$0.hasPrefix("|") && !$0.hasSuffix("|") }, "\(facts)")
        let exported = try mlib(["playlist", "export", "Nope"])
        #expect(exported.status == 1)
    }

    /// User data from the command line: rate, clear, set and reset play counts; ls shows and selects them.
    @Test func rateAndSetChangeUserData() throws {
        #expect(try mlib(["rate", "artist:кино", "4"]).status == 0)
        let rated = try mlib(["ls", "--count", "rating >= 4"]).out
        #expect(rated == (try mlib(["ls", "--count", "artist:кино"]).out) && rated != "0\n")
        #expect(try mlib(["set", "plays=7", "skips=2", "artist:кино"]).status == 0)
        #expect(Set(try mlib(["ls", "-f", "$playCount/$skipCount", "artist:кино"]).out.split(separator: "\n")) == ["7/2"])
        #expect(try mlib(["set", "plays=", "--all"]).status == 0)
        #expect(try mlib(["ls", "--count", "playCount > 0"]).out == "0\n")
        #expect(try mlib(["rate", "artist:кино", "--clear"]).status == 0)
        #expect(try mlib(["ls", "--count", "rating >= 1"]).out == "0\n")
        #expect(try mlib(["rate", "artist:nobody-at-all", "3"]).status == 1)
        #expect(try mlib(["rate", "artist:кино", "6"]).status == 2)
        #expect(try mlib(["set", "plays=-1", "artist:кино"]).status == 2)
        #expect(try mlib(["set", "plays=0"]).status == 2, "no query and no --all")
    }

    /// Plays count only where someone may be listening (a real-time device): a null, WAV or PCM rendering
    /// would inflate play counts, unless --record-plays asks for it (failed before: every sink counted).
    @Test func onlyDevicePlaybackCountsPlaysUnlessAsked() throws {
        #expect(try mlib(["set", "plays=", "skips=", "--all"]).status == 0)
        #expect(try mlib(["play", "artist:кино", "--sink", "null:fast"]).status == 0)
        #expect(try mlib(["ls", "--count", "playCount > 0"]).out == "0\n")
        #expect(try mlib(["play", "artist:кино", "--sink", "null:fast", "--record-plays"]).status == 0)
        #expect(try mlib(["ls", "--count", "playCount > 0"]).out == (try mlib(["ls", "--count", "artist:кино"]).out))
    }

    @Test func fieldsListsEveryPropertyWithItsAliases() throws {
        let r = try CLI.run(["fields", "--json"])
        #expect(r.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(rows.count > 40)
        let album = try #require(rows.first { $0["name"] as? String == "albumTitle" })
        #expect((album["aliases"] as? [String])?.contains("album") == true)
        #expect(try CLI.run(["fields"]).out.contains("playCount"))
    }

    /// `export -o` writes through a symlink; an export that matches nothing leaves the file alone (exit 1).
    @Test func exportKeepsSymlinksAndNeverEmptiesAPlaylist() throws {
        let target = dir.appendingPathComponent("real.m3u8"), link = dir.appendingPathComponent("link.m3u8")
        try Data("#EXTM3U\n/old\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.m3u8")
        #expect(try mlib(["export", "artist:кино", "-o", link.path]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.m3u8", "still a link")
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.contains(".") && !written.contains("/old"))
        let empty = try mlib(["export", "artist:nobody-at-all", "-o", link.path])
        #expect(empty.status == 1)
        #expect(try String(contentsOf: target, encoding: .utf8) == written, "a good playlist kept")
    }

    /// MPD's saved playlists hold paths relative to its music directory, with blank space a hand edit left.
    @Test func importResolvesAgainstABaseDirectoryAndTrimsEntries() throws {
        let list = dir.appendingPathComponent("mpd.m3u")
        try Data("  mp3-id3v24.mp3  \n\topus.opus\n\n".utf8).write(to: list)
        let r = try mlib(["playlist", "import", "--base", CLI.fixtures.path, "--name", "FromMPD", list.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try mlib(["playlist", "show", "FromMPD"]).out.split(separator: "\n").count == 2)
    }

    /// ArgumentParser's completion scripts: query terms complete to property names, playlist arguments to
    /// the playlists of the library on the command line.
    @Test func shellCompletionsKnowPropertiesAndPlaylists() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLI.run(["--generate-completion-script", shell])
            #expect(script.status == 0)
            #expect(script.out.contains("albumArtist:") && script.out.contains("---completion"), "\(shell)")
        }
        #expect(try mlib(["playlist", "create", "Completed"]).status == 0)
        let names = try CLI.run(["---completion", "playlist", "show", "--", "positional@0", "5", "0",
                                 "mlib", "playlist", "show", "--library", library, ""])
        #expect(names.out.split(separator: "\n").contains("Completed"), "\(names.out) \(names.stderr)")
    }

    /// The smaller ones: -j4 as -j 4, a relative XDG_DATA_HOME ignored, raw PCM refused on a terminal,
    /// untagged files listed by path.
    @Test func smallerPromisesKept() throws {
        let untagged = dir.appendingPathComponent("untagged")
        try FileManager.default.createDirectory(at: untagged, withIntermediateDirectories: true)
        for name in ["c.mp3", "a.mp3", "b.mp3"] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("mp3-notags.mp3"), to: untagged.appendingPathComponent(name))
        }
        #expect(try mlib(["scan", "-j4", "--quiet", untagged.path]).status == 0)
        let listed = try mlib(["ls", "--paths", "path:\(untagged.path)/"]).out.split(separator: "\n").map { ($0 as NSString).lastPathComponent }
        #expect(listed == ["a.mp3", "b.mp3", "c.mp3"])
        let relative = try CLI.run(["ls"], environment: ["XDG_DATA_HOME": "relative", "MLIB_LIBRARY": "", "HOME": dir.path], cwd: dir)
        #expect(relative.stderr.contains(dir.path + "/.local/share/mlib/library.sqlite"), "\(relative.stderr)")
        let script = try ChildProcess.run("/usr/bin/script", ["-qec", "\(CLI.binary.path) play --sink pcm --library \(library)", "/dev/null"])
        #expect(script.status == 2, "raw audio refused on a terminal")
    }

    /// The first scan of a library shows an ETA too: the index has no estimate, so the files are counted
    /// beside the walk (the progress line shows on a terminal: run under script(1)).
    @Test func aFirstScanShowsAnETA() throws {
        let music = dir.appendingPathComponent("many")
        // Enough directories for several progress lines (one at most every 0.1 s, between directories): 4,000
        // files, as a debug build reads 1,000 tiny ones in about 0.13 s, before a second line is due.
        for d in 0..<100 {
            let sub = music.appendingPathComponent("d\(d)")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            for i in 0..<40 {
                try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("mp3-id3v1.mp3"), to: sub.appendingPathComponent("f\(i).mp3"))
            }
        }
        let fresh = dir.appendingPathComponent("fresh.sqlite").path
        let script = try ChildProcess.run("/usr/bin/script", ["-qec", "\(CLI.binary.path) scan -j1 --library \(fresh) \(music.path)", "/dev/null"])
        let terminal = script.out
        #expect(script.status == 0)
        #expect(terminal.contains("ETA"), "\(terminal.replacingOccurrences(of: "\r", with: "\n").suffix(500))")
    }

    /// Every pretty JSON output has one form, `"key": value` (stats, failures and scan printed `"key" : value`).
    @Test func prettyJSONHasOneFormInEveryCommand() throws {
        #expect(try mlib(["playlist", "create", "JSON : form"]).status == 0)
        for args in [["stats", "--json"], ["failures", "--json"], ["scan", "--failures", "--json"], ["playlist", "list", "--json"],
                     ["scan", "--dry-run", "--json"]] {
            let r = try mlib(args)
            #expect(r.status == 0, "\(args)")
            #expect(!r.out.contains("\" : "), "\(args): \(r.out.prefix(200))")
            #expect(r.out.contains("\": "), "\(args)")
            #expect((try? JSONSerialization.jsonObject(with: r.stdout)) != nil, "\(args)")
        }
        #expect(try mlib(["playlist", "list", "--json"]).out.contains("\"JSON : form\""), "colons inside strings are kept")
    }

    @Test func exportThenImportKeepsItemsAndOrder() throws {
        for format in ["m3u8", "pls", "xspf", "jspf", "json"] {
            let file = dir.appendingPathComponent("all.\(format)").path
            let export = try mlib(["export", "--format", format, "-o", file, "--sort", "path"])
            #expect(export.status == 0, "\(format): \(export.stderr)")
            let name = "imported-\(format)"
            let imp = try mlib(["playlist", "import", file, "--name", name])
            #expect(imp.status == 0, "\(format): \(imp.stderr)")
            let shown = try paths(try mlib(["playlist", "show", name, "--json"]))
            let listed = try paths(try mlib(["ls", "--json", "--sort", "path"]))
            #expect(shown == listed, "\(format) round trip")
        }
    }

    @Test func staticPlaylistSurvivesARescan() throws {
        #expect(try mlib(["playlist", "create", "Road"]).status == 0)
        #expect(try mlib(["playlist", "add", "Road", "artist:кино"]).status == 0)
        let before = try paths(try mlib(["playlist", "show", "Road", "--json"]))
        #expect(before.count == 4)
        _ = try mlib(["scan", "--quiet"])
        #expect(try paths(try mlib(["playlist", "show", "Road", "--json"])) == before)
    }

    @Test func theLibraryMayComeBeforeAPlaylistSubcommand() throws {
        #expect(try CLI.run(["playlist", "--library", library, "create", "Early"]).status == 0)
        let listed = try CLI.run(["playlist", "--library=\(library)", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.out.contains("Early"))
    }

    @Test func playDryRunListsTheQueue() throws {
        let r = try mlib(["play", "--dry-run", "artist:кино"])
        #expect(r.status == 0)
        #expect(r.out.split(separator: "\n").count == 4)
    }
}
