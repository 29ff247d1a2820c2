import Foundation

/// Files whose container FFmpeg reads but whose codec it cannot decode (issue 49), made in the test: no
/// corpus. Shared by the probe, scan, CLI and server tests.
public enum UndecodableMedia {
    /// ffmpeg on PATH (nil: not installed, and the tests that need it say so).
    public static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// `ffmpeg`, or the error a test that cannot do without it throws.
    public static func requireFFmpeg() throws -> String {
        guard let ffmpeg else { throw TestFailure("ffmpeg is not installed") }
        return ffmpeg
    }
    /// libFLAC's `flac` (1.4 writes 32-bit FLAC).
    public static let flac = ["/usr/bin/flac", "/usr/local/bin/flac"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A 0.76 s AAC MP4 made by ffmpeg (title "Four Sees", artist "Dolby") with its sample entry's fourcc
    /// rewritten to `fourcc` and its `esds` box renamed `config` (else FFmpeg takes the codec from it), as
    /// ffprobe then shows an AC-4 file ("none (ac-4 / 0x342D6361)"): `("ac-4", "dac4")`, `("mhm1", "mhaC")`.
    public static func mp4(in dir: URL, fourcc: String, config: String, title: String = "Four Sees") throws -> URL {
        guard let ffmpeg else { throw TestFailure("ffmpeg is not installed") }
        let source = dir.appendingPathComponent("source-\(UUID().uuidString).mp4")
        let p = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=0.76:r=48000",
                                              "-c:a", "aac", "-metadata", "title=\(title)", "-metadata", "artist=Dolby", "-f", "mp4", source.path])
        guard p.status == 0 else { throw TestFailure("ffmpeg could not make an MP4: \(p.stderr)") }
        defer { try? FileManager.default.removeItem(at: source) }
        var bytes = [UInt8](try Data(contentsOf: source))
        func replace(_ old: String, _ new: String) throws {
            let o = Array(old.utf8)
            guard let at = (0...(bytes.count - 4)).first(where: { bytes[$0..<$0 + 4].elementsEqual(o) }) else { throw TestFailure("no \(old) box") }
            bytes.replaceSubrange(at..<at + 4, with: Array(new.utf8))
        }
        try replace("mp4a", fourcc)
        try replace("esds", config)
        let url = dir.appendingPathComponent("\(fourcc).mp4")
        try Data(bytes).write(to: url)
        return url
    }

    /// `seconds` of a mono 44.1 kHz sine as 32-bit FLAC, written by libFLAC's `flac` (FFmpeg 5.1 decodes
    /// none of its frames), titled `title`.
    public static func flac32(in dir: URL, name: String = "wide.flac", seconds: Double = 1, title: String = "Thirty-two") throws -> URL {
        guard let ffmpeg, let flac else { throw TestFailure("ffmpeg or flac is not installed") }
        let raw = dir.appendingPathComponent(name + ".s32"), url = dir.appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(at: raw) }
        let p = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=\(seconds):r=44100",
                                              "-f", "s32le", "-c:a", "pcm_s32le", raw.path])
        guard p.status == 0 else { throw TestFailure("ffmpeg could not make PCM: \(p.stderr)") }
        let f = try ChildProcess.run(flac, ["-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "--channels=1",
                                            "--bps=32", "--sample-rate=44100", "-T", "TITLE=\(title)", "-o", url.path, raw.path])
        guard f.status == 0 else { throw TestFailure("flac could not make a 32-bit FLAC: \(f.stderr)") }
        return url
    }
}

extension UndecodableMedia {
    /// Whether the ffmpeg on PATH decodes any audio from `url` (FFmpeg 6.1 and later decode 32-bit FLAC;
    /// Debian 12's 5.1 decodes none of it): what a test of the rule expects of this machine's FFmpeg.
    public static func ffmpegDecodes(_ url: URL) throws -> Bool {
        guard let ffmpeg else { throw TestFailure("ffmpeg is not installed") }
        return try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "quiet", "-i", url.path, "-f", "s16le", "-"]).stdout.count > 0
    }
}
