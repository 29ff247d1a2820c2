import Foundation
import Testing

/// `mlib play --replay-gain`: the player applied ReplayGain only when `mlib serve`'s clients asked for
/// it; the command line had no way to. The fixture is tagged track −6.5 dB (peak 0.989), album −7.25 dB.
@Suite(.serialized) struct PlayReplayGainTests {
    let dir: URL
    let library: String
    let file: String

    init() throws {
        let folder = try FixtureFolder("rg", copying: ["flac-vorbis-cover.flac"], as: ["tagged.flac"])
        (dir, library) = (folder.dir, folder.library)
        file = folder.music.appendingPathComponent("tagged.flac").path
        let scan = try folder.scan()
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    /// The largest sample magnitude of the WAV that `mode` renders, as a fraction of full scale.
    func peak(_ mode: String) throws -> Double {
        let out = dir.appendingPathComponent("\(mode).wav").path
        let r = try CLI.run(["play", "--files", file, "--sink", "wav:" + out, "--replay-gain", mode, "--library", library])
        #expect(r.status == 0, "\(r.stderr)")
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let bytes = Int(data[34]) / 8
        var largest = 0
        for at in stride(from: 44, to: data.count - bytes + 1, by: bytes) {
            var v = 0
            for b in 0..<bytes { v |= Int(data[at + b]) << (8 * b) }
            if v >= 1 << (8 * bytes - 1) { v -= 1 << (8 * bytes) }
            largest = max(largest, abs(v))
        }
        return Double(largest) / Double(1 << (8 * bytes - 1))
    }

    @Test func trackAndAlbumGainScaleTheOutput() throws {
        let plain = try peak("off")
        #expect(plain > 0.1)
        let track = try peak("track") / plain, album = try peak("album") / plain
        #expect(abs(track - 0.4732) < 0.01, "track ratio \(track)")
        #expect(abs(album - 0.4335) < 0.01, "album ratio \(album)")
        #expect(abs(try peak("auto") / plain - album) < 0.001, "auto without shuffle is album gain")
    }

    @Test func anUnknownModeIsAUsageError() throws {
        let r = try CLI.run(["play", "--files", file, "--sink", "null:fast", "--replay-gain", "loud", "--library", library])
        #expect(r.status == 2)
        #expect(r.stderr.contains("off") && r.stderr.contains("album"), "\(r.stderr)")
    }
}
