import Foundation
import Testing
import TestSupport

/// Issue 41: `mlib lyrics QUERY` reads what the scan stored. Every file of the lyrics corpus
/// (`LyricsCorpus`: USLT in three languages, SYLT in ms and in MPEG frames, MP4 ©lyr, Matroska, FLAC,
/// WavPack, WMA, an Opus with three sidecars) scanned into a library gives, by query, exactly the sets
/// `mlib lyrics FILE` reads from the file: same sources, languages, texts, line and word times.
@Suite(.serialized, .enabled(if: LyricsCorpus.available, "ffmpeg or python3-mutagen missing (scripts/install-deps.sh)"))
struct LyricsQueryCommandTests {
    @Test func theStoredLyricsOfEveryCorpusFileEqualTheFilesOwn() throws {
        let corpus = try LyricsCorpus()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lyrics-q-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                   "MLIB_LIBRARY": home.appendingPathComponent("library.sqlite").path]
        let scan = try CLI.run(["scan", "--quiet", corpus.dir.path], environment: env)
        #expect(scan.status == 0, "\(scan.stderr)")

        let files = ["multi.mp3", "frames.mp3", "song.m4a", "ffmpeg.m4a", "song.mka", "plain.flac", "ape.wv", "asf.wma", "side.opus"]
        for file in files {
            let direct = try CLI.run(["lyrics", "--json", corpus.path(file)], environment: env)
            let stored = try CLI.run(["lyrics", "--json", "path == \"\(corpus.path(file))\""], environment: env)
            #expect(stored.status == 0, "\(file): \(stored.stderr)")
            let a = try #require(try JSONSerialization.jsonObject(with: direct.stdout) as? [[String: Any]])
            let b = try #require(try JSONSerialization.jsonObject(with: stored.stdout) as? [[String: Any]])
            #expect(a.count == 1 && b.count == 1)
            let fromFile = try JSONSerialization.data(withJSONObject: a.first?["lyrics"] ?? [], options: [.sortedKeys])
            let fromStore = try JSONSerialization.data(withJSONObject: b.first?["lyrics"] ?? [], options: [.sortedKeys])
            #expect(String(decoding: fromStore, as: UTF8.self) == String(decoding: fromFile, as: UTF8.self), "\(file)")
            #expect(b.first?["path"] as? String == corpus.path(file))
        }

        // The summary properties find them; --lrc by query prints the preferred synced set.
        let synced = try CLI.run(["ls", "-f", "$path", "hasSyncedLyrics == YES"], environment: env)
        let names = Set(synced.out.split(separator: "\n").map { String($0.split(separator: "/").last ?? "") })
        #expect(names.isSuperset(of: ["multi.mp3", "frames.mp3", "song.m4a", "song.mka", "side.opus"]), "\(synced.out)")
        #expect(!names.contains("plain.flac"))
        let deu = try CLI.run(["ls", "-f", "$path", "lyricsLanguage:deu"], environment: env)
        #expect(deu.out.hasSuffix("multi.mp3\n"), "\(deu.out)\(deu.stderr)")
        let byQuery = try CLI.run(["lyrics", "--language", "deu", "path == \"\(corpus.path("multi.mp3"))\""], environment: env)
        let byFile = try CLI.run(["lyrics", "--language", "deu", corpus.path("multi.mp3")], environment: env)
        #expect(byQuery.status == 0 && byQuery.out == byFile.out, "\(byQuery.out)\(byQuery.stderr)")
        let none = try CLI.run(["lyrics", "title:NoSuchTitleAnywhere"], environment: env)
        #expect(none.status != 0 && none.stderr.contains("no item matches"), "\(none.stderr)")
    }

    /// A sidecar that is a symbolic link out of its folder (to a file the library's user may read and a
    /// client must not: here a secret beside the music folder) is not stored, so no client of the API or the
    /// CLI gets its text; the song itself (no lyrics of its own) is scanned.
    @Test func aSidecarLinkingOutOfItsFolderIsNotStored() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-lyrics-link-\(UUID().uuidString)")
        let music = home.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try "[00:01.00]secret line\n".write(to: home.appendingPathComponent("secret.lrc"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("mp3-id3v1.mp3"), to: music.appendingPathComponent("song.mp3"))
        try FileManager.default.createSymbolicLink(atPath: music.appendingPathComponent("song.lrc").path,
                                                   withDestinationPath: home.appendingPathComponent("secret.lrc").path)
        let env = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                   "MLIB_LIBRARY": home.appendingPathComponent("library.sqlite").path]
        let scan = try CLI.run(["scan", "--quiet", music.path], environment: env)
        #expect(scan.status == 0, "\(scan.stderr)")
        let stored = try CLI.run(["lyrics", "--json", "path:song"], environment: env)
        #expect(!stored.out.contains("secret line"), "\(stored.out)")
        #expect(try CLI.run(["ls", "--paths", "hasLyrics == YES"], environment: env).out.isEmpty)
        #expect(try CLI.run(["ls", "--paths"], environment: env).out.contains("song.mp3"))
    }
}
