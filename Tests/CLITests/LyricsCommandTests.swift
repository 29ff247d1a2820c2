import Foundation
import Testing
import TestSupport

/// Issue 41's first "Done when": a lyrics corpus made here (ffmpeg for the audio, mutagen for the tags, a few
/// lines of Python for the sidecars) round-trips through `mlib lyrics --json`: every set equals what was
/// written, line for line and time for time (±1 ms), and the embedded ones equal what mutagen reads back.
/// The corpus: an MP3 with USLT frames in three languages and a SYLT (ms); an MP3 with a SYLT timed in MPEG
/// frames (ID3v2.3, UTF-16); an M4A whose ©lyr holds LRC text
/// (a line with two time tags) and one whose ©lyr ffmpeg wrote; a Matroska file with an LRC LYRICS tag; a FLAC with a plain LYRICS comment; a WavPack with an APE Lyrics item and
/// a WMA with WM/Lyrics; an Opus with three sidecars: .lrc in
/// UTF-16 with a BOM ([offset:+250], headers, lines out of order, one clamped to 0, one past the end),
/// .elrc (enhanced, word times, [offset:-500]) and .txt in Windows-1252.
@Suite(.serialized, .enabled(if: LyricsCorpus.available, "ffmpeg or python3-mutagen missing (scripts/install-deps.sh)"))
struct LyricsCommandTests {
    @Test func everySourceRoundTripsThroughLyricsJSON() throws {
        let corpus = try LyricsCorpus()
        let files = ["multi.mp3", "frames.mp3", "song.m4a", "ffmpeg.m4a", "song.mka", "plain.flac", "ape.wv", "asf.wma", "side.opus"]
        let r = try CLI.run(["lyrics", "--json"] + files.map { corpus.path($0) })
        #expect(r.status == 0, "\(r.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(printed.count == files.count)
        for (object, file) in zip(printed, files) {
            #expect(object["path"] as? String == corpus.path(file))
            let sets = try #require(object["lyrics"] as? [[String: Any]])
            let wanted = try #require(corpus.expected[file])
            #expect(sets.count == wanted.count, "\(file): \(sets)")
            for want in wanted {
                let match = sets.first { set in
                    ["source", "language", "description"].allSatisfy { LyricsCorpus.same(set[$0], want[$0]) }
                }
                guard let got = match else {
                    Issue.record("\(file): no set \(want["source"]!) \(want["language"] ?? "-") among \(sets)")
                    continue
                }
                #expect(got["synced"] as? Bool == want["synced"] as? Bool, "\(file)")
                #expect(got["text"] as? String == want["text"] as? String, "\(file)")
                LyricsCorpus.expectLines(got["lines"] as? [[String: Any]], want["lines"] as? [[String: Any]], file)
            }
        }
        // What the sidecars' bad lines are is said, once each.
        #expect(r.stderr.contains("side.lrc: LRC lines out of time order: sorted"), "\(r.stderr)")
        #expect(r.stderr.contains("before the start after the offset 250 ms: set to 0"), "\(r.stderr)")
        #expect(r.stderr.contains("start after the end of the audio"), "\(r.stderr)")
    }

    /// Plain text by default (the preferred set: a synced sidecar first), --language picks among USLT's
    /// languages, --lrc prints LRC that reads back as the same lines (times in ms, word times kept).
    @Test func plainLanguageAndLRCOutput() throws {
        let corpus = try LyricsCorpus()
        let deu = try CLI.run(["lyrics", "--language", "deu", corpus.path("multi.mp3")])
        #expect(deu.status == 0 && deu.out == "Hallo Welt\nZweite Zeile\n", "\(deu.out)\(deu.stderr)")
        let synced = try CLI.run(["lyrics", "--lrc", corpus.path("multi.mp3")])
        #expect(synced.out == "[la:eng]\n[00:01.000]First synced\n[00:02.500]Second synced\n[00:04.321]Third, ünïcode\n", "\(synced.out)")
        let none = try CLI.run(["lyrics", "--language", "jpn", corpus.path("multi.mp3")])
        #expect(none.status == 1 && none.stderr.contains("no lyrics in 'jpn'"), "\(none.stderr)")
        let plain = try CLI.run(["lyrics", "--lrc", corpus.path("plain.flac")])
        #expect(plain.status == 1 && plain.stderr.contains("no synced lyrics"), "\(plain.stderr)")

        // The .elrc's LRC, written beside a copy of the audio as its .lrc, reads back as the same lines.
        let lrc = try CLI.run(["lyrics", "--lrc", corpus.path("side.opus")])
        #expect(lrc.out.contains("[00:01.500]<00:01.500>Hola <00:01.900>mundo <00:02.550>lindo"), "\(lrc.out)")
        try FileManager.default.copyItem(atPath: corpus.path("side.opus"), toPath: corpus.path("again.opus"))
        try lrc.stdout.write(to: URL(fileURLWithPath: corpus.path("again.lrc")))
        let first = try CLI.run(["lyrics", "--json", corpus.path("side.opus")]), again = try CLI.run(["lyrics", "--json", corpus.path("again.opus")])
        let a = try #require((try JSONSerialization.jsonObject(with: first.stdout) as? [[String: Any]])?.first?["lyrics"] as? [[String: Any]])
        let b = try #require((try JSONSerialization.jsonObject(with: again.stdout) as? [[String: Any]])?.first?["lyrics"] as? [[String: Any]])
        LyricsCorpus.expectLines(b.first?["lines"] as? [[String: Any]], a.first?["lines"] as? [[String: Any]], "again.lrc")
    }

    /// `mlib info` says what lyrics a file holds: one line per set, and a "lyrics" array in --json.
    @Test func infoListsTheSets() throws {
        let corpus = try LyricsCorpus()
        let text = try CLI.run(["info", corpus.path("multi.mp3")])
        #expect(text.status == 0)
        #expect(text.out.contains("  Lyrics (4)\n    USLT, deu, \"words-deu\", plain\n"), "\(text.out)")
        #expect(text.out.contains("    SYLT, eng, \"timed\", synced, 3 lines\n"), "\(text.out)")
        let json = try CLI.run(["info", "--json", corpus.path("side.opus")])
        let object = try #require((try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])?.first)
        let sets = try #require(object["lyrics"] as? [[String: Any]])
        #expect(sets.map { $0["source"] as? String } == ["elrc", "lrc", "txt"])
        #expect(sets.map { $0["synced"] as? Bool } == [true, true, false])
        #expect(sets.map { $0["lineCount"] as? Int } == [2, 5, 0])
        #expect(sets.first?["language"] as? String == "spa")
    }
}

/// The corpus, made in a temporary folder by ffmpeg and mutagen; `expected` is what the script wrote and
/// what mutagen read back (expected.json).
struct LyricsCorpus {
    static var available: Bool {
        ChildProcess.exists("ffmpeg") && ((try? ChildProcess.run("python3", ["-c", "import mutagen"]).status) == 0)
    }

    let dir: URL
    let expected: [String: [[String: Any]]]

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lyrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("make_corpus.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let made = try ChildProcess.run("python3", [script.path, dir.path])
        try #require(made.status == 0, "\(made.stderr)")
        let data = try Data(contentsOf: dir.appendingPathComponent("expected.json"))
        expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]])
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static func same(_ a: Any?, _ b: Any?) -> Bool {
        func norm(_ v: Any?) -> String? { v is NSNull || v == nil ? nil : "\(v!)" }
        return norm(a) == norm(b)
    }

    /// Line for line, time for time (±1 ms), word for word.
    static func expectLines(_ got: [[String: Any]]?, _ want: [[String: Any]]?, _ label: String) {
        guard let want else {
            #expect(got == nil, "\(label): unsynced lyrics have no lines")
            return
        }
        guard let got else { Issue.record("\(label): no lines"); return }
        #expect(got.count == want.count, "\(label): \(got.count) lines, \(want.count) written")
        for (g, w) in zip(got, want) {
            #expect(g["text"] as? String == w["text"] as? String, "\(label)")
            let dt = abs(((g["start"] as? Int) ?? -99) - ((w["start"] as? Int) ?? 99))
            #expect(dt <= 1, "\(label): \(g["text"] ?? "") at \(g["start"] ?? "-"), written at \(w["start"] ?? "-")")
            #expect((g["pastEnd"] as? Bool ?? false) == (w["pastEnd"] as? Bool ?? false), "\(label): \(g)")
            let gw = (g["words"] as? [[String: Any]]) ?? [], ww = (w["words"] as? [[String: Any]]) ?? []
            #expect(gw.map { $0["text"] as? String } == ww.map { $0["text"] as? String }, "\(label)")
            #expect(zip(gw, ww).allSatisfy { abs(($0["start"] as? Int ?? -99) - ($1["start"] as? Int ?? 99)) <= 1 }, "\(label): \(gw)")
        }
    }

    static let script = #"""
import json, os, sys, subprocess
from mutagen.id3 import ID3, USLT, SYLT, TIT2
from mutagen.mp4 import MP4
from mutagen.flac import FLAC

d = sys.argv[1]
def ff(name, codec, seconds=20):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=%d" % seconds, "-ac", "1",
                    *codec, os.path.join(d, name)], check=True)
def p(name): return os.path.join(d, name)
ff("multi.mp3", ["-c:a", "libmp3lame", "-b:a", "32k"])
ff("song.m4a", ["-c:a", "aac", "-b:a", "32k"])
ff("plain.flac", ["-c:a", "flac"])
ff("side.opus", ["-c:a", "libopus", "-b:a", "24k"])

expected = {}   # file -> list of sets, as mlib should print them (source, language, description, synced, text, lines)
# MP3: three USLT frames (three languages, descriptions) and a SYLT (ms), written by mutagen.
tag = ID3()
tag.add(TIT2(encoding=3, text="multi"))
uslt = {"eng": "Hello world\nSecond line", "deu": "Hallo Welt\nZweite Zeile", "fra": "Bonjour le monde\nDeuxième ligne"}
for lang, text in uslt.items():
    tag.add(USLT(encoding=3, lang=lang, desc="words-" + lang, text=text))
sylt = [("First synced", 1000), ("Second synced", 2500), ("Third, ünïcode", 4321)]
tag.add(SYLT(encoding=3, lang="eng", format=2, type=1, desc="timed", text=sylt))
tag.save(p("multi.mp3"), v2_version=4)
# What mutagen reads back from the embedded frames.
back = ID3(p("multi.mp3"))
sets = [{"source": "uslt", "language": f.lang, "description": f.desc, "synced": False, "text": f.text} for f in back.getall("USLT")]
sets += [{"source": "sylt", "language": f.lang, "description": f.desc, "synced": True, "text": "\n".join(t for t, _ in f.text),
          "lines": [{"start": ms, "text": t} for t, ms in f.text]} for f in back.getall("SYLT")]
expected["multi.mp3"] = sets

# A SYLT timed in MPEG frames (format 1): 1152 samples each, at 44.1 kHz.
ff("frames.mp3", ["-c:a", "libmp3lame", "-b:a", "32k", "-ar", "44100"])
tag = ID3()
tag.add(SYLT(encoding=1, lang="eng", format=1, type=1, desc="", text=[("At frame 38", 38), ("At frame 500", 500)]))
tag.save(p("frames.mp3"), v2_version=3)
f = ID3(p("frames.mp3")).getall("SYLT")[0]
assert f.format == 1
expected["frames.mp3"] = [{"source": "sylt", "language": "eng", "description": None, "synced": True, "text": "\n".join(t for t, _ in f.text),
                           "lines": [{"start": round(n * 1152 * 1000 / 44100), "text": t} for t, n in f.text]}]

# MP4 ©lyr holding LRC text (two time tags on one line), written by mutagen.
m = MP4(p("song.m4a"))
m["\xa9lyr"] = ["[ar:Someone]\n[00:01.00]One\n[00:02.50][00:06.25]Chorus line\n[00:04.125]Three"]
m.save()
lyr = MP4(p("song.m4a"))["\xa9lyr"][0]
assert "[00:06.25]" in lyr
expected["song.m4a"] = [{"source": "tag", "language": None, "description": None, "synced": True, "text": "One\nChorus line\nThree\nChorus line",
                         "lines": [{"start": 1000, "text": "One"}, {"start": 2500, "text": "Chorus line"},
                                   {"start": 4125, "text": "Three"}, {"start": 6250, "text": "Chorus line"}]}]

# MP4 ©lyr written by ffmpeg (-metadata lyrics=…), as mutagen reads it back.
ff("ffmpeg.m4a", ["-c:a", "aac", "-b:a", "32k", "-metadata", "lyrics=FFmpeg line one\nFFmpeg line two"], seconds=2)
expected["ffmpeg.m4a"] = [{"source": "tag", "language": None, "description": None, "synced": False,
                           "text": MP4(p("ffmpeg.m4a"))["\xa9lyr"][0]}]
assert expected["ffmpeg.m4a"][0]["text"] == "FFmpeg line one\nFFmpeg line two"

# Matroska (which TagLib cannot open) with an LRC LYRICS tag written by ffmpeg.
ff("song.mka", ["-c:a", "libopus", "-metadata", "lyrics=[00:00.50]Matroska line"], seconds=2)
expected["song.mka"] = [{"source": "tag", "language": None, "description": None, "synced": True, "text": "Matroska line",
                         "lines": [{"start": 500, "text": "Matroska line"}]}]

# FLAC: a plain Vorbis LYRICS comment.
f = FLAC(p("plain.flac"))
f["LYRICS"] = ["Plain one\nPlain two"]
f.save()
expected["plain.flac"] = [{"source": "tag", "language": None, "description": None, "synced": False, "text": FLAC(p("plain.flac"))["LYRICS"][0]}]

# WavPack with an APEv2 "Lyrics" item and WMA with ASF "WM/Lyrics", written by mutagen.
from mutagen.wavpack import WavPack
from mutagen.asf import ASF
ff("ape.wv", ["-c:a", "wavpack"], seconds=2)
ff("asf.wma", ["-c:a", "wmav2", "-b:a", "32k"], seconds=2)
w = WavPack(p("ape.wv"))
if w.tags is None: w.add_tags()
w["Lyrics"] = "APE line one\nAPE line two"
w.save()
a = ASF(p("asf.wma"))
a["WM/Lyrics"] = ["ASF words"]
a.save()
expected["ape.wv"] = [{"source": "tag", "language": None, "description": None, "synced": False, "text": str(WavPack(p("ape.wv"))["Lyrics"])}]
expected["asf.wma"] = [{"source": "tag", "language": None, "description": None, "synced": False, "text": str(ASF(p("asf.wma"))["WM/Lyrics"][0])}]

# Sidecars of side.opus (20 s of audio):
# .lrc in UTF-16 LE with a BOM: headers, [offset:+250] (lines 250 ms sooner), lines out of order, one line
# with two time tags, a line at 00:00.10 that the offset would put before the start (clamped to 0), a line
# past the end (kept, flagged).
lrc = ("[ar:Side Artist]\r\n[ti:Side Title]\r\n[al:Side Album]\r\n[length:00:20]\r\n[offset:+250]\r\n"
       "[00:05.00]Later line\r\n[00:00.10]Too early\r\n[00:02.00][00:08.50]Twice\r\n[05:00.00]After the end\r\n")
with open(p("side.lrc"), "wb") as out:
    out.write(b"\xff\xfe" + lrc.encode("utf-16-le"))
# .elrc, enhanced LRC in UTF-8 with [offset:-500] (lines 500 ms later) and word times.
elrc = "[la:spa]\n[offset:-500]\n[00:01.00]<00:01.00>Hola <00:01.40>mundo <00:02.05>lindo\n[00:03.00]<00:03.00>Adiós\n"
with open(p("side.elrc"), "w", encoding="utf-8") as out:
    out.write(elrc)
# .txt in Latin-1 (cp1252): plain text.
with open(p("side.txt"), "wb") as out:
    out.write("Café déjà vu\nNaïve – façade\n".encode("cp1252"))
expected["side.opus"] = [
    {"source": "elrc", "language": "spa", "description": None, "synced": True, "text": "Hola mundo lindo\nAdiós",
     "lines": [{"start": 1500, "text": "Hola mundo lindo", "words": [{"start": 1500, "text": "Hola "}, {"start": 1900, "text": "mundo "}, {"start": 2550, "text": "lindo"}]},
               {"start": 3500, "text": "Adiós", "words": [{"start": 3500, "text": "Adiós"}]}]},
    {"source": "lrc", "language": None, "description": None, "synced": True, "text": "Too early\nTwice\nLater line\nTwice\nAfter the end",
     "lines": [{"start": 0, "text": "Too early"}, {"start": 1750, "text": "Twice"}, {"start": 4750, "text": "Later line"},
               {"start": 8250, "text": "Twice"}, {"start": 299750, "text": "After the end", "pastEnd": True}]},
    {"source": "txt", "language": None, "description": None, "synced": False, "text": "Café déjà vu\nNaïve – façade\n"},
]
with open(p("expected.json"), "w") as out:
    json.dump(expected, out, ensure_ascii=False, indent=1)
"""#
}
