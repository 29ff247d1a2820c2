import Foundation
import MediaModel

/// A connection to a library's database, as the shared store code (`SQLStore`) uses it. Each dialect
/// module provides one (SQLite through GRDB, PostgreSQL through postgres-nio).
///
/// Contract (the store protocols' "store contract", `LibraryStore`, rests on it):
/// - `read` runs `body` on a consistent snapshot on SQLite: what another process commits meanwhile is not
///   seen. PostgreSQL runs a read without a transaction around it (READ COMMITTED; a transaction around every
///   read would cost two more round trips): each statement sees its own snapshot, a streamed one (a cursor)
///   included; a read of several statements may see a commit between them.
/// - `snapshotRead` runs `body` on one snapshot on both: what another process commits meanwhile is not seen
///   (`mlib stats` and every read of several statements that must agree).
/// - `write` runs `body` in one transaction: committed when it returns, rolled back when it throws; the
///   error leaves unchanged when it is an `IndexError` or a `QueryError`, else as `IndexError.database`.
/// - Calls never interleave on one connection: a second thread waits for the first.
/// - Neither may be called on a NIO event-loop thread (PostgreSQL would block it): servers hop off first.
///   `SQLStore.read`/`write`, through which every shared store call goes, stop a debug build that does
///   (`EventLoopCheck`).
package protocol SQLConnection: Sendable {
    var syntax: any SQLSyntax { get }
    func read<T>(_ body: (any SQLExecutor) throws -> T) throws -> T
    /// Like `read`, without a snapshot around the statements (each sees the latest commit): for hot paths
    /// made of independent single statements, where SQLite's BEGIN/COMMIT cost more than the reads.
    func readEach<T>(_ body: (any SQLExecutor) throws -> T) throws -> T
    func write<T>(_ body: (any SQLExecutor) throws -> T) throws -> T
    func snapshotRead<T>(_ body: (any SQLExecutor) throws -> T) throws -> T
}

extension SQLConnection {
    /// `read`, where it already is one snapshot (SQLite).
    package func snapshotRead<T>(_ body: (any SQLExecutor) throws -> T) throws -> T { try read(body) }
}

/// Runs statements inside a `read` or `write`.
package protocol SQLExecutor {
    /// Streams the rows to `body` in order. On PostgreSQL the rows come through a cursor, a batch at a time,
    /// so a million-row answer stays in bounded memory; errors thrown by `body` leave unchanged.
    func forEachRow(_ sql: SQLStatement, _ body: (SQLRow) throws -> Void) throws
    /// Every row at once (one round trip on PostgreSQL): for answers known to be small.
    func rows(_ sql: SQLStatement) throws -> [SQLRow]
    /// Runs a statement; returns the number of rows it changed.
    @discardableResult func execute(_ sql: SQLStatement) throws -> Int
}

extension SQLExecutor {
    package func row(_ sql: SQLStatement) throws -> SQLRow? {
        try rows(sql).first
    }

    /// The first column of the first row.
    package func value(_ sql: SQLStatement) throws -> SQLValue { try row(sql)?[0] ?? .null }
}

/// One row's values, by column position.
package struct SQLRow: Sendable {
    package var values: [SQLValue]
    package init(_ values: [SQLValue]) { self.values = values }

    package subscript(_ i: Int) -> SQLValue { values[i] }
    package func int64(_ i: Int) -> Int64? { values[i].integer }
    package func int(_ i: Int) -> Int? { values[i].integer.map(Int.init) }
    package func double(_ i: Int) -> Double? { values[i].real }
    package func text(_ i: Int) -> String? { values[i].isNull ? nil : values[i].text }
    package func bool(_ i: Int) -> Bool? { values[i].integer.map { $0 != 0 } }
    package func path(_ i: Int) -> MediaPath? { values[i].bytes.map { MediaPath(bytes: $0) } }
    /// A stored date (playlists', stars', play queues', users'), within `StoredBounds`: one out of range is
    /// read clamped and logged, a NaN as none, so that no front traps formatting it.
    package func date(_ i: Int) -> Date? {
        guard let seconds = values[i].real, seconds.isFinite else { return nil }
        let bounded = min(max(seconds, StoredBounds.timestamps.lowerBound), StoredBounds.timestamps.upperBound)
        if bounded != seconds { OutOfRangeValues.log("a stored date \(seconds) is out of range; read as \(bounded)") }
        return Date(timeIntervalSince1970: bounded)
    }
}

/// How a dialect spells what standard SQL leaves open. Everything else in the shared statements is
/// written once, in the SQL both understand (SQLite ≥ 3.35: `ON CONFLICT … DO`, `RETURNING`, TRUE/FALSE).
package protocol SQLSyntax: Sendable {
    /// The text of the n-th placeholder (from 1).
    func placeholder(_ n: Int) -> String
    /// `expression IN list`, the list bound as one parameter (`SQLValue.integers` or `.texts`).
    func isIn(_ expression: String, _ list: SQLValue) -> SQLStatement
    /// A FROM item named `alias` with the columns `position` (from 0) and `value`, a row per element of the list.
    func listRows(_ list: SQLValue, as alias: String) -> SQLStatement
    /// A SELECT of `rows` (integers or NULL) under the column names `columns`, every row bound as one
    /// parameter per column (PostgreSQL) or one JSON document (SQLite).
    func integerRows(_ rows: [[Int64?]], columns: [String]) -> SQLStatement
    /// An expression for the token a reader of `item_changes` takes away (`ItemChangeLog`): every write
    /// committed after the reader's snapshot gets a token at least this high.
    var nextChangeToken: String { get }
}
