import Foundation
import Testing
import TestSupport

/// Issue 41's chapters: `mlib info --chapters --json` lists what ffprobe -show_chapters lists (start, end,
/// title) for an M4B made by ffmpeg -map_chapters (QuickTime chapter track and Nero chpl both, and each
/// alone), an MP3 with ID3v2 CHAP/CTOC frames and an Opus and an Ogg Vorbis with CHAPTERxxx comments
/// (mutagen), and a Matroska file (ffmpeg). The files are made here.
@Suite(.serialized, .enabled(if: LyricsCorpus.available, "ffmpeg or python3-mutagen missing (scripts/install-deps.sh)"))
struct InfoChaptersTests {
    @Test func chaptersEqualFFprobes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-chapters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("make.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let made = try ChildProcess.run("python3", [script.path, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        for name in ["book.m4b", "qt-track-only.m4b", "chpl-only.m4b", "book.mp3", "book.opus", "book.ogg", "book.mkv"] {
            let path = dir.appendingPathComponent(name).path
            let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", path])
            let reference = try #require((try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["chapters"] as? [[String: Any]])
            let r = try CLI.run(["info", "--chapters", "--json", path])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            let object = try #require((try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])?.first, "\(name)")
            let chapters = try #require(object["chapters"] as? [[String: Any]])
            #expect(reference.count == 3, "\(name): ffprobe lists \(reference.count)")
            #expect(chapters.count == reference.count, "\(name): \(chapters)")
            for (i, (got, want)) in zip(chapters, reference).enumerated() {
                #expect(got["index"] as? Int == i + 1)
                #expect(got["title"] as? String == (want["tags"] as? [String: Any])?["title"] as? String, "\(name) #\(i + 1)")
                let start = Double(want["start_time"] as? String ?? "") ?? -1, end = Double(want["end_time"] as? String ?? "") ?? -1
                #expect(abs((got["start"] as? Double ?? -9) - start) <= 0.001, "\(name) #\(i + 1): \(got) vs \(want)")
                // The last chapter of an Ogg file ends at the audio's end: ffprobe's counts Opus's pre-skip
                // (312 samples, 6.5 ms) and Vorbis's granule rounding, mlib's length does not.
                let slack = i == reference.count - 1 && (name.hasSuffix(".opus") || name.hasSuffix(".ogg")) ? 0.010 : 0.001
                #expect(abs((got["end"] as? Double ?? -9) - end) <= slack, "\(name) #\(i + 1): \(got) vs \(want)")
            }
        }
        // The text form: one numbered line per chapter.
        let text = try CLI.run(["info", "--chapters", dir.appendingPathComponent("book.mp3").path])
        #expect(text.out.hasSuffix("  #1 0:00.000 – 0:10.000  One\n  #2 0:10.000 – 0:20.500  Two\n  #3 0:20.500 – 0:30.000  Three\n"), "\(text.out)")
    }

    static let script = #"""
        import os, subprocess, sys
        from mutagen.id3 import ID3, CHAP, CTOC, TIT2, CTOCFlags
        from mutagen.oggopus import OggOpus
        from mutagen.oggvorbis import OggVorbis
        d = sys.argv[1]
        def p(n): return os.path.join(d, n)
        def ff(*args): subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)
        chapters = [(0, 10000, "One"), (10000, 20500, "Two"), (20500, 30000, "Three")]
        with open(p("chapters.txt"), "w") as f:
            f.write(";FFMETADATA1\n")
            for s, e, n in chapters:
                f.write("[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=%s\n" % (s, e, n))
        ff("-f", "lavfi", "-i", "sine=duration=30", "-ac", "1", "-c:a", "aac", "-b:a", "32k", p("base.m4a"))
        ff("-i", p("base.m4a"), "-i", p("chapters.txt"), "-map_metadata", "1", "-map_chapters", "1", "-c", "copy", p("book.m4b"))
        ff("-i", p("base.m4a"), "-i", p("chapters.txt"), "-map_metadata", "1", "-map_chapters", "1", "-c", "copy", p("book.mkv"))
        # FFmpeg writes both a QuickTime chapter track (tref "chap") and a Nero "chpl" atom: each alone, by
        # renaming the other's atom type (same size: the file stays whole).
        data = open(p("book.m4b"), "rb").read()
        assert data.count(b"chpl") == 1 and data.count(b"tref") == 1
        open(p("qt-track-only.m4b"), "wb").write(data.replace(b"chpl", b"free"))
        at = data.index(b"tref")
        open(p("chpl-only.m4b"), "wb").write(data[:at + 8] + b"xxxx" + data[at + 12:])
        ff("-f", "lavfi", "-i", "sine=duration=30", "-ac", "1", "-c:a", "libmp3lame", "-b:a", "32k", p("book.mp3"))
        t = ID3()
        for i, (s, e, n) in enumerate(chapters):
            t.add(CHAP(element_id="ch%d" % i, start_time=s, end_time=e, sub_frames=[TIT2(text=[n])]))
        t.add(CTOC(element_id="toc", flags=CTOCFlags.TOP_LEVEL | CTOCFlags.ORDERED,
                   child_element_ids=["ch0", "ch1", "ch2"], sub_frames=[TIT2(text=["Contents"])]))
        t.save(p("book.mp3"))
        for name, codec, cls in [("book.opus", "libopus", OggOpus), ("book.ogg", "libvorbis", OggVorbis)]:
            ff("-f", "lavfi", "-i", "sine=duration=30", "-ac", "1", "-c:a", codec, p(name))
            o = cls(p(name))
            for i, (s, e, n) in enumerate(chapters):
                o["CHAPTER%03d" % (i + 1)] = "00:00:%06.3f" % (s / 1000)
                o["CHAPTER%03dNAME" % (i + 1)] = n
            o.save()
        """#
}
