import Foundation
import TestSupport
import Testing

/// Issue 47: damage confined to an index passed the write gate (`PRAGMA quick_check` does not compare
/// indexes with their tables): `ls 'path == X'` missed existing items and `rate`/`set` by path changed
/// nothing, reporting success. The gate also compares each index's entries with its table's rows.
@Suite(.serialized) struct IndexDamageTests {
    @Test func aLibraryWhosePathIndexLostItsEntriesIsNotWrittenTo() throws {
        let folder = try FixtureFolder("index-damage", copying: ["mp3-id3v24.mp3", "flac-vorbis-cover.flac"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let library = folder.library
        func sqlite(_ sql: String) throws -> String {
            try ChildProcess.run("/usr/bin/sqlite3", [library, sql]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try sqlite("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        // items_path_text made to point at an empty index's pages (the full one's are freed by dropping the
        // other): every page is accounted for, so quick_check says "ok", but the index has no entry.
        _ = try sqlite("CREATE INDEX damage ON items(path_text) WHERE 0")
        let full = try sqlite("SELECT rootpage FROM sqlite_master WHERE name = 'items_path_text'")
        let empty = try sqlite("SELECT rootpage FROM sqlite_master WHERE name = 'damage'")
        _ = try sqlite("PRAGMA writable_schema = ON; UPDATE sqlite_master SET rootpage = \(empty) WHERE name = 'items_path_text'; "
                       + "UPDATE sqlite_master SET rootpage = \(full) WHERE name = 'damage';")
        _ = try sqlite("DROP INDEX damage")
        try #require(try sqlite("PRAGMA quick_check") == "ok")
        try #require(try sqlite("SELECT count(*) FROM items INDEXED BY items_path_text WHERE path_text IS NOT NULL") == "0")

        // What the damage does: a query by path misses an item that is there (before: `rate` by path then
        // said "no items match" and changed nothing, and a write by another query went ahead).
        let path = folder.music.appendingPathComponent("mp3-id3v24.mp3").path
        #expect(try folder.mlib(["ls", "--count", "path == \"\(path)\""]).out.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let before = try Data(contentsOf: URL(fileURLWithPath: library))
        for args in [["rate", "artist:Кино", "4"], ["playlist", "create", "New"]] {
            let r = try folder.mlib(args)
            #expect(r.status == 3, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("library damaged") && r.stderr.contains("items_path_text"), "\(args): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == before, "\(args) wrote to the damaged library")
        }
    }
}
