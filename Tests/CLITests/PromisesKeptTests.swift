import Foundation
import Testing
import TestSupport

/// The smaller promises of issue 14, each through the real binary: `info` field selection and directories,
/// one number format and one set of units in every command, a folder that cannot be entered, signals for
/// commands other than scan, smart playlists that keep --ignore-articles.
@Suite(.serialized) struct PromisesKeptTests {
    let dir: URL
    let library: String
    let flac = CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-promises-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        library = dir.appendingPathComponent("library.sqlite").path
        let scan = try CLI.run(["scan", "--quiet", "--exclude", "odd/", "--exclude", "bad/", "--library", library, CLI.fixtures.path])
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    func mlib(_ args: [String]) throws -> CLI.Result { try CLI.run(args + ["--library", library]) }

    // MARK: info -f and --show

    /// `info -f` renders the template `ls -f` renders for the same file, with the same keys.
    @Test func infoTemplateIsTheListTemplate() throws {
        let template = "$title|${artist:12}|$duration|$samplerate|$container|$bitrate"
        let info = try CLI.run(["info", "-f", template, flac])
        #expect(info.status == 0, "\(info.stderr)")
        let listed = try mlib(["ls", "-f", template, #"path == "\#(flac)""#])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!info.out.isEmpty)
        #expect(info.out == listed.out)
        let bad = try CLI.run(["info", "-f", "$nosuchfield", flac])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unknown field 'nosuchfield'"), "\(bad.stderr)")
    }

    @Test func infoShowPrintsTheKeysAskedFor() throws {
        let r = try CLI.run(["info", "--show", "title,duration,samplerate,streams", flac])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "path=" + flac)
        #expect(lines.contains { $0.hasPrefix("title=") && $0.count > "title=".count }, "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("duration=") }, "\(r.out)")
        #expect(lines.contains("samplerate=22050"), "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("stream=Stream #0 audio: flac") }, "\(r.out)")
        #expect(!r.out.contains("Picture"), "only the keys asked for")

        // With --json: the info object cut down to those keys (a subset of the full schema).
        let json = try CLI.run(["info", "--json", "--show", "title,duration", flac])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        let item = try #require(objects.first?["item"] as? [String: Any])
        #expect(Set(item.keys) == ["path", "title", "playbackDuration"])
        #expect(objects.first?["streams"] == nil)

        let unknown = try CLI.run(["info", "--show", "title,nosuchkey", flac])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown key 'nosuchkey'"), "\(unknown.stderr)")
    }

    // MARK: info DIR, symlink loops

    @Test func infoDescendsIntoADirectoryInPathOrder() throws {
        let music = dir.appendingPathComponent("music")
        let sub = music.appendingPathComponent("a")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for (source, target) in [("opus.opus", "b.opus"), ("flac-vorbis-cover.flac", "a/x.flac"), ("opus.opus", ".hidden.opus")] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(source), to: music.appendingPathComponent(target))
        }
        try Data("not media".utf8).write(to: music.appendingPathComponent("notes.txt"))
        let r = try CLI.run(["info", "--jsonl", music.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "non-media files are skipped quietly")
        let paths = r.out.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["path"] as? String
        }
        #expect(paths == [music.path + "/a/x.flac", music.path + "/b.opus"])
    }

    @Test func aSymlinkLoopIsNamedAsOne() throws {
        let a = dir.appendingPathComponent("loop-a.mp3").path, b = dir.appendingPathComponent("loop-b.mp3").path
        #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
        let r = try CLI.run(["info", a])
        #expect(r.status == 1)
        #expect(r.stderr == "mlib: \(a): too many levels of symbolic links\n")
        let json = try CLI.run(["info", "--json", a])
        #expect(json.out.contains(#""code": "symlink-loop""#), "\(json.out)")
    }

    /// A folder that can be listed but not entered (chmod 644) is one "permission denied" for the folder,
    /// in scan and in info, not a "dangling link" per file in it.
    @Test func aFolderThatCannotBeEnteredIsReportedOnce() throws {
        let shared = dir.appendingPathComponent("shared")
        let music = shared.appendingPathComponent("music"), locked = music.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        for name in ["one.opus", "two.opus"] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("opus.opus"), to: locked.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("opus.opus"), to: music.appendingPathComponent("open.opus"))
        for path in [dir.path, shared.path] { chmod(path, 0o777) }
        chmod(music.path, 0o755)
        chmod(locked.path, 0o644)
        defer { chmod(locked.path, 0o755) }
        let libraryFile = shared.appendingPathComponent("lib.sqlite").path

        let scan = try CLI.run(["scan", "--quiet", "--library", libraryFile, music.path], unprivileged: true)
        #expect(scan.status == 1, "\(scan.stderr)")
        #expect(scan.stderr.contains("\(locked.path): cannot read directory (Permission denied)"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("dangling"), "\(scan.stderr)")
        #expect(!scan.stderr.contains("one.opus"), "\(scan.stderr)")

        let info = try CLI.run(["info", "--jsonl", music.path], unprivileged: true)
        #expect(info.status == 1)
        #expect(info.stderr == "mlib: \(locked.path): permission denied\n", "\(info.stderr)")
        #expect(info.out.contains("open.opus") && !info.out.contains("one.opus"), "\(info.out)")
    }

    // MARK: numbers and units

    /// Every number a command prints in JSON has at most 6 decimals, whatever sum or quotient made it.
    @Test func jsonNumbersHaveOneFormInEveryCommand() throws {
        let tooPrecise = try NSRegularExpression(pattern: #"[0-9]\.[0-9]{7,}"#)
        let strings = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
        func numbers(_ text: String) -> String {
            strings.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\"\"")
        }
        #expect(try mlib(["playlist", "smart", "All", "type:music"]).status == 0)
        let outputs: [(String, CLI.Result)] = [
            ("info", try CLI.run(["info", "--json"] + CLI.fixtureFiles().filter { !$0.contains("/bad/") })),
            ("ls", try mlib(["ls", "--json"])), ("stats", try mlib(["stats", "--json"])),
            ("playlist list", try mlib(["playlist", "list", "--json"])), ("playlist show", try mlib(["playlist", "show", "--json", "All"])),
            ("failures", try mlib(["failures", "--json"])),
        ]
        for (command, r) in outputs {
            #expect(r.status == 0, "\(command): \(r.stderr)")
            let text = numbers(r.out)
            let match = tooPrecise.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            #expect(match == nil, "\(command) --json prints \(match.map { (text as NSString).substring(with: $0.range) } ?? "")")
        }
        // A sum shows no binary noise: the library's total is the items' durations added up, to the microsecond.
        let stats = try #require(try JSONSerialization.jsonObject(with: try mlib(["stats", "--json"]).stdout) as? [String: Any])
        let items = try #require(try JSONSerialization.jsonObject(with: try mlib(["ls", "--json"]).stdout) as? [[String: Any]])
        let sum = items.compactMap { $0["playbackDuration"] as? Double }.reduce(0, +)
        let total = try #require(stats["totalDuration"] as? Double)
        #expect(abs(total - sum) < 1e-5 * Double(items.count), "\(total) vs \(sum)")
    }

    /// `stats` and `info` print durations and sizes in the same units: a library of one file reads the same.
    @Test func statsAndInfoUseTheSameUnits() throws {
        let one = dir.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("m4a-alac.m4a"), to: one.appendingPathComponent("a.m4a"))
        let small = dir.appendingPathComponent("small.sqlite").path
        #expect(try CLI.run(["scan", "--quiet", "--library", small, one.path]).status == 0)
        let stats = try CLI.run(["stats", "--library", small]).out
        let info = try CLI.run(["info", one.appendingPathComponent("a.m4a").path]).out
        func value(_ text: String, _ label: String) -> String? {
            text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
        }
        #expect(value(stats, "Duration:") != nil)
        #expect(value(stats, "Duration:") == value(info, "Duration"), "stats:\n\(stats)\ninfo:\n\(info)")
        #expect(value(stats, "Size:") == value(info, "Size"), "stats:\n\(stats)\ninfo:\n\(info)")
    }

    // MARK: signals

    /// Commands other than scan and watch stop on the first SIGTERM or SIGINT. Each is kept busy writing
    /// to a pipe nobody reads (it blocks once the pipe is full), then signalled once.
    @Test(arguments: [SIGTERM, SIGINT]) func aLongListingStopsOnTheFirstSignal(signal: Int32) throws {
        let wide = String(repeating: "${title:1000}", count: 40)
        for args in [["ls", "-f", wide, "--library", library], ["info", "-f", wide, CLI.fixtures.path]] {
            let p = try SpawnedProcess(CLI.binary.path, args, stdout: .pipe)
            let out = try #require(p.standardOutput)
            // Until it has filled the pipe (64 KiB) and blocks: then it is surely in the middle of its work.
            let deadline = Date().addingTimeInterval(20)
            var available = 0
            while available < 65536 && p.isRunning && Date() < deadline {
                usleep(50_000)
                ioctl(out.fileDescriptor, UInt(FIONREAD), &available)
            }
            #expect(p.isRunning, "mlib \(args[0]) ended before it was signalled")
            kill(p.processIdentifier, signal)
            let stopBy = Date().addingTimeInterval(5)
            while p.isRunning && Date() < stopBy { usleep(20_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            let stopped = p.terminationReason == .uncaughtSignal ? p.terminationStatus == signal : p.terminationStatus == 130
            #expect(stopped, "mlib \(args[0]) after one signal \(signal): \(p.terminationReason == .uncaughtSignal ? "signal" : "status") \(p.terminationStatus)")
        }
    }

    /// `mlib play` stops cleanly on Ctrl-C (status 130, the sink closed), each of ten times: its SIGINT is
    /// caught by a C handler (`TerminationSignals`), not a Dispatch signal source, which on Linux lost a
    /// signal the kernel gave to a thread not blocking it (`mlib serve` hung that way on SIGTERM).
    @Test func playStopsOnCtrlCEveryTime() throws {
        let long = dir.appendingPathComponent("long.flac").path
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=60", "-c:a", "flac", long])
        try #require(made.status == 0, "\(made.stderr)")
        for round in 1...10 {
            let p = try SpawnedProcess(CLI.binary.path, ["play", "--files", long, "--sink", "null", "--library", library])
            usleep(useconds_t(300_000 + round * 50_000))   // playing (in real time: 60 s) by then
            kill(p.processIdentifier, SIGINT)
            let stopBy = Date().addingTimeInterval(10)
            while p.isRunning && Date() < stopBy { usleep(20_000) }
            let hung = p.isRunning
            if hung { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            #expect(!hung && p.terminationReason == .exit && p.terminationStatus == 130,
                    "round \(round): \(hung ? "still playing 10 s after SIGINT" : "\(p.terminationReason) \(p.terminationStatus)")")
        }
    }

    // MARK: smart playlists keep --ignore-articles

    @Test func smartPlaylistsKeepIgnoreArticles() throws {
        #expect(try mlib(["playlist", "smart", "Sorted", "type:music", "--sort", "-artist,title", "--ignore-articles"]).status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: try mlib(["playlist", "list", "--json"]).stdout) as? [[String: Any]])
        #expect(rows.first?["sort"] as? String == "-~artist,~title")
        let exported = try mlib(["playlist", "export", "Sorted", "--format", "m3u"]).out
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let listed = try mlib(["ls", "--paths", "type:music", "--sort", "-artist,title", "--ignore-articles"]).out
            .split(separator: "\n").map(String.init)
        #expect(exported == listed)
        // The same marks work on the command line, key by key.
        #expect(try mlib(["ls", "--paths", "type:music", "--sort", "-~artist,~title"]).out.split(separator: "\n").map(String.init) == listed)
    }
}
