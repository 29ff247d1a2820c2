import Foundation
import Testing
import TestSupport

/// Issue 41's player line: `mlib play` plays a synced song into the null sink (real time) and shows each
/// lyrics line at its time, ±100 ms. Off a terminal `--lyrics` prints "♪ [mm:ss.xxx] text" as each line is
/// reached (read here line by line with the time it arrived); on a terminal (tmux) the current line and the
/// next show under the status line (the screen read every ~20 ms).
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing"))
struct PlayLyricsTests {
    static let tolerance = 0.1
    let home: URL
    let env: [String: String]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-play-lyrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("music"), withIntermediateDirectories: true)
        env = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
               "MLIB_LIBRARY": home.appendingPathComponent("library.sqlite").path]
    }

    func song(_ name: String, seconds: Int, lyricsTag: String? = nil, sidecar: String? = nil) throws -> URL {
        let url = home.appendingPathComponent("music/\(name).flac")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=\(seconds)",
                                                   "-metadata", "title=\(name)", "-metadata", "artist=Singer"]
                                        + (lyricsTag.map { ["-metadata", "LYRICS=\($0)"] } ?? []) + [url.path])
        try #require(made.status == 0, "\(made.stderr)")
        if let sidecar { try Data(sidecar.utf8).write(to: url.deletingPathExtension().appendingPathExtension("lrc")) }
        return url
    }

    /// The lines of a run of `mlib play ARGS`, each with the seconds since it started when the line arrived.
    func timedLines(_ arguments: [String]) throws -> (lines: [(at: Double, text: String)], status: Int32, stderr: String) {
        let errors = home.appendingPathComponent("play-stderr-\(UUID().uuidString)")
        let start = Date()
        let p = try SpawnedProcess(CLI.binary.path, arguments, environment: env, stdout: .pipe, stderr: .file(errors.path))
        var lines: [(at: Double, text: String)] = []
        var partial = ""
        // Read as it comes (each line is one write): a read returns at once with what the child wrote.
        while true {
            let data = p.standardOutput!.availableData
            if data.isEmpty { break }
            let at = Date().timeIntervalSince(start)
            partial += String(decoding: data, as: UTF8.self)
            while let newline = partial.firstIndex(of: "\n") {
                lines.append((at, String(partial[..<newline])))
                partial = String(partial[partial.index(after: newline)...])
            }
        }
        p.waitUntilExit()
        return (lines, p.terminationStatus, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// The stored (or file's) synced lines as `mlib lyrics --json` gives them: (start ms, text).
    func expectedLines(_ arguments: [String]) throws -> [(Int, String)] {
        let run = try CLI.run(["lyrics", "--json"] + arguments, environment: env)
        let files = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.stderr)")
        let synced = (files.first?["lyrics"] as? [[String: Any]])?.first { $0["synced"] as? Bool == true }
        return ((synced?["lines"] as? [[String: Any]]) ?? []).compactMap { line in
            (line["start"] as? Int).map { ($0, line["text"] as? String ?? "") }
        }
    }

    /// Checks the "♪" lines after the item line `title` against `expected` (those before `duration`): same
    /// texts and times, each arriving at its start (±100 ms) counted from the item line's arrival.
    func check(_ lines: [(at: Double, text: String)], item title: String, expected: [(Int, String)], duration: Double) {
        guard let itemIndex = lines.firstIndex(where: { $0.text.hasPrefix("▶") && $0.text.contains(title) }) else {
            Issue.record("no item line for \(title): \(lines.map(\.text))")
            return
        }
        let t0 = lines[itemIndex].at
        let after = lines[(itemIndex + 1)...].prefix { !$0.text.hasPrefix("▶") }
        let shown = Array(after.filter { $0.text.hasPrefix("♪ ") })
        let reachable = expected.filter { Double($0.0) / 1000 < duration }
        #expect(shown.map(\.text) == reachable.map { "♪ [\(Self.tag($0.0))] \($0.1)" }, "\(lines.map(\.text))")
        for (line, want) in zip(shown, reachable) {
            let late = (line.at - t0) - Double(want.0) / 1000
            print("◇ \(title): \(want.1) at \(want.0) ms, shown \(Int((line.at - t0) * 1000)) ms after the item line (\(Int(late * 1000)) ms)")
            #expect(abs(late) <= Self.tolerance, "\(want.1): due at \(want.0) ms, shown \(Int((line.at - t0) * 1000)) ms")
        }
    }

    static func tag(_ ms: Int) -> String { String(format: "%02d:%02d.%03d", ms / 60000, ms / 1000 % 60, ms % 1000) }

    @Test func aLibrarySongsStoredLinesArePrintedAtTheirTimes() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // An [offset:], a line with two time tags, a line past the end of the audio (never reached).
        _ = try song("Follow", seconds: 5, sidecar: "[offset:200]\n[00:00.70]One\n[00:01.40][00:03.20]Two\n[00:02.30]Three\n[00:04.00]Four\n[00:09.00]Never\n")
        #expect(try CLI.run(["scan", "--quiet", home.appendingPathComponent("music").path], environment: env).status == 0)
        let expected = try expectedLines(["title:Follow"])
        #expect(expected.map(\.0) == [500, 1200, 2100, 3000, 3800, 8800], "\(expected)")

        let run = try timedLines(["play", "--sink", "null", "--lyrics", "title:Follow"])
        #expect(run.status == 0, "\(run.stderr)")
        check(run.lines, item: "Follow", expected: expected, duration: 5)

        // Without --lyrics, off a terminal: no lyrics lines.
        let plain = try CLI.run(["play", "--sink", "null:fast", "title:Follow"], environment: env)
        #expect(plain.status == 0 && !plain.out.contains("♪"), "\(plain.out)")
    }

    @Test func filesNotIndexedFollowTheirOwnLyricsOneAfterTheOther() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // LRC text in a Vorbis LYRICS tag, then a sidecar: each item's own lines, timed from its own start.
        let a = try song("First", seconds: 3, lyricsTag: "[00:00.40]Alpha\n[00:01.10]Beta\n[00:02.60]Gamma")
        let b = try song("Second", seconds: 3, sidecar: "[00:00.30]Delta\n[00:01.90]Epsilon\n")
        let run = try timedLines(["play", "--files", "--sink", "null", "--lyrics", a.path, b.path])
        #expect(run.status == 0, "\(run.stderr)")
        check(run.lines, item: "First", expected: try expectedLines([a.path]), duration: 3)
        check(run.lines, item: "Second", expected: try expectedLines([b.path]), duration: 3)
    }

    // MARK: On a terminal

    static let hasTmux = ChildProcess.exists("tmux")

    /// The screen of tmux session `name` on `socket`, row by row.
    static func screen(_ socket: String, _ name: String) -> [String] {
        let run = try? ChildProcess.run("tmux", ["-L", socket, "capture-pane", "-p", "-t", name])
        return String(decoding: run?.stdout ?? Data(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(.enabled(if: hasTmux, "tmux is not installed: the terminal display of synced lyrics is not tested"))
    func onATerminalTheCurrentLineAndTheNextShowUnderTheStatusLine() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let a = try song("Shown", seconds: 5, sidecar: "[00:01.00]Line one\n[00:02.00]Line two\n[00:03.50]Line three\n")
        let socket = "mlib-lyrics-\(getpid())", name = "play"
        let command = "env HOME='\(home.path)' XDG_CONFIG_HOME='\(home.path)/.config' MLIB_LIBRARY='\(env["MLIB_LIBRARY"]!)' "
            + "'\(CLI.binary.path)' play --files --sink null '\(a.path)'; echo EXIT=$?; sleep 30"
        let started = try ChildProcess.run("tmux", ["-L", socket, "new-session", "-d", "-s", name, "-x", "100", "-y", "8", command])
        try #require(started.status == 0, "\(started.stderr)")
        defer { _ = try? ChildProcess.run("tmux", ["-L", socket, "kill-server"]) }

        // The first screen with the status line is time 0 (the first draw follows play at once); then each
        // line's first appearance as the current one (row 2), and the next one under it (row 3).
        let begin = Date()
        var t0: Double?
        var seen: [String: Double] = [:]
        var nextShown: [String: String] = [:]
        var last: [String] = []
        while Date().timeIntervalSince(begin) < 15 {
            let rows = Self.screen(socket, name)
            let now = Date().timeIntervalSince(begin)
            last = rows
            if rows.contains(where: { $0.hasPrefix("EXIT=") }) { break }
            guard rows.first?.contains("playing") == true else { continue }
            if t0 == nil { t0 = now }
            if rows.count > 2, rows[1].hasPrefix("  ♪ ") {
                let current = String(rows[1].dropFirst(4)).trimmingCharacters(in: .whitespaces)
                if !current.isEmpty, seen[current] == nil { seen[current] = now; nextShown[current] = rows[2].trimmingCharacters(in: .whitespaces) }
            }
            usleep(10_000)
        }
        let start = try #require(t0, "the status line never showed: \(last)")
        let due: [(String, Double, String)] = [("Line one", 1.0, "Line two"), ("Line two", 2.0, "Line three"), ("Line three", 3.5, "")]
        for (text, at, next) in due {
            guard let shown = seen[text] else { Issue.record("\(text) never shown; last screen: \(last)"); continue }
            print("◇ terminal: \(text) due at \(at) s, shown at \(String(format: "%.3f", shown - start)) s")
            // The screen is read every ~20 ms (a tmux capture each), and time 0 is itself a reading: allow that too.
            #expect(abs(shown - start - at) <= Self.tolerance + 0.05, "\(text): due at \(at) s, shown at \(shown - start) s")
            #expect(nextShown[text] == next, "under \(text): \(nextShown[text] ?? "nothing")")
        }
        #expect(last.contains("EXIT=0"), "\(last)")
    }
}
