import Foundation
import Testing

/// FFmpeg is loaded on first use (Sources/FFmpegLoader): commands that read no media file must not pay
/// for its ~160 libraries, and commands that do must still get it. The dynamic loader's own trace
/// (LD_DEBUG=files) says which libraries a process opened.
struct FFmpegLoadingTests {
    static func loadsFFmpeg(_ args: [String]) throws -> (Bool, CLI.Result) {
        let result = try CLI.run(args, environment: ["LD_DEBUG": "files"])
        return (result.stderr.contains("file=libavformat.so"), result)
    }

    @Test func commandsThatReadNoMediaDoNotLoadIt() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lazy-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: library + suffix) } }
        for args in [["--version"], ["stats", "--library", library], ["ls", "--library", library, "artist:x"]] {
            let (loaded, result) = try Self.loadsFFmpeg(args)
            #expect(result.status == 0, "\(args): \(result.stderr.suffix(500))")
            #expect(!loaded, "mlib \(args.joined(separator: " ")) loaded FFmpeg")
        }
    }

    @Test func readingAFileLoadsItAndWorks() throws {
        let file = CLI.fixtures.appendingPathComponent("video-h264-aac.mp4").path
        let (loaded, result) = try Self.loadsFFmpeg(["info", "--json", file])
        #expect(result.status == 0)
        #expect(loaded)
        #expect(result.out.contains("\"h264\""))
    }
}
