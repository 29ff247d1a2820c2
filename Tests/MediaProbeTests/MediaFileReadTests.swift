import Foundation
import MediaModel
import MediaProbe
import Testing
import TestSupport

/// `MediaFile` reads each byte a reader asks for once where it can: the head and tail windows, and the last
/// read past them. An MP3 whose tag ends past the head had the 64 KiB after its tag read twice per probe (the
/// sniffer: is there a frame for TagLib? the MPEG reader: which frame starts the stream?), in every scan and
/// twice in every tag write's check.
struct MediaFileReadTests {
    @Test func aRangePastTheWindowsIsReadOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mediafile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = (0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let path = dir.appendingPathComponent("file.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let file = try MediaFile(MediaPath(path))
        _ = file.head
        let before = try bytesReadByThisThread()
        let window = file.bytes(at: 100_000, count: 65536)
        #expect(file.bytes(at: 100_000, count: 65536) == window)
        #expect(file.bytes(at: 100_004, count: 4) == Array(bytes[100_004..<100_008]))
        // (Reading /proc/thread-self/io counts too: a few hundred bytes.)
        let once = try bytesReadByThisThread() - before
        #expect((65536..<65536 + 4096).contains(once), "\(once) bytes read")
        #expect(window == Array(bytes[100_000..<165_536]))
        // Another range is read, and the last kept is the one served after.
        #expect(file.bytes(at: 200_000, count: 8192) == Array(bytes[200_000..<208_192]))
        #expect(file.bytes(at: 200_100, count: 100) == Array(bytes[200_100..<200_200]))
        let twice = try bytesReadByThisThread() - before
        #expect((65536 + 8192..<65536 + 8192 + 4096).contains(twice), "\(twice) bytes read")
        // A range that runs past the kept read is read as asked.
        #expect(file.bytes(at: 208_000, count: 400) == Array(bytes[208_000..<208_400]))
    }
}
