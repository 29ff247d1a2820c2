import Foundation
import Testing
import TestSupport

/// Issue 41's `play --chapter 3 starts at chapter 3's time (±1 frame)`, for each chapter source the issue
/// names: an M4B made by ffmpeg -map_chapters, an MP3 with ID3v2 CHAP frames and an Opus with CHAPTERxxx
/// comments (mutagen; the files of InfoChaptersTests). Each is rendered twice into a WAV file, whole and
/// from --chapter 3: what the second lacks is the audio before chapter 3, which must be its start as
/// ffprobe lists it, within one frame of the codec (AAC 1024 samples, MP3 1152, Opus 960 at 48 kHz).
@Suite(.serialized, .enabled(if: LyricsCorpus.available, "ffmpeg or python3-mutagen missing (scripts/install-deps.sh)"))
struct PlayChapterTests {
    static func duration(_ path: String) throws -> Double {
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func chapterThreeStartsAtItsTimeWithinOneFrame() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-play-chapters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("make.py")
        try InfoChaptersTests.script.write(to: script, atomically: true, encoding: .utf8)
        let made = try ChildProcess.run("python3", [script.path, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        // No library: files played as files, nothing resumed or saved.
        let env = ["HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent(".config").path,
                   "MLIB_LIBRARY": dir.appendingPathComponent("none.sqlite").path]
        for (name, frame) in [("book.m4b", 1024.0 / 44100), ("book.mp3", 1152.0 / 44100), ("book.opus", 960.0 / 48000)] {
            let path = dir.appendingPathComponent(name).path
            let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", path])
            let chapters = try #require((try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["chapters"] as? [[String: Any]])
            try #require(chapters.count == 3, "\(name): ffprobe lists \(chapters.count) chapters")
            let third = Double(chapters[2]["start_time"] as? String ?? "") ?? -1

            let whole = dir.appendingPathComponent("\(name).whole.wav").path, fromThird = dir.appendingPathComponent("\(name).ch3.wav").path
            let a = try CLI.run(["play", "--files", "--sink", "wav:\(whole)", path], environment: env)
            let b = try CLI.run(["play", "--files", "--chapter", "3", "--sink", "wav:\(fromThird)", path], environment: env)
            #expect(a.status == 0 && b.status == 0, "\(name): \(a.stderr) \(b.stderr)")
            let skipped = try Self.duration(whole) - Self.duration(fromThird)
            print("◇ \(name): --chapter 3 skipped \(String(format: "%.4f", skipped)) s; chapter 3 starts at \(third) s (a frame: \(String(format: "%.4f", frame)) s)")
            #expect(abs(skipped - third) <= frame, "\(name): skipped \(skipped) s, chapter 3 at \(third) s")
        }
    }

    /// On a terminal (tmux), `]` goes to the next chapter's start and `[` back (to the previous chapter within
    /// 3 s of a chapter's start): read off the status line's time (whole seconds).
    @Test(.enabled(if: ChildProcess.exists("tmux"), "tmux is not installed: the chapter keys are not tested"))
    func chapterKeysJumpBetweenChapters() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-chapter-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("make.py")
        try InfoChaptersTests.script.write(to: script, atomically: true, encoding: .utf8)
        try #require(try ChildProcess.run("python3", [script.path, dir.path]).status == 0)
        let socket = "mlib-chapters-\(getpid())", name = "play"
        let command = "env HOME='\(dir.path)' XDG_CONFIG_HOME='\(dir.path)/.config' MLIB_LIBRARY='\(dir.path)/none.sqlite' "
            + "'\(CLI.binary.path)' play --files --sink null '\(dir.appendingPathComponent("book.m4b").path)'; echo EXIT=$?; sleep 30"
        try #require(try ChildProcess.run("tmux", ["-L", socket, "new-session", "-d", "-s", name, "-x", "100", "-y", "6", command]).status == 0)
        defer { _ = try? ChildProcess.run("tmux", ["-L", socket, "kill-server"]) }
        func seconds() -> Int? {
            let screen = String(decoding: (try? ChildProcess.run("tmux", ["-L", socket, "capture-pane", "-p", "-t", name]))?.stdout ?? Data(), as: UTF8.self)
            guard let line = screen.split(separator: "\n").first(where: { $0.contains("playing") }),
                  let match = line.firstMatch(of: /([0-9]+):([0-9]{2}) \//) else { return nil }
            return Int(match.1)! * 60 + Int(match.2)!
        }
        func key(_ k: String) { _ = try? ChildProcess.run("tmux", ["-L", socket, "send-keys", "-t", name, "-l", k]) }
        /// Waits for the time to be in `range` (the jump is at once; a loaded machine redraws late).
        func reaches(_ range: ClosedRange<Int>) -> Int? {
            var last: Int?
            _ = Poll.until(timeout: 5, interval: 0.05) { last = seconds(); return last.map(range.contains) == true }
            return last
        }
        try #require(reaches(0...2) != nil, "mlib play did not start")
        key("]")
        let second = reaches(10...11)
        #expect(second.map { (10...11).contains($0) } == true, "] from the first chapter: at \(second.map(String.init) ?? "?") s")
        key("]")
        let third = reaches(20...21)
        #expect(third.map { (20...21).contains($0) } == true, "] again: at \(third.map(String.init) ?? "?") s")
        key("[")
        let back = reaches(10...11)
        #expect(back.map { (10...11).contains($0) } == true, "[ within 3 s of chapter 3: at \(back.map(String.init) ?? "?") s")
        key("q")
    }
}
