import Foundation
import Testing
import TestSupport

/// `mlib tag lyrics=@FILE` (issue 41): FILE's text goes into the lyrics tag as the format spells it (ID3v2
/// USLT, Vorbis LYRICS, MP4 ©lyr), an LRC file kept as LRC text, so `mlib lyrics` reads it back as synced
/// lines with the file's [offset:] applied, and mutagen reads the same text. A UTF-16 file with a byte
/// order mark and a Windows-1252 one are written as the text they mean; a missing file is one line.
@Suite(.serialized, .enabled(if: LyricsCorpus.available, "ffmpeg or python3-mutagen missing (scripts/install-deps.sh)"))
struct TagLyricsFileTests: TagWritingSandbox {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-tag-lyrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    static let lrc = "[ar:Someone]\n[offset:+100]\n[00:01.00]Première ligne\n[00:02.50][00:04.00]Refrain\n"

    @Test func anLRCFileWrittenIntoEachFormatReadsBackSynced() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        // The words in UTF-16 LE with a byte order mark, as an old Windows editor saves them (named apart
        // from the audio, so that no sidecar is read beside it).
        let words = dir.appendingPathComponent("words.lrc")
        try Data([0xFF, 0xFE] + Array(Self.lrc.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })).write(to: words)
        for (name, codec) in [("song.mp3", "libmp3lame"), ("song.flac", "flac"), ("song.m4a", "aac")] {
            let path = dir.appendingPathComponent(name).path
            let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=6", "-c:a", codec, path])
            try #require(made.status == 0, "\(made.stderr)")
            let tagged = try mlib(["tag", "--files", "--yes", path, "lyrics=@\(words.path)"])
            #expect(tagged.status == 0, "\(name): \(tagged.stderr)")

            let read = try mlib(["lyrics", "--json", path])
            let sets = (try JSONSerialization.jsonObject(with: read.stdout) as? [[String: Any]])?.first?["lyrics"] as? [[String: Any]] ?? []
            #expect(sets.count == 1, "\(name): \(sets)")
            let lines = (sets.first?["lines"] as? [[String: Any]]) ?? []
            #expect(lines.compactMap { $0["start"] as? Int } == [900, 2400, 3900], "\(name): \(lines)")
            #expect(lines.compactMap { $0["text"] as? String } == ["Première ligne", "Refrain", "Refrain"], "\(name): \(lines)")

            // What mutagen reads from the tag: the LRC text, as written.
            let back = try ChildProcess.run("python3", ["-c", """
                import sys, mutagen
                f = mutagen.File(sys.argv[1])
                if sys.argv[1].endswith(".mp3"): print(f.tags.getall("USLT")[0].text, end="")
                elif sys.argv[1].endswith(".m4a"): print(f.tags["\\xa9lyr"][0], end="")
                else: print(f["LYRICS"][0], end="")
                """, path])
            #expect(String(decoding: back.stdout, as: UTF8.self) == Self.lrc, "\(name): \(back.stderr)")
        }

        // Windows-1252 plain text; a missing file is refused with one line, the file untouched.
        let latin = dir.appendingPathComponent("latin.txt")
        try Data("Café déjà vu\n".data(using: .windowsCP1252)!).write(to: latin)
        let flac = dir.appendingPathComponent("song.flac").path
        #expect(try mlib(["tag", "--files", "--yes", flac, "lyrics=@\(latin.path)"]).status == 0)
        #expect(try mlib(["lyrics", flac]).out == "Café déjà vu\n")
        let before = try bytes(flac)
        let missing = try mlib(["tag", "--files", "--yes", flac, "lyrics=@\(dir.path)/none.lrc"])
        #expect(missing.status != 0 && missing.stderr.contains("none.lrc") && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        #expect(try bytes(flac) == before)
    }
}
