@testable import MediaProbe
import MediaModel
import Testing

/// LRC as `LRCParser` reads it and sidecar text as `LyricsText` decodes it, case by case (the files made by
/// ffmpeg and mutagen are CLITests' LyricsCommandTests and LyricsBadInputTests).
struct LyricsParsingTests {
    @Test func timeTagForms() {
        #expect(LRCParser.time("01:02") == 62_000)
        #expect(LRCParser.time("01:02.5") == 62_500)
        #expect(LRCParser.time("01:02.50") == 62_500)
        #expect(LRCParser.time("01:02.503") == 62_503)
        #expect(LRCParser.time("01:02:50") == 62_500)       // ':' before the fraction
        #expect(LRCParser.time("123:00.00") == 7_380_000)   // past an hour, in minutes
        for bad in ["ar", "1:60.00", "01:02.5000", "-1:00", ":01", "01:", "a1:02"] { #expect(LRCParser.time(Substring(bad)) == nil, "\(bad)") }
        #expect(LRCParser.timeTag(62_503) == "01:02.503")
        #expect(LRCParser.timeTag(7_380_005) == "123:00.005")
    }

    /// A positive offset shows the lines sooner, a negative one later; a time the offset makes negative is 0.
    @Test func offsetSign() {
        let sooner = LRCParser.parse("[offset:+300]\n[00:01.00]a\n[00:00.20]b")
        #expect(sooner.lines?.map(\.startMs) == [0, 700])
        #expect(sooner.warnings.contains { $0.contains("set to 0") })
        let later = LRCParser.parse("[offset:-300]\n[00:01.00]a")
        #expect(later.lines?.map(\.startMs) == [1300])
        #expect(later.offsetMs == -300)
        let bad = LRCParser.parse("[offset:soon]\n[00:01.00]a")
        #expect(bad.lines?.map(\.startMs) == [1000])
        #expect(bad.warnings.contains { $0.contains("not a number") })
    }

    /// Several time tags give one text at several times, sorted with the rest; only a line that starts
    /// before the line above is disorder; headers are kept; untimed lines in LRC are dropped and said.
    @Test func linesAndHeaders() {
        let r = LRCParser.parse("\u{FEFF}[ti:Title]\r\n[ar:Artist]\r\n[00:01.00][00:05.00]Chorus\r\n[00:03.00]Verse\r\nstray words\r\n\r\n", durationMs: 4000)
        #expect(r.headers == ["ti": "Title", "ar": "Artist"])
        #expect(r.lines?.map(\.text) == ["Chorus", "Verse", "Chorus"])
        #expect(r.lines?.map(\.startMs) == [1000, 3000, 5000])
        #expect(r.lines?.map(\.pastEnd) == [false, false, true])
        #expect(!r.warnings.contains { $0.contains("order") }, "\(r.warnings)")
        #expect(r.warnings.contains { $0.contains("1 LRC line(s) without a time tag") })
        #expect(LRCParser.parse("Just words\n[not a tag]\n").lines == nil)
    }

    @Test func enhancedWordTimes() {
        let r = LRCParser.parse("[00:10.00]<00:10.00>Hello <00:10.50>there <00:11.20>")
        let line = r.lines?.first
        #expect(line?.text == "Hello there")
        #expect(line?.words?.map(\.startMs) == [10_000, 10_500, 11_200])
        #expect(line?.words?.map(\.text) == ["Hello ", "there ", ""])
        // A '<' that is no time stays text.
        #expect(LRCParser.parse("[00:01.00]a <b> c").lines?.first?.text == "a <b> c")
    }

    @Test func sidecarEncodings() {
        let text = "Café – ünï"
        #expect(LyricsText.decode([0xEF, 0xBB, 0xBF] + Array(text.utf8)) == (text, "UTF-8"))
        #expect(LyricsText.decode(Array(text.utf8)) == (text, "UTF-8"))
        let le = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, be = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(LyricsText.decode([0xFF, 0xFE] + le) == (text, "UTF-16LE"))
        #expect(LyricsText.decode([0xFE, 0xFF] + be) == (text, "UTF-16BE"))
        #expect(LyricsText.decode(le) == (text, "UTF-16LE"))       // no BOM: its zero bytes tell
        let le32 = text.unicodeScalars.flatMap { s in (0..<4).map { UInt8((s.value >> (8 * $0)) & 0xFF) } }
        #expect(LyricsText.decode([0xFF, 0xFE, 0, 0] + le32) == (text, "UTF-32LE"))
        #expect(LyricsText.decode([0x43, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0x80]) == ("Café – €", "Windows-1252"))
    }

    /// `mlib lyrics` shows a synced set before a plain one, a sidecar before the tags; --language filters.
    @Test func precedence() {
        let uslt = Lyrics(source: .uslt, language: "eng", text: "plain")
        let sylt = Lyrics(source: .sylt, language: "eng", text: "s", lines: [LyricsLine(startMs: 0, text: "s")])
        let lrc = Lyrics(source: .lrc, origin: "a.lrc", text: "l", lines: [LyricsLine(startMs: 0, text: "l")])
        let txt = Lyrics(source: .txt, origin: "a.txt", text: "t")
        #expect(LyricsReader.preferred([uslt, sylt, lrc, txt]) == lrc)
        #expect(LyricsReader.preferred([uslt, sylt, txt], language: "ENG") == sylt)
        #expect(LyricsReader.preferred([txt, uslt]) == uslt)
        #expect(LyricsReader.preferred([txt, uslt], language: "deu") == nil)
    }
}
