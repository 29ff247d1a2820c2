import Foundation
import Testing
import TestSupport

/// Input meant to hurt (or typed by accident): each run under a timeout, and each must end with a clean
/// exit status, never a signal (SIGSEGV from a stack overflow, SIGILL from an overflow trap) or a hang.
@Suite(.serialized) struct HostileInputTests {
    let dir: URL
    let library: String

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-hostile-\(UUID().uuidString)")
        let music = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for name in ["mp3-id3v24.mp3", "flac-vorbis-cover.flac", "ogg-vorbis.ogg"] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(name), to: music.appendingPathComponent(name))
        }
        library = dir.appendingPathComponent("library.sqlite").path
        #expect(try CLI.run(["scan", "--quiet", "--library", library, music.path]).status == 0)
    }

    /// Runs mlib with a deadline; the status, or a failed expectation if it was killed by a signal.
    func run(_ args: [String], timeout: Double = 20) throws -> CLI.Result {
        let p = try SpawnedProcess(CLI.binary.path, args + ["--library", library], stdout: .pipe, stderr: .pipe)
        let (outData, errData, timedOut) = p.readToEnd(killingAfter: timeout)
        #expect(!timedOut, "\(args.prefix(3)) ran past \(timeout) s")
        let shown = args.map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 }
        #expect(p.terminationReason == .exit, "\(shown) ended by signal \(p.terminationStatus)")
        return CLI.Result(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func hugeTemplateWidthsAreUsageErrors() throws {
        for template in ["${title:2147483647}", "${title:9223372036854775807}", "${title:>99999999999999999999}"] {
            let r = try run(["ls", "-f", template])
            #expect(r.status == 2, "\(template): \(r.stderr)")
            #expect(r.stdout.count < 10_000)
        }
        #expect(try run(["ls", "-f", "${title:1000}"]).status == 0)
    }

    @Test func deepNestingIsAQueryError() throws {
        let queries = [
            [String(repeating: "(", count: 40_000) + "year == 1" + String(repeating: ")", count: 40_000)],
            [String(repeating: "!", count: 60_000) + "year == 1"],
            // In one argument: ArgumentParser 1.8.2 itself takes seconds for thousands of arguments (4,000: 8 s).
            [Array(repeating: "NOT", count: 30_000).joined(separator: " ") + " year:1"],
            [Array(repeating: "(", count: 30_000).joined(separator: " ") + " year:1"],
            Array(repeating: "(", count: 500) + ["year:1"] + Array(repeating: ")", count: 500),
        ]
        for query in queries {
            let r = try run(["ls"] + query)
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix("mlib: query error: the query nests too deeply"), "\(r.stderr.prefix(200))")
            #expect(r.stderr.count < 1_000, "the caret diagram shows a window, not 40,000 parentheses")
        }
    }

    @Test func aStoredSmartPlaylistThatDeepIsAnErrorNotACrash() throws {
        #expect(try run(["playlist", "smart", "Fine", "year:1999"]).status == 0)
        let deep = String(repeating: "(", count: 40_000) + "year == 1" + String(repeating: ")", count: 40_000)
        let insert = try ChildProcess.run("/usr/bin/sqlite3", [library, "INSERT INTO playlists (name, query, created, modified) VALUES ('Deep', '\(deep)', 0, 0)"])
        try #require(insert.status == 0, "\(insert.stderr)")
        // The bad one is marked and the others listed (it was exit 2 and no listing at all); status 1.
        let r = try run(["playlist", "list"])
        #expect(r.status == 1, "\(r.stderr.prefix(300))")
        #expect(r.stderr.hasPrefix("mlib: playlist \"Deep\": the query nests too deeply"), "\(r.stderr.prefix(300))")
        #expect(r.stderr.count < 1_000)
        #expect(r.out.contains("Fine\t"), "\(r.out)")
        #expect(r.out.contains("Deep\terror: the query nests too deeply"), "\(r.out.prefix(300))")
        let json = try run(["playlist", "list", "--json"])
        #expect(json.status == 1)
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.first { $0["name"] as? String == "Fine" }?["count"] is Int)
        #expect(rows.first { $0["name"] as? String == "Deep" }?["count"] is NSNull)
        #expect((rows.first { $0["name"] as? String == "Deep" }?["error"] as? String)?.contains("nests too deeply") == true)
        #expect(try run(["playlist", "show", "Deep"]).status == 2)
    }

    @Test func wordsWithoutLettersMatchLiterally() throws {
        for word in ["!!!", "&", "⁂", "\u{FFFD}"] {
            let r = try run(["ls", "--count", word])
            #expect(r.status == 0)
            #expect(r.out == "0\n", "'\(word)' matched \(r.out)")
        }
        let added = try run(["playlist", "create", "P"])
        #expect(added.status == 0)
        #expect(try run(["playlist", "add", "P", "!!!"]).status == 1, "adds nothing, not the whole library")
    }

    @Test func negativeNumbersAreExplainedNotMissing() throws {
        for args in [["ls", "--limit", "-1"], ["ls", "--offset", "-2"], ["export", "--limit", "-1"],
                     ["play", "--dry-run", "--start", "-1"]] {
            let r = try run(args)
            #expect(r.status == 2)
            #expect(!r.stderr.contains("Missing value"), "\(args): \(r.stderr)")
        }
    }

    @Test func aWaitTimeoutThatExpiresDoesNotMentionNoWait() throws {
        let fd = open(library + ".lock", O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let r = try run(["scan", "--quiet", "--wait-timeout", "0.2"])
        #expect(r.status == 3)
        #expect(!r.stderr.contains("--no-wait"), "\(r.stderr)")
    }
}
