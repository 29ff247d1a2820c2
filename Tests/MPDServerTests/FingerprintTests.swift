import Foundation
import Testing

/// `getfingerprint URI` (issue 28): mpd's `chromaprint:` line, Chromaprint's compressed base64 form, equal
/// to what `fpcalc` (without -raw) prints for the same file; decoded for a song not analysed, from the
/// stored print for one that is.
@Suite(.serialized, .enabled(if: toolExists("ffmpeg") && toolExists("fpcalc"), "ffmpeg or fpcalc missing (scripts/install-deps.sh)"))
struct FingerprintTests {
    /// fpcalc's FINGERPRINT= line (it exits 3 at the end of many files with FFmpeg 5, having printed it).
    static func fpcalc(_ path: String) throws -> String {
        let line = try run("fpcalc", [path]).out.split(separator: "\n").first { $0.hasPrefix("FINGERPRINT=") }
        return String(try #require(line).dropFirst("FINGERPRINT=".count))
    }

    @Test func getfingerprintAnswersAsFpcalcPrints() throws {
        let library = try TestLibrary()
        defer { library.remove() }
        // The fixtures last 1 s, too short for a fingerprint (fpcalc: "Empty fingerprint"): 20 s of music-like
        // audio as MP3 beside the 30 s tones.
        #expect(try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.3:duration=20:seed=4",
                                   "-f", "lavfi", "-i", "sine=frequency=330:duration=20", "-filter_complex", "[0][1]amerge=inputs=2",
                                   "-b:a", "128k", library.music.appendingPathComponent("Other/song.mp3").path]).status == 0)
        #expect(try run(Paths.mlib.path, ["scan", "--library", library.library, "-q", library.music.path]).status == 0)
        let server = try ServeProcess(library: library.library)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let songs = ["Long/tone1.flac", "Long/tone2.flac", "Other/song.mp3"]
        var expected: [String: String] = [:]
        for song in songs { expected[song] = try Self.fpcalc(library.music.appendingPathComponent(song).path) }

        // Not analysed: decoded.
        for song in songs {
            #expect(try client.command("getfingerprint \"\(song)\"") == ["chromaprint: \(expected[song]!)", "OK"], "\(song)")
        }
        #expect(try client.command("getfingerprint nothing.flac") == ["ACK [50@0] {getfingerprint} No such song"])

        // Analysed: from the stored print, even once the file no longer holds that audio.
        #expect(try run(Paths.mlib.path, ["analyze", "--quiet", "--library", library.library]).status == 0)
        let tone = library.music.appendingPathComponent("Long/tone1.flac").path
        #expect(try run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=duration=30:seed=9", "-ac", "1",
                                   library.directory.appendingPathComponent("noise.flac").path]).status == 0)
        try FileManager.default.removeItem(atPath: tone)
        try FileManager.default.moveItem(atPath: library.directory.appendingPathComponent("noise.flac").path, toPath: tone)
        for song in songs {
            #expect(try client.command("getfingerprint \"\(song)\"") == ["chromaprint: \(expected[song]!)", "OK"], "\(song)")
        }
    }
}
