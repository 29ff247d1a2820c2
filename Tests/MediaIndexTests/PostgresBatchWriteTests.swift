import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresNIO
import PostgresTestServer
import Testing

/// A scan's batch goes to PostgreSQL column by column (one array parameter per column, `unnest` on the
/// server): the statement stays short whatever the row count, NULLs and bytes arrive intact, ids follow
/// the batch's order.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresBatchWriteTests {
    @Test func columnsWithNullsComeBackFromUnnestAsSent() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        let bytes: [Data?] = [Data([0x2f, 0xff, 0x00, 0x61]), nil, Data()]
        let texts: [String?] = [nil, "Björk; 坂本", ""]
        let integers: [Int64?] = [Int64.min, nil, 0]
        let reals: [Double?] = [241.5, -0.25, nil]
        var binds = PostgresBindings()
        let columns = [binds.appendColumn(bytes.map { $0.sqlValue }, as: .bytes), binds.appendColumn(texts.map { $0.sqlValue }, as: .text),
                       binds.appendColumn(integers.map { $0.sqlValue }, as: .integer), binds.appendColumn(reals.map { $0.sqlValue }, as: .real)]
        let sql = "SELECT * FROM unnest(\(columns.joined(separator: ", "))) WITH ORDINALITY AS t(b, s, i, r, n) ORDER BY n"
        let rows = try index.session.run { s in try s.send(sql, binds).rows }.map { row in
            let r = row.makeRandomAccess()
            return (r[0].value(Data.self), r[1].value(String.self), r[2].value(Int64.self), r[3].value(Double.self))
        }
        #expect(rows.map(\.0) == bytes)
        #expect(rows.map(\.1) == texts)
        #expect(rows.map(\.2) == integers)
        #expect(rows.map(\.3) == reals)
    }

    /// 1,000 new files in one batch: one INSERT (a VALUES list took one per ~800 rows, each with ~60,000
    /// parameters for the server to parse and plan), ids in the batch's order, every column as written.
    @Test func aBatchOfNewFilesIsOneStatementWithIdsInOrder() throws {
        let index = try #require(try Store.postgres.emptyLibrary() as? PostgresIndex)
        var items = (0..<1_000).map { i in sampleItem(String(format: "/b/d%02d/f%04d.mp3", i % 7, i), title: "t\(i)", size: Int64(1000 + i)) }
        items[5].artist = nil
        items[6][.composer] = .text("Sjón")
        let before = index.session.statementsSent
        try index.apply(items.map { .add($0, stamp($0.fileSize), fingerprint: 7) })
        // BEGIN, the generation, the INSERT, the failures' DELETE, the notification to listeners, COMMIT.
        #expect(index.session.statementsSent - before == 6)
        // Read back in id order, in one query (the test stays fast).
        let read = try index.session.run { s in try s.send(#"SELECT path_text, title, artist, composer, "fileSize" FROM items ORDER BY id"#).rows }
            .map { row in
                let r = row.makeRandomAccess()
                return (r[0].value(String.self), r[1].value(String.self), r[2].value(String.self), r[3].value(String.self), r[4].value(Int64.self))
            }
        #expect(read.map(\.0) == items.map(\.path.string))
        #expect(read.map(\.1) == items.map(\.title))
        #expect(read[5].2 == nil && read[4].2 == "Björk")
        #expect(read[6].3 == "Sjón" && read[7].3 == nil)
        #expect(read.map(\.4) == items.map(\.fileSize))
    }
}
