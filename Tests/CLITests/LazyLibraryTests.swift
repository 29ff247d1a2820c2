import Foundation
import Testing

/// FFmpeg and PulseAudio are loaded on first use (Sources/FFmpegLoader, Sources/PulseLoader): commands that
/// read no media file must not pay for FFmpeg's ~160 libraries, commands that play nothing not for
/// PulseAudio's 23, and commands that do must still get them. The dynamic loader's own trace
/// (LD_DEBUG=files) says which libraries a process opened.
struct LazyLibraryTests {
    static func loadsFFmpeg(_ args: [String]) throws -> (Bool, CLI.Result) {
        let result = try CLI.run(args, environment: ["LD_DEBUG": "files"])
        return (result.stderr.contains("file=libavformat.so"), result)
    }

    @Test func commandsThatReadNoMediaDoNotLoadIt() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lazy-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: library + suffix) } }
        #expect(try CLI.run(["playlist", "create", "P", "--library", library]).status == 0)
        for args in [["--version"], ["stats", "--library", library], ["ls", "--library", library, "artist:x"]] {
            let (loaded, result) = try Self.loadsFFmpeg(args)
            #expect(result.status == 0, "\(args): \(result.stderr.suffix(500))")
            #expect(!loaded, "mlib \(args.joined(separator: " ")) loaded FFmpeg")
            #expect(!result.stderr.contains("file=libpulse"), "mlib \(args.joined(separator: " ")) loaded PulseAudio")
        }
    }

    /// The pulse sink loads the library when it opens a stream: with no server to reach, the error is
    /// PulseAudio's own (so the library was loaded and called); with a library that cannot load, a
    /// clear one-line error and the documented status, never an abort.
    @Test func thePulseSinkLoadsPulseAudioWhenItOpens() throws {
        let file = CLI.fixtures.appendingPathComponent("flac-vorbis-cover.flac").path
        let noServer = ["PULSE_SERVER": "unix:/nonexistent/mlib-test", "PULSE_RUNTIME_PATH": "/nonexistent", "LD_DEBUG": "files"]
        let reached = try CLI.run(["play", "--files", file, "--sink", "pulse"], environment: noServer)
        #expect(reached.status != 0)
        #expect(reached.stderr.contains("file=libpulse-simple.so.0"))
        #expect(reached.stderr.contains("server not reachable"), "\(reached.stderr.suffix(500))")

        let fake = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-fake-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: fake) }
        try Data().write(to: fake.appendingPathComponent("libpulse-simple.so.0"))
        let missing = try CLI.run(["play", "--files", file, "--sink", "pulse"], environment: ["LD_LIBRARY_PATH": fake.path])
        #expect(missing.status == reached.status, "\(missing.stderr)")
        #expect(missing.stderr.contains("cannot load PulseAudio"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("internal error"))
    }

    /// FFmpeg that cannot be loaded is a read error of each file (JSON included, exit 1), never an exit()
    /// from inside the loader on a worker thread (which printed one line and dropped every other result).
    @Test func anFFmpegThatCannotLoadIsAnErrorPerFile() throws {
        let fake = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-fake-av-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: fake) }
        for soname in ["libavutil.so.57", "libswresample.so.4", "libavcodec.so.59", "libavformat.so.59"] {
            try Data().write(to: fake.appendingPathComponent(soname))
        }
        let files = [CLI.fixtures.appendingPathComponent("mp3-id3v24.mp3").path, CLI.fixtures.appendingPathComponent("opus.opus").path]
        let r = try CLI.run(["info", "--json"] + files, environment: ["LD_LIBRARY_PATH": fake.path])
        #expect(r.status == 1)
        let objects = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(objects.count == 2)
        #expect(objects.allSatisfy { ($0["error"] as? [String: Any])?["message"].map { "\($0)".contains("cannot load FFmpeg") } == true })
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("mlib: ") }, "\(r.stderr)")
    }

    /// A file that failed for what it holds (corrupt, not media, empty) is not read again while its size,
    /// mtime and inode stay: an unchanged rescan of a library with one such file loaded FFmpeg (~40 ms and
    /// 26 MB) to fail on it again. Failures that can pass without the file changing (permission, I/O,
    /// a dangling link) are still retried on every scan.
    @Test func anUnchangedRescanDoesNotReadAFileThatFailedForItsContent() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lazy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let music = root.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("video-h264-aac.mp4"), to: music.appendingPathComponent("good.mp4"))
        var garbage = [UInt8](repeating: 0, count: 8192)
        for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 7) }
        try Data(garbage).write(to: music.appendingPathComponent("bad.mp3"))
        let library = root.appendingPathComponent("library.sqlite").path
        let first = try CLI.run(["scan", "--quiet", "--library", library, music.path])
        #expect(first.status == 1, "the bad file is reported: \(first.stderr)")
        let (loaded, again) = try Self.loadsFFmpeg(["scan", "--quiet", "--library", library])
        #expect(again.status == 0, "\(again.stderr.suffix(500))")
        #expect(!loaded, "an unchanged rescan read the failed file again")
        #expect(try CLI.run(["failures", "--library", library]).out.contains("bad.mp3"), "the failure stays recorded")
        // Replaced by a good file: read at the next scan.
        try FileManager.default.removeItem(at: music.appendingPathComponent("bad.mp3"))
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("video-h264-aac.mp4"), to: music.appendingPathComponent("bad.mp3"))
        #expect(try CLI.run(["scan", "--quiet", "--library", library]).status == 0)
        #expect(try CLI.run(["failures", "--library", library]).out.isEmpty)
    }

    @Test func readingAFileLoadsItAndWorks() throws {
        let file = CLI.fixtures.appendingPathComponent("video-h264-aac.mp4").path
        let (loaded, result) = try Self.loadsFFmpeg(["info", "--json", file])
        #expect(result.status == 0)
        #expect(loaded)
        #expect(result.out.contains("\"h264\""))
    }
}
