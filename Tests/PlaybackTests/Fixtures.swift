import Foundation
import MediaModel
@testable import Playback
import TestSupport

/// Real audio files made with the ffmpeg command line in a fresh temporary directory, and the
/// reference decoded length of each according to ffmpeg itself (an independent decoder pipeline).
final class AudioFixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mlib-playback-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A sine tone of `seconds` at `sampleRate` with `channels`, encoded by the file name's extension.
    func tone(_ name: String, seconds: Double, sampleRate: Int = 44_100, channels: Int = 2,
              frequency: Int = 440) throws -> MediaItem {
        try make(name, source: "sine=frequency=\(frequency):duration=\(seconds):sample_rate=\(sampleRate)",
                 extra: ["-ac", "\(channels)"])
    }

    /// A signal whose value tells the time: the left channel is a ramp from 0 to `seconds`/100 in full
    /// scale (`WAVFile.rampSeconds` reads it back). Lossless formats only.
    func clockRamp(_ name: String, seconds: Double) throws -> MediaItem {
        try make(name, source: "aevalsrc=exprs=t/100|t/100:duration=\(seconds):sample_rate=44100", extra: [])
    }

    /// A file that is not audio at all, with an audio file's name.
    func garbage(_ name: String) throws -> MediaItem {
        let url = directory.appendingPathComponent(name)
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        var rng = SeededGenerator(seed: 7)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        try Data(bytes).write(to: url)
        return item(at: url)
    }

    /// A 24-bit FLAC at `sampleRate`: two tones whose low bits are all in use (FFmpeg quantises its
    /// floating-point generator to 24 bits), so a 16-bit path anywhere would show.
    func hiRes(_ name: String, seconds: Double, sampleRate: Int = 96_000) throws -> MediaItem {
        try make(name, source: "aevalsrc=exprs=0.6*sin(2*PI*1000*t)|0.4*sin(2*PI*1500*t+1):duration=\(seconds):sample_rate=\(sampleRate)",
                 extra: ["-c:a", "flac", "-sample_fmt", "s32", "-bits_per_raw_sample", "24"])
    }

    /// The samples ffmpeg's own command line decodes from `item` as 24-bit integers, at its own rate and
    /// channels (an independent decoder pipeline to compare the player's output with).
    func reference24Bit(_ item: MediaItem) throws -> [Int32] {
        signedLittleEndian(Array(try run(["-v", "error", "-i", item.path.string, "-f", "s24le", "-"])), bytesPerSample: 3)
    }

    /// How many frames ffmpeg's own command line decodes from `item` at `format`.
    func referenceFrames(_ item: MediaItem, format: AudioFormat = .cd) throws -> Int {
        let bytes = try run(["-v", "error", "-i", item.path.string, "-f", "s16le", "-ar", "\(format.sampleRate)",
                             "-ac", "\(format.channels)", "-"])
        return bytes.count / format.bytesPerFrame
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func make(_ name: String, source: String, extra: [String]) throws -> MediaItem {
        let url = directory.appendingPathComponent(name)
        _ = try run(["-v", "error", "-y", "-f", "lavfi", "-i", source] + extra + [url.path])
        return item(at: url)
    }

    private func item(at url: URL) -> MediaItem {
        var item = MediaItem(path: MediaPath(url.path))
        item.title = url.lastPathComponent
        item.persistentID = Int64(abs(url.lastPathComponent.hashValue % 100_000))
        return item
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> Data {
        let made = try ChildProcess.run("ffmpeg", arguments)
        guard made.status == 0 else {
            throw SinkError("ffmpeg \(arguments.joined(separator: " ")) failed (\(made.status)): \(made.stderr)")
        }
        return made.stdout
    }
}

/// Reads back a WAV file written by `WAVFileSink`: header fields and samples.
struct WAVFile {
    var channels: Int
    var sampleRate: Int
    var bitsPerSample: Int
    var riffSize: Int
    /// Each sample's integer value at the file's own depth (sign-extended).
    var values: [Int32]
    /// The samples of a 16-bit file.
    var samples: [Int16]
    var frameCount: Int { values.count / channels }

    /// Where a `clockRamp` file was at sample `index`, in seconds (the ramp rises 1/100 of full scale a
    /// second). The ramp is 24-bit (ffmpeg's FLAC of a floating-point source) and the WAV sink keeps that
    /// depth, so this reads the file's own full scale rather than assuming 16 bits.
    func rampSeconds(at index: Int) -> Double {
        Double(values[index]) * 100 / Double(Int64(1) << (bitsPerSample - 1))
    }

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        func u32(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        guard data.count >= 44, data.prefix(4) == Data("RIFF".utf8), data[36..<40] == Data("data".utf8) else {
            throw SinkError("\(path): not a canonical WAV file")
        }
        channels = u16(22)
        sampleRate = u32(24)
        bitsPerSample = u16(34)
        riffSize = u32(4)
        let dataSize = u32(40)
        guard dataSize == data.count - 44 else { throw SinkError("\(path): data size \(dataSize) ≠ \(data.count - 44)") }
        values = signedLittleEndian(Array(data.dropFirst(44)), bytesPerSample: bitsPerSample / 8)
        samples = bitsPerSample == 16 ? values.map { Int16(truncatingIfNeeded: $0) } : []
    }
}

/// Little-endian signed integers of `bytesPerSample` bytes each (2, 3 or 4), sign-extended.
func signedLittleEndian(_ bytes: [UInt8], bytesPerSample n: Int) -> [Int32] {
    stride(from: 0, to: bytes.count - n + 1, by: n).map { at in
        var v: UInt32 = 0
        for b in 0..<n { v |= UInt32(bytes[at + b]) << (8 * b) }
        let unused = 32 - 8 * n
        return Int32(bitPattern: v << unused) >> unused
    }
}

/// Waits (polling, bounded) until `condition` holds; false on timeout.
func eventually(timeout: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
