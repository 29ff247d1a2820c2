import Foundation
import Testing

/// Every `mlib …` example in README.md, mlib(1), mlib-query(7) and the commands' --help runs, in document
/// order, in a sandbox (HOME with ~/Music holding the fixtures, MLIB_LIBRARY a fresh library), and exits
/// as documented: 0, or 1 only when the example's query finds nothing in the fixtures ("no items match",
/// "nothing to play"): a usage error (2), a library error (3) or a signal fails the example.
///
/// Adapted, each for a stated reason: `mlib play` gets --dry-run (no audio device here) unless it writes
/// a WAV file; `aplay` becomes `cat > /dev/null`; /media/player is a sandbox folder. Skipped: `mlib watch`
/// and `mlib serve` (run until stopped; WatchTests and MPDServerTests cover them) and `root move /mnt/nas …`
/// (needs a disk that moved; CLIRootTests cover it).
@Suite(.serialized) struct DocumentedExamplesTests {
    static let skipped = ["mlib watch", "mlib serve", "mlib root move /mnt/nas"]

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
        for file in files {
            try fm.copyItem(atPath: file, toPath: home.appendingPathComponent("Music/Björk/" + (file as NSString).lastPathComponent).path)
        }
        for (name, fixture) in [("song.flac", "flac-vorbis-cover.flac"), ("a.flac", "flac-vorbis-cover.flac"), ("b.mp3", "mp3-id3v24.mp3")] {
            try fm.copyItem(at: CLI.fixtures.appendingPathComponent(fixture), to: work.appendingPathComponent(name))
        }
        try Data("#EXTM3U\n\(home.path)/Music/Björk/opus.opus\n".utf8).write(to: work.appendingPathComponent("old/party.m3u"))
        try fm.createDirectory(at: home.appendingPathComponent("old"), withIntermediateDirectories: true)
        try Data("[playlist]\nFile1=\(home.path)/Music/Björk/opus.opus\nNumberOfEntries=1\nVersion=2\n".utf8)
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
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            shell.arguments = ["-c", "set -o pipefail; " + Self.adapted(command, sandbox: sandbox)]
            shell.currentDirectoryURL = work
            shell.environment = environment
            let err = Pipe()
            shell.standardOutput = FileHandle.nullDevice
            shell.standardError = err
            shell.standardInput = FileHandle.nullDevice
            try shell.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            shell.waitUntilExit()
            let status = shell.terminationStatus
            let emptyResult = status == 1 && (stderr.contains("no items match") || stderr.contains("nothing to play"))
            #expect(shell.terminationReason == .exit && (status == 0 || emptyResult),
                    "\(source): \(command) → \(status)\n\(stderr.prefix(400))")
        }
    }
}
