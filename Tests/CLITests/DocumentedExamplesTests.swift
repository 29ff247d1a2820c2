import Foundation
import Testing
import TestSupport

/// Every `mlib …` example in README.md, mlib(1), mlib-query(7) and the commands' --help runs, in document
/// order, in a sandbox (HOME with ~/Music holding the fixtures as an Artist/Album tree, tagged so that
/// every documented query has something to find; MLIB_LIBRARY a fresh library), and does what it says:
/// it exits 0, and an example that lists or plays (ls, info, export, play, playlist show…) without a
/// pipe or a redirection prints something other than nothing or "0". An example that matches nothing
/// ("no items match", "nothing to play", an empty list, a glob that names no file) fails: it would show
/// a reader a command that does nothing.
///
/// Adapted, each for a stated reason: `mlib play` gets --dry-run (no audio device here) unless it writes
/// a WAV file; `aplay` becomes `cat > /dev/null`; /media/player is a sandbox folder. Skipped: `mlib watch`
/// and `mlib serve` (run until stopped; WatchTests and MPDServerTests cover them) and `root move /mnt/nas …`
/// (needs a disk that moved; CLIRootTests cover it), and `mlib import-userdata` (reads other programs'
/// files: ComingFromExamplesTests runs README's lines as written on files made by those programs).
@Suite(.serialized) struct DocumentedExamplesTests {
    static let skipped = ["mlib watch", "mlib serve", "mlib root move /mnt/nas", "mlib import-userdata"]

    /// The examples of each document, unescaped, comments removed.
    static func examples() throws -> [(source: String, command: String)] {
        var result: [(String, String)] = []
        let readme = try String(contentsOf: CLI.repo.appendingPathComponent("README.md"), encoding: .utf8)
        var inShell = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inShell = line == "```sh"; continue }
            if inShell, line.hasPrefix("mlib ") { result.append(("README.md", String(line))) }
        }
        for page in ["man/mlib.1", "man/mlib-query.7"] {
            let text = try String(contentsOf: CLI.repo.appendingPathComponent(page), encoding: .utf8)
            var inExample = false
            for line in text.split(separator: "\n") {
                if line.hasPrefix(".nf") { inExample = true } else if line.hasPrefix(".fi") { inExample = false } else if inExample, line.hasPrefix("mlib ") {
                    result.append((page, unroff(String(line))))
                }
            }
        }
        for command in [["ls"], ["export"], ["play"], ["playlist"], ["rate"], ["set"], ["tag"]] {
            let help = try CLI.run(command + ["--help"]).out
            for line in help.split(separator: "\n") where line.hasPrefix("  mlib ") {
                result.append(("mlib \(command.joined(separator: " ")) --help", line.trimmingCharacters(in: .whitespaces)))
            }
        }
        return result.map { ($0.0, withoutComment($0.1)) }
    }

    static func unroff(_ s: String) -> String {
        var t = s
        for (a, b) in [("\\-", "-"), ("\\(aq", "'"), ("\\(em", "—"), ("\\e", "\\"), ("\\&", ""), ("\\fB", ""),
                       ("\\fR", ""), ("\\fI", ""), ("\\fP", "")] {
            t = t.replacingOccurrences(of: a, with: b)
        }
        return t
    }

    /// The command without a trailing `# comment` (a '#' outside quotes, after a space).
    static func withoutComment(_ s: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (i, c) in zip(s.indices, s) {
            if let q = quote { if c == q { quote = nil } } else if c == "'" || c == "\"" { quote = c } else if c == "#", previous == " " {
                return s[..<i].trimmingCharacters(in: .whitespaces)
            }
            previous = c
        }
        return s.trimmingCharacters(in: .whitespaces)
    }

    static func adapted(_ command: String, sandbox: URL) -> String {
        var c = command.replacingOccurrences(of: "aplay -f cd", with: "cat > /dev/null")
            .replacingOccurrences(of: "/media/player", with: sandbox.appendingPathComponent("player").path)
        if c.hasPrefix("mlib play "), !c.contains("--dry-run"), !c.contains("--sink wav:") {
            if let pipe = c.range(of: " | ") { c.insert(contentsOf: " --dry-run", at: pipe.lowerBound) } else { c += " --dry-run" }
        }
        return c
    }

    /// Tags given to the sandbox's copies so that the documented queries find something.
    static let sandboxTags: [([String], [String])] = [
        (["flac-vorbis-cover.flac"], ["artist=Björk", "albumartist=Björk", "album=Homogenic", "title=Joga", "year=1997", "genre=Classical"]),
        (["opus.opus", "m4a-alac.m4a"], ["artist=Björk", "albumartist=Björk", "album=Vespertine", "year=2001"]),
        (["mp3-id3v24.mp3", "ogg-vorbis.ogg"], ["genre=Jazz", "year=1959"]),
        (["wavpack-ape.wv"], ["artist=Beyoncé"]),
        (["aiff-id3.aiff"], ["title=Hunter (Live)", "year=1998"]),
        (["m4a-aac-cover.m4a"], ["comments=100% live"]),
        (["mp3-id3v23.mp3"], ["genre=Podcast"]),
    ]

    /// The first words of examples that print what they found: with nothing on standard output they
    /// matched nothing.
    static let listing = ["mlib ls", "mlib query", "mlib info", "mlib export", "mlib play", "mlib stats", "mlib fields",
                          "mlib playlist show", "mlib playlist list", "mlib playlist export", "mlib root list"]

    /// Why `command`, having run with status 0 and printed `stdout`, did not do what it shows; nil if it did.
    static func matchedNothing(_ command: String, stdout: String) -> String? {
        guard listing.contains(where: { command == $0 || command.hasPrefix($0 + " ") }),
              !command.contains("|"), !command.contains(">"), !command.contains(" -o "), !command.contains("--output"),
              !command.contains("--sink wav:") else { return nil }
        let text = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return "printed nothing" }
        if text == "0" { return "counted 0" }
        return nil
    }

    @Test func everyDocumentedExampleRuns() throws {
        let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-examples-\(UUID().uuidString)")
        let home = sandbox.appendingPathComponent("home"), work = sandbox.appendingPathComponent("work")
        let fm = FileManager.default
        for d in [home.appendingPathComponent("Music/Björk"), home.appendingPathComponent("Music/playlists"),
                  work.appendingPathComponent("old"), sandbox.appendingPathComponent("player")] {
            try fm.createDirectory(at: d, withIntermediateDirectories: true)
        }
        defer { try? fm.removeItem(at: sandbox) }
        let files = try CLI.fixtureFiles().filter { !$0.contains("/bad/") }
        let album = home.appendingPathComponent("Music/Björk/Vespertine")
        try fm.createDirectory(at: album, withIntermediateDirectories: true)
        for file in files {
            try fm.copyItem(atPath: file, toPath: album.appendingPathComponent((file as NSString).lastPathComponent).path)
        }
        // What the documents' queries name, written with mlib tag itself: the fixtures are by "The Fixtures".
        // Its journal in the sandbox's HOME, as the examples' own: not shared with the suites running beside.
        for (query, changes) in Self.sandboxTags {
            let tag = try CLI.run(["tag", "--files"] + changes + query.map { album.appendingPathComponent($0).path },
                                  environment: ["HOME": home.path, "XDG_DATA_HOME": ""])
            #expect(tag.status == 0, "\(tag.stderr)")
        }
        // book.m4b and song.lrc: for mlib info --chapters and mlib lyrics (issue 41).
        try Data("[la:eng]\n[00:00.10]First line\n[00:00.50]Second line\n".utf8).write(to: work.appendingPathComponent("song.lrc"))
        for (name, fixture) in [("song.flac", "flac-vorbis-cover.flac"), ("a.flac", "flac-vorbis-cover.flac"), ("b.mp3", "mp3-id3v24.mp3"),
                                ("book.m4b", "odd/m4b-chapters.m4b")] {
            try fm.copyItem(at: CLI.fixtures.appendingPathComponent(fixture), to: work.appendingPathComponent(name))
        }
        try Data("#EXTM3U\n\(home.path)/Music/Björk/Vespertine/opus.opus\n".utf8).write(to: work.appendingPathComponent("old/party.m3u"))
        try fm.createDirectory(at: home.appendingPathComponent("old"), withIntermediateDirectories: true)
        try Data("[playlist]\nFile1=\(home.path)/Music/Björk/Vespertine/opus.opus\nNumberOfEntries=1\nVersion=2\n".utf8)
            .write(to: home.appendingPathComponent("old/party.pls"))
        // Each document starts from the same scanned library (its own copy: two documents may create the
        // same playlist).
        let scanned = sandbox.appendingPathComponent("scanned.sqlite").path
        #expect(try CLI.run(["scan", "--quiet", "--library", scanned, home.appendingPathComponent("Music").path]).status == 0)

        let examples = try Self.examples()
        #expect(examples.count > 40, "found \(examples.count) examples")
        var environment = ["HOME": home.path, "XDG_DATA_HOME": "", "PATH": CLI.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"]
        var librarySource = ""
        for (source, command) in examples {
            if Self.skipped.contains(where: command.hasPrefix) { continue }
            if source != librarySource {
                librarySource = source
                let library = sandbox.appendingPathComponent("library-\(UUID().uuidString).sqlite").path
                try fm.copyItem(atPath: scanned, toPath: library)
                environment["MLIB_LIBRARY"] = library
            }
            // The examples' own environment only (nothing of the runner's), as a new user's shell.
            let shell = try SpawnedProcess("/bin/bash", ["-c", "set -o pipefail; " + Self.adapted(command, sandbox: sandbox)],
                                           environment: environment, inheritEnvironment: false, cwd: work, stdout: .pipe, stderr: .pipe)
            let (output, errorOutput) = shell.readToEnd()
            let stdout = String(decoding: output, as: UTF8.self), stderr = String(decoding: errorOutput, as: UTF8.self)
            let status = shell.terminationStatus
            #expect(shell.terminationReason == .exit && status == 0, "\(source): \(command) → \(status)\n\(stderr.prefix(400))")
            if status == 0, let why = Self.matchedNothing(command, stdout: stdout) {
                Issue.record("\(source): \(command) \(why): it matches nothing in a library where it should find something")
            }
        }
    }
}
