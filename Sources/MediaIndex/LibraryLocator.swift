import Foundation

/// Where a library lives, as users write it in `--library` and `MLIB_LIBRARY`: a file path or `sqlite:PATH`
/// for the embedded SQLite store, `postgres://user@host:port/database` (or `postgresql://`) for a server.
/// The one place that turns a locator into a store, so that every front opens libraries the same way.
public enum LibraryLocator: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    public init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The locator as messages show it: a server's without its password (`postgres://user@host:port/db`).
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): (try? PostgresLocation(url: url).description) ?? PostgresLocation.redacted(url)
        }
    }

    /// The SQLite file, when the library is one (the scan lock sits beside it).
    public var sqlitePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// Opens and migrates the library. `.create` creates a missing library, `.existing` refuses it ("no
    /// library at …"). PostgreSQL: the database must exist (`createdb`); `.create` makes its tables.
    public func open(_ mode: LibraryOpenMode = .create) throws -> any LibraryStore {
        switch self {
        case .sqlite(let path):
            return try SQLiteIndex(path: path, mode: mode)
        case .postgres(let url):
            return try PostgresIndex(try PostgresLocation(url: url), mode: mode)
        }
    }
}
