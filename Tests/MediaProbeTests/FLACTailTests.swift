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

    /// A sync code with a matching CRC-8 inside compressed audio is not a frame header unless every field it
    /// shares with STREAMINFO agrees: a whole 5 s FLAC was once read as 0.0018 s long and truncated (CI,
    /// EveryKindScanTests: a header of "variable" blocking with sample number 80 in ffmpeg's fixed stream).
    @Test func aHeaderThatDisagreesWithStreamInfoIsNoFrame() {
        let stream = FLACTail.StreamInfo(minimumBlockSize: 4096, blockSize: 4096, sampleRate: 44_100, channels: 2, bitsPerSample: 16)
        func header(_ bytes: [UInt8]) -> [UInt8] { bytes + [FLACTail.crc8(bytes[...])] }
        // Fixed blocking, 4096, 44.1 kHz, stereo, 16 bit, frame 3: samples 12,288 to 16,384.
        let real = header([0xFF, 0xF8, 0xC9, 0x18, 0x03])
        #expect(FLACTail.sampleRange(real, at: 0, stream: stream)?.first == 12_288)
        #expect(FLACTail.sampleRange(real, at: 0, stream: stream)?.end == 16_384)
        // The same with rate and size "from STREAMINFO", and left/side stereo: still a frame.
        #expect(FLACTail.sampleRange(header([0xFF, 0xF8, 0xC0, 0x80, 0x03]), at: 0, stream: stream) != nil)
        let refused: [(String, [UInt8])] = [
            ("variable blocking in a fixed stream", [0xFF, 0xF9, 0xC9, 0x18, 0x50]),
            ("48 kHz", [0xFF, 0xF8, 0xCA, 0x18, 0x03]),
            ("mono", [0xFF, 0xF8, 0xC9, 0x08, 0x03]),
            ("24 bit", [0xFF, 0xF8, 0xC9, 0x1C, 0x03]),
            ("a block of 8192", [0xFF, 0xF8, 0xD9, 0x18, 0x03]),
            ("an explicit rate of 48,000 Hz", [0xFF, 0xF8, 0xCD, 0x18, 0x03, 0xBB, 0x80]),
        ]
        for (why, bytes) in refused {
            #expect(FLACTail.sampleRange(header(bytes), at: 0, stream: stream) == nil, "\(why)")
        }
        // A variable-blocksize stream takes the sample number as it is.
        let variable = FLACTail.StreamInfo(minimumBlockSize: 1152, blockSize: 4608, sampleRate: 44_100, channels: 2, bitsPerSample: 16)
        #expect(FLACTail.sampleRange(header([0xFF, 0xF9, 0xC9, 0x18, 0x50]), at: 0, stream: variable)?.first == 80)
        // An explicit rate that matches is a frame.
        #expect(FLACTail.sampleRange(header([0xFF, 0xF8, 0xCD, 0x18, 0x03, 0xAC, 0x44]), at: 0, stream: stream) != nil)
    }

    @Test func crc8MatchesTheFLACReference() {
        // A FLAC frame header (fixed block size 4096, 44.1 kHz, stereo, 16 bit, frame 0) and its CRC-8.
        let header: [UInt8] = [0xFF, 0xF8, 0xC9, 0x18, 0x00]
        #expect(FLACTail.crc8(header[...]) == 0xC2)
    }
}
