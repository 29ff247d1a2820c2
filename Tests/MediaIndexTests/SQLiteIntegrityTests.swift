import Foundation
import GRDB
@testable import MediaIndex
@testable import SQLiteStore
import MediaModel
import Testing

/// `integrityCheck()` on SQLite checks what mlib derives too (`derivedColumnProblems`, as on PostgreSQL): a row
/// broken behind mlib's back is reported, where SQLite's own checks (integrity_check, FTS5's) said "ok".
struct SQLiteIntegrityTests {
    @Test(arguments: [
        ("UPDATE items SET dir = X'2f6d' WHERE path_text = '/m/a/1.mp3'", "items: 1 rows whose directory is not their path's (e.g. /m/a/1.mp3)"),
        ("UPDATE items SET dir = X'2f6d2f61' WHERE path_text = '/top.mp3'", "items: 1 rows whose directory is not their path's (e.g. /top.mp3)"),
        ("UPDATE failures SET dir = X'2f'", "failures: 1 rows whose directory is not their path's (e.g. /m/bad.mp3)"),
        ("UPDATE items SET path_text = '/m/a/2.mp3' WHERE path_text = '/m/a/1.mp3'", "items: 1 rows whose path text is not their path's (e.g. /m/a/1.mp3)"),
        ("UPDATE items SET title_folded = 'one' WHERE title_folded <> 'one'", "items: 2 rows whose folded search columns do not match their tags"),
        ("UPDATE scan_state SET value = 0 WHERE key = 'generation'", "scan_state: generation 0 is below "),
    ]) func aBrokenRowIsReported(_ change: String, _ report: String) throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.addRoot(MediaPath("/m"))
        try add([sampleItem("/m/a/1.mp3", title: "One"), sampleItem("/m/a/b/2.mp3", title: "Two"), sampleItem("/top.mp3", title: "at the top")],
                to: index)
        try index.apply([.fail(MediaPath("/m/bad.mp3"), stamp(1), code: "empty", message: "e")], generation: nil)
        #expect(try index.integrityCheck() == "ok")
        try index.database.write { db in try db.execute(sql: change) }
        let result = try index.integrityCheck()
        #expect(result.contains(report), "\(result)")
    }
}
