import Foundation
import Testing
import TestSupport

/// Issue 41's books in `mlib play` (null sink, as the player tests play): a book's position is saved when
/// playback stops and every 30 s while it plays, and the next `mlib play` of it starts there; a killed
/// player (SIGKILL: nothing saved at the end) resumes within 30 s of where it was; `--chapter N` starts at
/// chapter N (a WAV rendering holds exactly the audio from there on).
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg"), "ffmpeg missing"))
struct PlayResumeTests {
    let home: URL
    let env: [String: String]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("books"), withIntermediateDirectories: true)
        env = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
               "MLIB_LIBRARY": home.appendingPathComponent("library.sqlite").path]
    }

    func ffmpeg(_ arguments: [String]) throws {
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// The position `mlib play --dry-run` says it resumes from, in seconds; nil when it starts at the beginning.
    func resumePoint(_ query: String) throws -> Int? {
        let r = try CLI.run(["play", "--dry-run", "--sink", "null", query], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        guard let range = r.stderr.range(of: #"at (\d+):(\d\d) "#, options: .regularExpression) else { return nil }
        let parts = r.stderr[range].dropFirst(3).dropLast().split(separator: ":").compactMap { Int($0) }
        return parts[0] * 60 + parts[1]
    }

    func play(_ query: String, for seconds: Double, signal: Int32) throws {
        let p = try SpawnedProcess(CLI.binary.path, ["play", "--sink", "null", query], environment: env)
        usleep(UInt32(seconds * 1_000_000))
        #expect(p.isRunning, "mlib play ended before it was signalled")
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
    }

    @Test func aStoppedOrKilledBookResumesAndASongDoesNot() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let book = home.appendingPathComponent("books/book.flac"), song = home.appendingPathComponent("books/song.flac")
        try ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=90", "-metadata", "title=The Book", "-metadata", "genre=Audiobook", book.path])
        try ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=60", "-metadata", "title=A Song", "-metadata", "genre=Pop", song.path])
        #expect(try CLI.run(["scan", "--quiet", home.appendingPathComponent("books").path], environment: env).status == 0)
        #expect(try resumePoint("title:\"The Book\"") == nil)

        // ^C after 3 s: the position is saved as the item stops.
        try play("title:\"The Book\"", for: 3, signal: SIGINT)
        let stopped = try #require(try resumePoint("title:\"The Book\""), "no position saved at ^C")
        #expect((2...5).contains(stopped), "resumes at \(stopped) s")
        // A song is not a book: nothing saved, nothing resumed.
        try play("title:\"A Song\"", for: 3, signal: SIGINT)
        #expect(try resumePoint("title:\"A Song\"") == nil)

        // Resumed from there, then killed 33 s in: the save every 30 s keeps it within 30 s of where it was.
        try play("title:\"The Book\"", for: 33, signal: SIGKILL)
        let killed = try #require(try resumePoint("title:\"The Book\""))
        let reached = stopped + 33
        #expect(killed > stopped && reached - killed <= 30 && killed <= reached, "killed at ~\(reached) s, resumes at \(killed) s")
        // --no-resume starts at the beginning.
        let fresh = try CLI.run(["play", "--dry-run", "--no-resume", "--sink", "null", "title:\"The Book\""], environment: env)
        #expect(!fresh.stderr.contains("resuming"), "\(fresh.stderr)")
    }

    @Test func playChapterStartsAtThatChapter() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let meta = home.appendingPathComponent("chapters.txt")
        try Data("""
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1000
            title=One
            [CHAPTER]
            TIMEBASE=1/1000
            START=1000
            END=2500
            title=Two
            [CHAPTER]
            TIMEBASE=1/1000
            START=2500
            END=4000
            title=Three

            """.utf8).write(to: meta)
        let book = home.appendingPathComponent("books/chapters.m4b")
        try ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=4:r=44100", "-i", meta.path, "-map", "0", "-map_chapters", "1", "-c:a", "aac", book.path])
        let wav = home.appendingPathComponent("out.wav")
        let r = try CLI.run(["play", "--files", "--no-resume", "--chapter", "3", "--sink", "wav:\(wav.path)", book.path], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", wav.path])
        let seconds = Double(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let total = Double(String(decoding: try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                                              book.path]).stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        // From chapter 3's start (2.5 s) to the end: within an AAC frame (1024 samples, 23 ms).
        #expect(abs(seconds - (total - 2.5)) < 0.03, "rendered \(seconds) s of \(total) s")
        let tooFar = try CLI.run(["play", "--files", "--chapter", "4", "--sink", "null", book.path], environment: env)
        #expect(tooFar.status != 0 && tooFar.stderr.contains("has 3 chapters"), "\(tooFar.stderr)")
    }
}
