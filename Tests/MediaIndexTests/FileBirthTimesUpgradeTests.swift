import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// Schema "v24" / "pg v21" (issue 47, seed 12 of the model: `items.scan_birth`, each read file's birth time,
/// which the same-file rule compares) on a library of the schema before it (v23 / pg v20): every item keeps
/// its id and values, its birth time is unknown (NULL) until its file is read again, and a scan's write of a
/// file records one.
struct FileBirthTimesUpgradeTests {
    static func check(_ index: SQLStore) throws {
        try DecodableUpgradeTests.check(index)
        let births = try index.read { x in try x.rows("SELECT id, scan_birth FROM items ORDER BY id").map { $0.values.map(\.integer) } }
        #expect(births == [[4, nil], [9, nil]])
        // A read file's values, as a scan stages them, carry the birth time into the new column.
        let item = MediaItem(path: MediaPath("/music/3.flac"), tags: [:])
        let scanning = try #require(index as? any ScanStore)
        try scanning.apply([.add(item, FileStamp(size: 10, mtimeNanoseconds: 5, inode: 77), fingerprint: 1, device: 2,
                              ends: EndHashes(head: 1, tail: 2), reader: 1, birth: 1_700_000_000_123_456_789)], generation: nil)
        let written = try index.read { x in try x.value("SELECT scan_birth FROM items WHERE path_text = '/music/3.flac'").integer }
        #expect(written == 1_700_000_000_123_456_789)
        #expect(try index.item(id: 4)?[.title]?.text == "One")
    }

    @Test func sqliteLibraryOfV23KeepsItsItemsWithoutBirthTimes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-v24-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try sqliteLibraryUpgraded(in: directory, from: "v23: radio stations and shares", then: DecodableUpgradeTests.items)
        try Self.check(try SQLiteIndex(path: path, mode: .existing))
    }

    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func postgresLibraryOfPgV20KeepsItsItemsWithoutBirthTimes() throws {
        let index = try postgresLibrary(before: "pg v21: file birth times", then: """
            INSERT INTO items (id, host, path, path_text, dir, "title", "audioCodec", "playbackDuration", "playCount", "rating", "isPartial") VALUES
                (4, 'den-id', '\\x2f6d757369632f312e666c6163', '/music/1.flac', '\\x2f6d75736963', 'One', 'flac', 181.5, 7, 4, 0),
                (9, 'den-id', '\\x2f6d757369632f322e6d3461', '/music/2.m4a', '\\x2f6d75736963', 'Two', 'aac', 3.25, 0, NULL, 1);
            SELECT setval(pg_get_serial_sequence('items', 'id'), 9);
            """)
        try Self.check(index)
    }
}
