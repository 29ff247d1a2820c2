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
}
