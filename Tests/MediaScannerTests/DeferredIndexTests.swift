import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
@testable import MediaScanner
import Testing
import TestSupport

/// A first scan of a large tree into an empty SQLite library builds its secondary and full-text indexes at
/// its end (`ScanStore.deferIndexes`, issue 50): the library after is the one a scan row by row makes, the
/// schema byte for byte, and a scan killed in between leaves nothing missing once the library is opened.
/// The threshold is set to 1 file here (`MediaScanner.deferIndexesFrom`, `MLIB_DEFER_INDEXES_FROM`).
struct DeferredIndexTests {
    /// `sqlite_master` as FrozenSchemaTests compares it: every object's type, name, table and SQL.
    static func catalog(_ library: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: library)
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
                .map { row in (0..<4).map { row[$0] as String } }
        }
    }

    /// Rows of the full-text index (one per document indexed), the items, and the dropped objects recorded.
    static func counts(_ library: String) throws -> (fts: Int, items: Int, deferred: Int) {
        let queue = try DatabaseQueue(path: library)
        return try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM items_fts_docsize") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM items") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM scan_state WHERE key LIKE 'deferred:%'") ?? -1)
        }
    }

    static func tree(_ box: Sandbox, count: Int) throws {
        for i in 0..<count {
            let template = ["a.mp3", "b.flac", "c.ogg", "d.mp3"][i % 4]
            try box.put(template, at: "dir\(i / 10)/file\(i).\(template.split(separator: ".")[1])")
        }
    }

    /// In process: the same tree scanned with the indexes deferred and row by row gives the same catalog,
    /// the same items, and a full-text index holding every item once.
    @Test func aDeferredFirstScanLeavesTheLibraryARowByRowScanMakes() async throws {
        let deferred = try Sandbox(), rowByRow = try Sandbox()
        try Self.tree(deferred, count: 40)
        try Self.tree(rowByRow, count: 40)
        for (box, threshold) in [(deferred, 1), (rowByRow, Int.max)] {
            let index = try box.index()
            try index.addRoot(box.root())
            var scanner = MediaScanner(index: index, batchSize: 5)
            scanner.deferIndexesFrom = threshold
            let summary = try await scanner.scan([box.root()])
            #expect(summary.added == 40)
        }
        #expect(try Self.catalog(deferred.library) == Self.catalog(rowByRow.library))
        let counts = try Self.counts(deferred.library)
        #expect(counts.fts == 40 && counts.items == 40 && counts.deferred == 0, "\(counts)")
        let index = try deferred.index()
        #expect(try index.integrityCheck() == "ok")
        #expect(try itemsNotFoundByTitle(index).isEmpty)
        #expect(try index.items(MediaQuery()).compactMap(\.title).sorted()
                 == rowByRow.index().items(MediaQuery()).compactMap(\.title).sorted())
        // What the bulk load dropped is all there again: the deferring scan's index did drop something.
        #expect(try index.deferIndexes())
        #expect(try Self.counts(deferred.library).deferred > 0)
        #expect(try Self.catalog(deferred.library) != Self.catalog(rowByRow.library))
        try index.restoreDeferredIndexes()
        #expect(try Self.catalog(deferred.library) == Self.catalog(rowByRow.library))
    }

    /// `mlib scan` killed (SIGKILL) part-way through a deferred first scan: the library it leaves lacks its
    /// indexes (recorded as dropped); opening it where it is writable puts every index back, byte for byte,
    /// and the full-text index holds every item written, once.
    @Test func aDeferredScanKilledPartWayHasEveryIndexOnceTheLibraryIsOpened() throws {
        let total = 300
        let box = try Sandbox(), reference = try Sandbox()
        try Self.tree(box, count: total)
        try reference.put("a.mp3", at: "a.mp3")
        let made = try CLIScanTests.run(["scan", "--quiet", "--library", reference.library, reference.music.path])
        #expect(made.status == 0, "\(made.stderr)")
        let home = box.url.appendingPathComponent("home").path
        let child = try SpawnedProcess(try CLIScanTests.mlib().path,
                                       ["scan", "--quiet", "--jobs", "1", "--batch-size", "5", "--library", box.library, box.music.path],
                                       environment: ["MLIB_DEFER_INDEXES_FROM": "1", "HOME": home, "XDG_CONFIG_HOME": home + "/.config"],
                                       stdout: .pipe, stderr: .pipe)
        var committed = 0
        let deadline = Date().addingTimeInterval(60)
        while committed == 0 && child.isRunning && Date() < deadline {
            usleep(5_000)
            committed = CLIScanTests.committedItems(box.library)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(committed > 0 && committed < total, "the scan was not caught part-way (\(committed) of \(total))")

        // As the kill left it (read without opening it through mlib): indexes dropped, recorded as such.
        let left = try Self.counts(box.library)
        #expect(left.deferred > 0, "the scan deferred nothing")
        #expect(try Self.catalog(box.library) != Self.catalog(reference.library))

        let index = try box.index()
        #expect(try Self.catalog(box.library) == Self.catalog(reference.library))
        let after = try Self.counts(box.library)
        #expect(after.deferred == 0 && after.items == left.items && after.fts == after.items, "\(after)")
        #expect(try index.integrityCheck() == "ok")
        #expect(try itemsNotFoundByTitle(index).isEmpty)
    }
}
