import Foundation
@testable import MediaProbe
import MediaModel
import Testing
import TestSupport

/// FLAC truncation without FFmpeg, on a real 5-second FLAC made by ffmpeg (larger than the tail window).
struct FLACTailTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed"))
    func truncationIsSeenAndWholeFilesAreNot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-flac-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole.flac")
        let made = try ChildProcess.run(Self.ffmpeg!, ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=d=5:c=pink:r=44100:a=0.3",
                                                       "-c:a", "flac", whole.path])
        #expect(made.status == 0, "\(made.stderr)")
        let data = try Data(contentsOf: whole)
        #expect(data.count > 65536 * 2)

        func check(_ fraction: Double) throws -> (tail: Bool, probe: ProbeResult) {
            let cut = dir.appendingPathComponent("cut-\(fraction).flac")
            try data.prefix(Int(Double(data.count) * fraction)).write(to: cut)
            let path = MediaPath(cut.path)
            return (FLACTail.endsEarly(try MediaFile(path)),
                    try MediaProbe.probe(path, detail: .library))
        }
        let full = try check(1.0), half = try check(0.5)
        #expect(!full.tail && !full.probe.isPartial)
        #expect(half.tail && half.probe.isPartial)
        // The FFmpeg path agrees.
        #expect(try MediaProbe.probe(MediaPath(dir.appendingPathComponent("cut-0.5.flac").path)).isPartial)
    }

    @Test func crc8MatchesTheFLACReference() {
        // A FLAC frame header (fixed block size 4096, 44.1 kHz, stereo, 16 bit, frame 0) and its CRC-8.
        let header: [UInt8] = [0xFF, 0xF8, 0xC9, 0x18, 0x00]
        #expect(FLACTail.crc8(header[...]) == 0xC2)
    }
}
