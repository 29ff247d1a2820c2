import Foundation
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import Testing
import TestSupport

struct SchemaTests {
    @Test func everyPropertyHasItsColumnAndSearchableOnesAFoldedTwin() throws {
        let index = try SQLiteIndex(inMemory: ())
        let columns = Set(try index.textRows("SELECT name FROM pragma_table_info('items')").map { $0[0]! })
        for property in MediaProperty.allCases where property != .persistentID && property != .path {
            #expect(columns.contains(property.rawValue), "no column for \(property)")
        }
        for property in MediaProperty.allCases where property.spec.searchable {
            #expect(columns.contains(property.rawValue + "_folded"))
        }
        #expect(columns.isSuperset(of: ["id", "path", "path_text", "tags"]))
        let ftsColumns = try index.textRows("SELECT name FROM pragma_table_info('items_fts')").map { $0[0]! }
        #expect(ftsColumns == MediaProperty.allCases.filter(\.spec.searchable).map(\.rawValue))
    }

    @Test func openingAMigratedLibraryWritesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sub/dir/library.sqlite").path
        do { _ = try SQLiteIndex(path: path) }                  // creates the directories too
        let watcher = try SQLiteIndex(path: path)
        #expect(try watcher.textRows("PRAGMA journal_mode") == [["wal"]])
        let version = try watcher.textRows("PRAGMA data_version")
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        for _ in 0..<2 {                                         // open, read, close
            let other = try SQLiteIndex(path: path)
            _ = try other.statistics()
        }
        // data_version changes when another connection commits anything.
        #expect(try watcher.textRows("PRAGMA data_version") == version)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
    }

    /// A new library is made of 8 KiB pages (a full scan writes ~1/3 fewer pages to the WAL than with SQLite's
    /// 4 KiB: 2 µs of CPU per item, Benchmarks/README.md); one made before keeps its 4 KiB pages and is
    /// read and written as it is (a page size changes only by a VACUUM outside WAL mode, which mlib never runs).
    @Test func aNewLibraryHas8KiBPagesAndAnOlderOneKeepsItsOwn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("library.sqlite").path
        do {
            let index = try SQLiteIndex(path: path)
            #expect(try index.textRows("PRAGMA page_size") == [["8192"]])
        }
        // The same library as a build before this one made it: 4 KiB pages, WAL.
        let sqlite = try ChildProcess.run("/usr/bin/sqlite3", [path, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL;"])
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let older = try SQLiteIndex(path: path)
        try older.apply([.add(sampleItem("/music/a.flac", title: "A"), FileStamp(size: 1000, mtimeNanoseconds: 1, inode: 1), fingerprint: 1)])
        #expect(try older.textRows("PRAGMA page_size") == [["4096"]])
        #expect(try older.textRows("SELECT title FROM items") == [["A"]])
        #expect(try older.textRows("PRAGMA integrity_check") == [["ok"]])
    }

    @Test func anUnopenableLibraryIsOneClearError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notADatabase = dir.appendingPathComponent("notes.sqlite")
        try Data("plain text, not SQLite, long enough to have a header page".utf8).write(to: notADatabase)
        #expect(throws: IndexError.self) { try SQLiteIndex(path: notADatabase.path) }
        do { _ = try SQLiteIndex(path: notADatabase.path) } catch let error as IndexError {
            #expect(error.databasePath == notADatabase.path)
            #expect(error.description.hasPrefix(notADatabase.path + ": cannot open library"))
            #expect(!error.description.contains("\n"))
        }
    }
}
