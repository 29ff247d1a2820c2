import Foundation
import MediaIndex
import SQLiteStore
import Library

/// The stores every store test runs on (`@Test(arguments: Store.available)`). PostgreSQL is left out, with
/// one printed line saying why, only where it is not installed; where it is, a failure to start it fails
/// the tests that use it.
public enum Store: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    public static let available: [Store] = {
        if PostgresTestServer.isInstalled { return allCases }
        print("◇ PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): store tests run on SQLite only")
        return [.sqlite]
    }()

    public var description: String { rawValue }

    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String { "the PostgreSQL test server did not start (see the line printed above)" }
        public init() {}
    }

    /// A locator for a new library: an SQLite file at `sqlitePath`, or a new database on the test server.
    public func newLocator(sqlitePath: String) throws -> String {
        switch self {
        case .sqlite: return sqlitePath
        case .postgres:
            guard let server = PostgresTestServer.shared else { throw Unavailable() }
            return try server.makeDatabase()
        }
    }

    /// A new empty library: SQLite in memory, or a new database on the test server.
    public func emptyLibrary() throws -> any LibraryStore {
        switch self {
        case .sqlite: return try SQLiteIndex(inMemory: ())
        case .postgres: return try LibraryLocator(try newLocator(sqlitePath: "")).open()
        }
    }
}
