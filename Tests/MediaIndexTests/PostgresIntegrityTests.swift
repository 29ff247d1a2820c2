import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Testing

/// `integrityCheck()` on PostgreSQL: "ok" on a library written by mlib, and each rule it checks caught
/// when a row is broken behind mlib's back (as a crash or a hand edit could).
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresIntegrityTests {
    static func library() throws -> PostgresIndex {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        try index.addRoot(MediaPath("/m"))
        try add([sampleItem("/m/a/1.mp3", title: "One"), sampleItem("/m/a/b/2.mp3", title: "Two"), sampleItem("/top.mp3", title: "at the top")],
                to: index)
        try index.apply([.fail(MediaPath("/m/bad.mp3"), stamp(1), code: "empty", message: "e")], generation: nil)
        return index
    }

    @Test(arguments: Store.available) func aLibraryMlibWroteIsOK(_ store: Store) throws {
        let index = try store.emptyLibrary()
        try add([sampleItem("/m/a/1.mp3", title: "Çà et là")], to: index)
        #expect(try index.integrityCheck() == "ok")
    }

    @Test func amcheckRunsWhereInstalled() throws {
        let index = try Self.library()
        try index.testExecute("CREATE EXTENSION IF NOT EXISTS amcheck", [])
        #expect(try index.integrityCheck() == "ok")
    }

    @Test(arguments: [
        ("UPDATE items SET dir = '\\x2f6d' WHERE path_text = '/m/a/1.mp3'", "items: 1 rows whose directory is not their path's (e.g. /m/a/1.mp3)"),
        ("UPDATE items SET dir = '\\x2f6d2f61' WHERE path_text = '/top.mp3'", "items: 1 rows whose directory is not their path's (e.g. /top.mp3)"),
        ("UPDATE failures SET dir = '\\x2f'", "failures: 1 rows whose directory is not their path's (e.g. /m/bad.mp3)"),
        ("UPDATE items SET path_text = '/m/a/2.mp3' WHERE path_text = '/m/a/1.mp3'", "items: 1 rows whose path text is not their path's (e.g. /m/a/1.mp3)"),
        ("UPDATE items SET title_folded = 'one' WHERE title_folded <> 'one'", "items: 2 rows whose folded search columns do not match their tags"),
        ("UPDATE scan_state SET value = 0", "scan_state: generation 0 is below "),
    ]) func aBrokenRowIsReported(_ change: String, _ report: String) throws {
        let index = try Self.library()
        try index.testExecute("UPDATE roots SET complete_gen = 1", [])
        #expect(try index.integrityCheck() == "ok")
        try index.testExecute(change, [])
        let result = try index.integrityCheck()
        #expect(result.contains(report), "\(result)")
    }
}
