import Foundation
import TestSupport

/// Generated audio (ffmpeg's lavfi sources, encoded by the file name's extension) in a fresh temporary
/// directory, and the reference tools' readings of it: loudgain, ffmpeg's ebur128 filter, fpcalc.
final class AnalysisFixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-analysis-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Music-like stereo audio: pink noise on the left, a tone on the right, quieter for the first part
    /// (so the loudness range is not zero). `seed` and `frequency` make different "recordings".
    func music(_ name: String, seconds: Double = 15, seed: Int = 3, frequency: Int = 330, level: Double = 1,
               extra: [String] = []) throws -> String {
        try ffmpeg(["-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.3:duration=\(seconds):seed=\(seed)",
                    "-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=\(seconds)",
                    "-filter_complex", "[0][1]amerge=inputs=2,volume='\(level)*if(lt(t,\(seconds / 2)),0.4,1)':eval=frame",
                    "-ar", "44100"] + extra, name)
    }

    /// A sine tone, mono or stereo.
    func tone(_ name: String, seconds: Double = 10, frequency: Int = 440, channels: Int = 1, extra: [String] = []) throws -> String {
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=\(frequency):duration=\(seconds)", "-ac", "\(channels)"] + extra, name)
    }

    /// A melody: a sine whose note changes `notesPerSecond` times a second, walking the 12 semitones above
    /// 220 Hz by `step` and turning by `turn` every third note, so that melodies of other steps, turns and
    /// tempos are other recordings made of the same pitch classes.
    func melody(_ name: String, seconds: Double = 15, step: Int, turn: Int, notesPerSecond: Int) throws -> String {
        let note = "floor(t*\(notesPerSecond))"
        let expression = "0.4*sin(2*PI*t*220*pow(2,mod(\(note)*\(step)+\(turn)*floor(\(note)/3),12)/12))"
        return try ffmpeg(["-f", "lavfi", "-i", "aevalsrc='\(expression)':s=44100:d=\(seconds)", "-ac", "2"], name)
    }

    /// `source` re-encoded (by `name`'s extension, with `options` such as a bit rate or a trim).
    func reencode(_ source: String, _ name: String, options: [String] = []) throws -> String {
        try ffmpeg(["-i", source] + options, name)
    }

    private func ffmpeg(_ arguments: [String], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let run = try ChildProcess.run("ffmpeg", ["-v", "error", "-y"] + arguments + [path])
        guard run.status == 0 else { throw Failure("ffmpeg: \(run.stderr)") }
        return path
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// loudgain's reading (always true peak): each file's and, last, the album's (loudness LUFS, range LU,
    /// true peak linear, gain dB).
    static func loudgain(_ paths: [String]) throws -> [(loudness: Double, range: Double, peak: Double, gain: Double)] {
        let run = try ChildProcess.run("loudgain", ["-O", "-a"] + paths)
        guard run.status == 0 else { throw Failure("loudgain: \(run.stderr)") }
        return run.out.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t").map { String($0.split(separator: " ")[0]) }
            return (Double(fields[1])!, Double(fields[2])!, Double(fields[3])!, Double(fields[8])!)
        }
    }

    /// ffmpeg's ebur128 filter: integrated loudness, loudness range, sample and true peak (dBFS), to 0.1.
    static func ebur128Filter(_ path: String) throws -> (loudness: Double, range: Double, samplePeak: Double, truePeak: Double) {
        let run = try ChildProcess.run("ffmpeg", ["-nostats", "-hide_banner", "-i", path, "-af", "ebur128=peak=sample+true", "-f", "null", "-"])
        let summary = run.stderr.components(separatedBy: "Summary:").last ?? ""
        func value(_ label: String, after section: String) -> Double {
            let part = summary.components(separatedBy: section).last ?? ""
            let line = part.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
        }
        return (value("I:", after: "Integrated loudness:"), value("LRA:", after: "Loudness range:"),
                value("Peak:", after: "Sample peak:"), value("Peak:", after: "True peak:"))
    }

    /// `fpcalc -raw`'s fingerprint (it exits 3 at the end of many files with FFmpeg 5, having printed it).
    static func fpcalc(_ path: String) throws -> [UInt32] {
        let run = try ChildProcess.run("fpcalc", ["-raw", path])
        let line = run.out.split(separator: "\n").first { $0.hasPrefix("FINGERPRINT=") } ?? ""
        return line.dropFirst("FINGERPRINT=".count).split(separator: ",").compactMap { UInt32($0) }
    }
}
