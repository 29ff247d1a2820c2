import Foundation
import TestSupport
import Testing

/// Issue 47: damage confined to an index passed the write gate (`PRAGMA quick_check` does not compare
/// indexes with their tables): `ls 'path == X'` missed existing items and `rate`/`set` by path changed
/// nothing, reporting success. The gate also compares each index's entries with its table's rows.
@Suite(.serialized) struct IndexDamageTests {
    static func sqlite(_ library: String, _ sql: String) throws -> String {
        try ChildProcess.run("/usr/bin/sqlite3", [library, sql]).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aLibraryWhosePathIndexLostItsEntriesIsNotWrittenTo() throws {
        let folder = try FixtureFolder("index-damage", copying: ["mp3-id3v24.mp3", "flac-vorbis-cover.flac"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let library = folder.library
        try Self.damagePathIndex(library)
        func sqlite(_ sql: String) throws -> String { try Self.sqlite(library, sql) }

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

    /// `mlib serve` runs the check before a first write in the background once its view is in (a client's
    /// first rating at 1,000,000 items waited 3 s for it): a client's write is still refused.
    @Test func theServersEarlyCheckStillRefusesAClientsWrite() throws {
        let folder = try FixtureFolder("index-damage-serve", copying: ["mp3-id3v24.mp3", "flac-vorbis-cover.flac"])
        defer { folder.remove() }
        #expect(try folder.scan().status == 0)
        let key = folder.library + ".key"
        #expect(try folder.mlib(["user", "add", "ann", "--password", "pw", "--key-file", key]).status == 0)
        try Self.damagePathIndex(folder.library)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.library))
        let server = try SpawnedProcess(CLI.binary.path, ["serve", "--library", folder.library, "--http", "127.0.0.1:0", "--no-mpd",
                                                          "--key-file", key], stderr: .pipe)
        defer { if server.isRunning { server.terminate() }; server.waitUntilExit() }
        var text = ""
        while !text.contains("serving the Subsonic API") {
            let chunk = server.standardError!.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(text.firstMatch(of: /127\.0\.0\.1:([0-9]+)\/rest/).map { String($0.1) }, "\(text)")
        let auth = "u=ann&p=pw&v=1.16.1&c=t&f=json"
        func call(_ method: String, _ query: String) throws -> String {
            try ChildProcess.run("curl", ["-s", "--max-time", "20", "http://127.0.0.1:\(port)/rest/\(method)?\(auth)&\(query)"]).out
        }
        let songs = try call("search3", "query=&songCount=1&albumCount=0&artistCount=0")
        let id = try #require(songs.firstMatch(of: /"song":\[\{"id":"([0-9]+)"/).map { String($0.1) }, "\(songs)")
        Thread.sleep(forTimeInterval: 1)   // the background check has run (the view is in: search3 answered)
        let rated = try call("setRating", "id=\(id)&rating=4")
        #expect(rated.contains("\"status\":\"failed\""), "\(rated)")
        let after = try Data(contentsOf: URL(fileURLWithPath: folder.library))
        // The 100-byte database header aside: a server opens the library in WAL mode (bytes 18-19, with the
        // change counter), as it did before this check moved; the pages are what a write would change.
        let changed = zip(before, after).enumerated().filter { $0.offset >= 100 && $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(after.count == before.count && changed.isEmpty, "the server wrote to the damaged library: bytes \(changed.prefix(20)) of \(before.count)")
    }

    /// `items_path_text` made to point at an empty index's pages: `quick_check` still says "ok".
    static func damagePathIndex(_ library: String) throws {
        func sqlite(_ sql: String) throws -> String { try Self.sqlite(library, sql) }
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
    }
}
