import Foundation
@testable import MediaIndex
import MediaModel
import PostgresTestServer
@testable import MediaScanner
import Testing

/// Issue 41: a scan stores every set of lyrics a file has (its tags, read in the probe's one TagLib open,
/// and the `.elrc`/`.lrc`/`.txt` sidecars in the folder listing the walk made), with `hasLyrics`,
/// `hasSyncedLyrics` and `lyricsLanguage`; a rescan reads again an unchanged file whose sidecar was added,
/// changed or removed, and nothing else. Both stores.
struct LyricsScanTests {
    static func write(_ text: String, to url: URL) throws { try Data(text.utf8).write(to: url) }

    static func texts(_ index: any LibraryStore, _ url: URL) throws -> [String] {
        let id = try #require(try index.item(path: MediaPath(url.path)), "\(url.lastPathComponent)").persistentID
        return try index.lyrics(ofItem: id).map { "\($0.source):\($0.language ?? "-"):\($0.isSynced ? "synced" : "plain"):\($0.text)" }
    }

    @Test(arguments: Store.available) func aScanStoresLyricsAndARescanSeesSidecarsChange(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let tagged = box.music.appendingPathComponent("tagged.flac")
        try Templates.ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=3", "-metadata", "title=Tagged",
                              "-metadata", "LYRICS=[00:01.00]one\n[00:02.00]two", tagged.path])
        let plain = box.music.appendingPathComponent("plain.flac")
        try Templates.ffmpeg(["-f", "lavfi", "-i", "sine=f=550:d=3", "-metadata", "title=Plain", plain.path])
        let side = box.music.appendingPathComponent("side.flac")
        try Templates.ffmpeg(["-f", "lavfi", "-i", "sine=f=660:d=3", "-metadata", "title=Side", side.path])
        try Self.write("[la:deu]\n[00:00.50]eins\n[00:01.50]zwei\n", to: box.music.appendingPathComponent("side.lrc"))
        try Self.write("not lyrics of any file", to: box.music.appendingPathComponent("notes.txt"))

        let first = try await box.scan()
        #expect(first.added == 3 && first.failed == 0, "\(first)")
        let index = try box.store()
        #expect(try Self.texts(index, tagged) == ["tag:-:synced:one\ntwo"])
        #expect(try Self.texts(index, side) == ["lrc:deu:synced:eins\nzwei"])
        #expect(try Self.texts(index, plain).isEmpty)
        func paths(_ query: String) throws -> [String] {
            try index.items(MediaQuery(filter: try PredicateParser.parse(query))).map { $0.path.lastComponent.string }.sorted()
        }
        #expect(try paths("hasLyrics == YES") == ["side.flac", "tagged.flac"])
        #expect(try paths("hasSyncedLyrics == YES") == ["side.flac", "tagged.flac"])
        #expect(try paths(#"lyricsLanguage == "deu""#) == ["side.flac"])
        #expect(try paths("hasLyrics == NO") == ["plain.flac"])
        let ids = try [tagged, plain, side].map { try #require(try index.item(path: MediaPath($0.path))).persistentID }

        // Nothing changed: nothing is read.
        let unchanged = try await box.scan()
        #expect(unchanged.reread == 0 && unchanged.updated == 0 && unchanged.unchanged == 3, "\(unchanged)")

        // A sidecar added beside an unchanged file, one changed, the unrelated .txt changed: two files read again.
        try Self.write("la la la\n", to: box.music.appendingPathComponent("plain.txt"))
        try Self.write("[00:00.50]eins\n[00:01.50]zwei\n[00:02.50]drei\n", to: box.music.appendingPathComponent("side.lrc"))
        try Self.write("still not lyrics, longer now", to: box.music.appendingPathComponent("notes.txt"))
        let changed = try await box.scan()
        #expect(changed.reread == 2 && changed.added == 0 && changed.removed == 0, "\(changed)")
        #expect(try Self.texts(index, plain) == ["txt:-:plain:la la la\n"])
        #expect(try Self.texts(index, side) == ["lrc:-:synced:eins\nzwei\ndrei"])
        #expect(try paths("hasLyrics == YES") == ["plain.flac", "side.flac", "tagged.flac"])
        #expect(try paths(#"lyricsLanguage == "deu""#).isEmpty)

        // A sidecar removed: its lyrics go; the item stays the same item.
        try FileManager.default.removeItem(at: box.music.appendingPathComponent("side.lrc"))
        let removed = try await box.scan()
        #expect(removed.reread == 1, "\(removed)")
        #expect(try Self.texts(index, side).isEmpty)
        #expect(try paths("hasLyrics == NO") == ["side.flac"])
        #expect(try [tagged, plain, side].map { try #require(try index.item(path: MediaPath($0.path))).persistentID } == ids)
    }
}
