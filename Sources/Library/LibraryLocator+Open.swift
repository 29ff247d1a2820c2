import MediaIndex
import SQLiteStore
#if PostgreSQL
import PostgresStore
#endif

// The one place that turns a locator into a store: it needs both dialects, so it lives here, above them.
extension LibraryLocator {
    /// Opens and migrates the library. `.create` creates a missing library, `.existing` refuses it ("no
    /// library at …"). PostgreSQL: the database must exist (`createdb`); `.create` makes its tables.
    public func open(_ mode: LibraryOpenMode = .create) throws -> any LibraryStore {
        switch self {
        case .sqlite(let path):
            return try SQLiteIndex(path: path, mode: mode)
        case .postgres(let url):
            #if PostgreSQL
            return try PostgresIndex(try PostgresLocation(url: url), mode: mode)
            #else
            throw IndexError.cannotOpen(database: url, reason: "this mlib was built without PostgreSQL support (the PostgreSQL trait)")
            #endif
        }
    }
}
