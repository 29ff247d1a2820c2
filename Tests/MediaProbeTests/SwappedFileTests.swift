import Foundation
import MediaModel
@testable import MediaProbe
import Testing

/// A file swapped for a FIFO between the probe's open and FFmpeg's read used to hang a scan for ever (FFmpeg
/// opened the path again, and opening a FIFO waits for a writer). FFmpeg now reads the descriptor the probe
/// opened and checked, so it reads the file that was there.
struct SwappedFileTests {
    @Test(arguments: ["m4a-aac-mono.m4a", "video-mpeg4-opus.mkv"])
    func aFIFOSwappedInAfterTheOpenIsNeverOpened(_ fixture: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(fixture).path
        try FileManager.default.copyItem(atPath: FixtureTests.fixtures.appendingPathComponent(fixture).path, toPath: path)
        let expected = try MediaProbe.probe(MediaPath(path), detail: .streams).item

        let file = try MediaFile(MediaPath(path))
        try #require(unlink(path) == 0 && mkfifo(path, 0o644) == 0)
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        result.file = file
        Thread {
            result.item = try? MediaProbe.probe(result.file!, detail: .streams).item
            done.signal()
        }.start()
        let finished = done.wait(timeout: .now() + 20) == .success
        if !finished {
            // Unblock the reader stuck in open(2) so the test process can end.
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            _ = done.wait(timeout: .now() + 5)
        }
        #expect(finished, "the probe waited on the FIFO")
        #expect(result.item?[.audioCodec] == expected[.audioCodec] && result.item?[.audioCodec] != nil)
        #expect(result.item?.playbackDuration == expected.playbackDuration)
    }

    /// Hands the open file to the probing thread and its result back (one thread at a time).
    final class ResultBox: @unchecked Sendable {
        var file: MediaFile?
        var item: MediaItem?
    }
}
