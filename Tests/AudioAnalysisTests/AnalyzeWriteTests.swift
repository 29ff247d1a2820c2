import Foundation
import Testing
import TestSupport

/// `mlib analyze --write`: the ReplayGain tags loudgain writes (its `-s e` run on copies of the same files
/// is the reference, mutagen the reader), R128_* in Opus, the audio untouched, the index read again with
/// its analysis kept, and a killed write leaving each file wholly old or new.
@Suite("mlib analyze --write", .serialized)
final class AnalyzeWriteTests {
    let fixtures: AnalysisFixtures
    /// A journal, HOME and data directory of the test's own (the tag journal lives there).
    let environment: [String: String]

    init() throws {
        fixtures = try AnalysisFixtures()
        let home = fixtures.directory.appendingPathComponent("home").path
        environment = ["HOME": home, "XDG_DATA_HOME": home + "/data", "MLIB_TAG_JOURNAL": home + "/journal"]
    }

    func mlib(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(ChildProcess.mlib.path, arguments, environment: environment)
    }

    /// The tags mutagen reads, lower-cased keys (ID3v2 TXXX by description, MP4 freeform by name).
    static func tags(_ path: String) throws -> [String: String] {
        let script = """
            import json, sys, mutagen
            f = mutagen.File(sys.argv[1]); out = {}
            for k, v in (f.tags.items() if f.tags is not None else []):
                name = k.split(":")[-1].lower()
                if k.startswith("TXXX:"): v = v.text
                elif k.startswith("----:"): v = [bytes(x).decode() for x in v]
                out[name] = str(v[0]) if isinstance(v, list) else str(v)
            print(json.dumps(out))
            """
        let run = try ChildProcess.run("python3", ["-c", script, path])
        guard run.status == 0 else { throw AnalysisFixtures.Failure("mutagen: \(run.stderr)") }
        return try JSONDecoder().decode([String: String].self, from: run.stdout)
    }

    /// The decoded audio's md5 (ffmpeg's md5 muxer).
    static func audioMD5(_ path: String) throws -> String {
        try ChildProcess.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-"]).out
    }

    static func number(_ text: String?) -> Double? {
        text.flatMap { Double($0.split(separator: " ").first ?? "") }
    }

    @Test func writesTheTagsLoudgainWrites() throws {
        let music = fixtures.directory.appendingPathComponent("music"), reference = fixtures.directory.appendingPathComponent("loudgain")
        for dir in [music, reference] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        let album = ["-metadata", "album=Album", "-metadata", "artist=Artist"]
        let source = try fixtures.music("source.wav", seconds: 12)
        var names: [String] = []
        for (name, options) in [("a.flac", [String]()), ("b.mp3", ["-b:a", "192k"]), ("c.m4a", ["-c:a", "aac", "-b:a", "160k"]),
                                ("d.ogg", ["-c:a", "libvorbis"]), ("f.wma", ["-c:a", "wmav2", "-b:a", "160k"])] {
            _ = try fixtures.reencode(source, "music/" + name, options: options + album + ["-af", "volume=\(names.count + 1)dB"])
            names.append(name)
        }
        // An Opus file, alone on its album (loudgain will not measure an album mixing Opus and others), with
        // a REPLAYGAIN field to be removed (RFC 7845).
        _ = try fixtures.reencode(source, "music/e.opus", options: ["-c:a", "libopus", "-metadata", "album=Other",
                                                                     "-metadata", "REPLAYGAIN_TRACK_GAIN=1.00 dB"])
        for name in names + ["e.opus"] {
            try FileManager.default.copyItem(at: music.appendingPathComponent(name), to: reference.appendingPathComponent(name))
        }
        let path = { (name: String) in music.appendingPathComponent(name).path }
        let before = try Dictionary(uniqueKeysWithValues: (names + ["e.opus"]).map { ($0, try Self.audioMD5(path($0))) })

        let loudgain = try ChildProcess.run("loudgain", ["-q", "-s", "e", "-a"] + names.map { reference.appendingPathComponent($0).path })
        #expect(loudgain.status == 0, "\(loudgain.stderr)")
        let loudgainOpus = try ChildProcess.run("loudgain", ["-q", "-s", "e", "-a", reference.appendingPathComponent("e.opus").path])
        #expect(loudgainOpus.status == 0, "\(loudgainOpus.stderr)")

        let library = fixtures.directory.appendingPathComponent("library.sqlite").path
        #expect(try mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)
        // --dry-run: the plan, and no file touched.
        let bytesBefore = try (names + ["e.opus"]).map { try Data(contentsOf: URL(fileURLWithPath: path($0))) }
        let plan = try mlib(["analyze", "--true-peak", "--write", "--dry-run", "--library", library])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.out.contains("REPLAYGAIN_TRACK_GAIN: (none) → ") && plan.out.contains("R128_TRACK_GAIN: (none) → "), "\(plan.out)")
        #expect(try (names + ["e.opus"]).map { try Data(contentsOf: URL(fileURLWithPath: path($0))) } == bytesBefore)

        let run = try mlib(["analyze", "--true-peak", "--write", "--library", library])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.out.contains("wrote 6 files"), "\(run.out)")

        for name in names {
            let ours = try Self.tags(path(name)), theirs = try Self.tags(reference.appendingPathComponent(name).path)
            for key in ["replaygain_track_gain", "replaygain_album_gain"] {
                let value = ours[key] ?? ""
                #expect(value.range(of: #"^-?[0-9]+\.[0-9]{2} dB$"#, options: .regularExpression) != nil, "\(name) \(key): \(value)")
                let (a, b) = (Self.number(ours[key]) ?? .nan, Self.number(theirs[key]) ?? .nan)
                #expect(abs(a - b) <= 0.011, "\(name) \(key): \(value) vs loudgain \(theirs[key] ?? "none")")
            }
            for key in ["replaygain_track_peak", "replaygain_album_peak"] {
                let value = ours[key] ?? ""
                #expect(value.range(of: #"^[0-9]+\.[0-9]{6}$"#, options: .regularExpression) != nil, "\(name) \(key): \(value)")
                let (a, b) = (Self.number(ours[key]) ?? .nan, Self.number(theirs[key]) ?? .nan)
                #expect(abs(20 * log10(a / b)) <= 0.1, "\(name) \(key): \(value) vs loudgain \(theirs[key] ?? "none")")
            }
            #expect(ours["replaygain_reference_loudness"] == "-18.00 LUFS")
            #expect(ours["replaygain_reference_loudness"] == theirs["replaygain_reference_loudness"])
        }
        // Opus: R128_* (Q7.8 to -23 LUFS) and no REPLAYGAIN_* field.
        let ours = try Self.tags(path("e.opus")), theirs = try Self.tags(reference.appendingPathComponent("e.opus").path)
        #expect(!ours.keys.contains { $0.hasPrefix("replaygain_") }, "\(ours)")
        for key in ["r128_track_gain", "r128_album_gain"] {
            let (a, b) = (Int(ours[key] ?? ""), Int(theirs[key] ?? ""))
            #expect(a != nil && b != nil && abs(a! - b!) <= 3, "\(key): \(ours[key] ?? "none") vs loudgain \(theirs[key] ?? "none")")
        }

        // The audio is as it was.
        for name in names + ["e.opus"] { #expect(try Self.audioMD5(path(name)) == before[name], "\(name)") }

        // The index read the files again (the tags' values), and kept the analysis.
        let listed = try mlib(["ls", "--library", library, "-f", "$path\t$replayGainTrackGain\t$trackGain\t$analysisVersion"]).out
        for line in listed.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 4 && !fields[2].isEmpty && !fields[3].isEmpty, "analysis cleared: \(line)")
            if !fields[0].hasSuffix(".opus") {
                let written = Self.number(try Self.tags(fields[0])["replaygain_track_gain"])
                #expect(Double(fields[1]) == written, "index not refreshed: \(line)")
            }
        }

        // A second run writes nothing; --json adds each file's outcome to the summary.
        let again = try mlib(["analyze", "--write", "--library", library])
        #expect(again.status == 0 && again.out.contains("wrote 0 files"), "\(again.out) \(again.stderr)")
        let json = try mlib(["analyze", "--write", "--json", "--library", library])
        let summary = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(summary?["matched"] as? Int == 6 && summary?["upToDate"] as? Int == 6, "\(json.out)")
        let outcomes = (summary?["tags"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
        #expect(outcomes == Array(repeating: "unchanged", count: 6), "\(json.out)")
    }

    /// A format mlib cannot write tags to (Matroska) is named on standard error and the status is 1; the
    /// other files are written.
    @Test func aFormatWithoutTagWritingIsReportedAndTheRestWritten() throws {
        let music = fixtures.directory.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let flac = try fixtures.music("music/song.flac", seconds: 4)
        let mka = try fixtures.reencode(flac, "music/song.mka", options: ["-c:a", "flac"])
        let library = fixtures.directory.appendingPathComponent("library.sqlite").path
        #expect(try mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: mka))
        let run = try mlib(["analyze", "--write", "--library", library])
        #expect(run.status == 1, "\(run.out) \(run.stderr)")
        #expect(run.stderr.contains(mka) && !run.stderr.contains(flac), "\(run.stderr)")
        #expect(run.out.contains("wrote 1 file"), "\(run.out)")
        #expect(try Self.tags(flac)["replaygain_track_gain"] != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: mka)) == before)
    }

    /// A silent file has no gain to write: it is named on standard error with "nothing to write" (so an
    /// untagged file is not taken for a failed write), the status stays 0, and the file beside it is written.
    @Test func aFileWithNoGainToWriteIsNamed() throws {
        let music = fixtures.directory.appendingPathComponent("quiet")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let tone = try fixtures.music("quiet/tone.flac", seconds: 4)
        let silence = try fixtures.music("quiet/silence.flac", seconds: 4, level: 0)
        let library = fixtures.directory.appendingPathComponent("quiet.sqlite").path
        #expect(try mlib(["scan", "--quiet", "--library", library, music.path]).status == 0)
        let run = try mlib(["analyze", "--write", "--library", library])
        #expect(run.status == 0, "\(run.out) \(run.stderr)")
        #expect(run.stderr.contains(silence + ": no gain measured") && run.stderr.contains("nothing to write"), "\(run.stderr)")
        #expect(!run.stderr.contains(tone), "\(run.stderr)")
        #expect(try Self.tags(tone)["replaygain_track_gain"] != nil)
        #expect(try Self.tags(silence)["replaygain_track_gain"] == nil)
        #expect(try mlib(["analyze", "--write", "--quiet", "--library", library]).stderr.isEmpty)
    }

    /// kill -9 at random moments of `analyze --write` over 12 files (FLACs edited in place behind the
    /// journal, MP3s rewritten as copies renamed over them): after the next mlib command each file is byte
    /// for byte its old or its new self. TagWriting's journal does it; this checks that `--write` goes
    /// through it (MLIB_ANALYZE_KILL_MOMENTS moments, 6 by default).
    @Test func aKilledWriteLeavesEachFileOldOrNew() throws {
        let moments = Int(ProcessInfo.processInfo.environment["MLIB_ANALYZE_KILL_MOMENTS"] ?? "") ?? 6
        let originals = fixtures.directory.appendingPathComponent("originals")
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        var names: [String] = []
        for i in 0..<12 {
            let name = "\(i).\(i % 2 == 0 ? "flac" : "mp3")"
            _ = try fixtures.music("originals/" + name, seconds: 3, seed: i + 1, frequency: 200 + 40 * i,
                                   extra: ["-metadata", "album=Album", "-metadata", "artist=Artist"])
            names.append(name)
        }
        // Each trial: the originals copied, scanned and analysed; then only the write is left to do.
        func fresh(_ name: String) throws -> (music: URL, library: String) {
            let copy = try ScannedCopy.make(of: originals, as: name, in: fixtures.directory, environment: environment)
            #expect(try mlib(["analyze", "--quiet", "--library", copy.library]).status == 0)
            return copy
        }
        func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

        let reference = try fresh("reference")
        let started = Date()
        let full = try mlib(["analyze", "--write", "--library", reference.library])
        let duration = Date().timeIntervalSince(started)
        #expect(full.status == 0 && full.out.contains("wrote 12 files"), "\(full.out) \(full.stderr)")
        var old: [String: Data] = [:], new: [String: Data] = [:]
        for name in names {
            old[name] = try bytes(originals.appendingPathComponent(name))
            new[name] = try bytes(reference.music.appendingPathComponent(name))
            #expect(old[name] != new[name], "\(name) not written")
        }

        var kills = RandomKill(duration: duration)
        for moment in 0..<moments {
            let trial = try fresh("trial")
            try kills.run(ChildProcess.mlib.path, ["analyze", "--write", "--library", trial.library], environment: environment)

            // The next mlib command recovers the journal first.
            #expect(try mlib(["ls", "--library", trial.library, "-f", "$path"]).status == 0)
            var newCount = 0
            for name in names {
                let now = try bytes(trial.music.appendingPathComponent(name))
                #expect(now == old[name] || now == new[name], "moment \(moment): \(name) is neither old nor new")
                if now == new[name] { newCount += 1 }
            }
            kills.record(new: newCount, of: names.count)
            let hidden = try FileManager.default.contentsOfDirectory(atPath: trial.music.path).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "moment \(moment): left \(hidden)")
        }
        print("kill -9 at \(moments) moments of analyze --write over \(names.count) files (\(String(format: "%.0f", duration * 1000)) ms): \(kills.summary)")
    }
}
