import Foundation
import GRDB
import MediaIndex
import MediaModel

/// The library store on SQLite (GRDB), in WAL mode: readers in other processes (queries, the player) never
/// wait for a scan's writes, and a crash at any moment leaves the last committed transaction intact.
///
/// One `DatabaseQueue` (a single connection) rather than a `DatabasePool`: each mlib process does one thing
/// at a time, and GRDB's pool commits a dummy transaction on every open to create the WAL file, which
/// would break "an unchanged rescan writes nothing". WAL is switched on here instead (a no-op once set).
public final class SQLiteIndex: SQLStore, @unchecked Sendable {
    /// The database file, or ":memory:".
    public let path: String
    let database: any DatabaseWriter

    /// Whether it was opened read-only (its file or directory is not writable).
    public let isReadOnly: Bool
    let mode: LibraryOpenMode
    let writeGate = WriteGate()

    /// Opens and migrates the library at `path`. With `.create` a missing library is created (with its
    /// directories) atomically; with `.existing` a missing one is `IndexError.noLibrary`, and one whose file
    /// or directory is not writable is opened read-only. An empty file, or a library made by a newer mlib,
    /// is refused either way (see SQLiteIndex+Opening.swift).
    public init(path: String, mode: LibraryOpenMode = .create) throws {
        self.path = path
        self.mode = mode
        let access = try Self.prepareFile(path, mode: mode)
        isReadOnly = access != .readWrite
        do {
            database = try DatabaseQueue(path: access.sqlitePath(path),
                                         configuration: Self.configuration(readOnly: isReadOnly, checkingLibrary: path != ":memory:"))
        } catch is NotALibrary {
            throw IndexError.cannotOpen(database: path, reason: NotALibrary.reason)
        } catch {
            throw IndexError.cannotOpen(database: path, reason: Self.reason(error))
        }
        writeGate.remember(path, database)
        super.init(connection: SQLiteConnection(database: database, path: path, writeGate: writeGate), compiler: SQLiteQueryCompiler(), host: nil, libraryName: path)
        try migrate()
    }

    /// Another connection to the same library, to read while this one writes (WAL lets them overlap).
    /// An in-memory library has no file to share: it is its own second connection.
    public func secondConnection() throws -> SQLiteIndex {
        path == ":memory:" ? self : try SQLiteIndex(path: path, mode: mode)
    }

    /// A private in-memory library (tests, one-off tools).
    public init(inMemory: ()) throws {
        path = ":memory:"
        mode = .create
        isReadOnly = false
        do { database = try DatabaseQueue(configuration: Self.configuration(readOnly: false)) } catch {
            throw IndexError.cannotOpen(database: ":memory:", reason: Self.reason(error))
        }
        super.init(connection: SQLiteConnection(database: database, path: path, writeGate: writeGate), compiler: SQLiteQueryCompiler(), host: nil, libraryName: path)
        try migrate()
    }

    /// `checkingLibrary`: the file must already be an mlib library (`checkIsLibrary`), asked before anything else.
    static func configuration(readOnly: Bool, checkingLibrary: Bool = false) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        // Another process (a scan, `mlib playlist add`) may hold the write lock briefly: wait, don't fail.
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in
            if checkingLibrary { try checkIsLibrary(db) }
            // WAL + NORMAL: commits survive a crash of the process; only an OS crash can drop the last ones.
            // (A no-op once the file is in WAL mode; an in-memory database stays "memory"; a read-only
            // connection cannot change it, and a library is always created in WAL mode.)
            // 8 KiB pages for a new library (before WAL mode, which freezes the size; on an existing file a
            // no-op that writes nothing): a full scan's commits rewrite fewer, larger pages of the ~40 indexes
            // and the FTS table, 2 µs of CPU less per item than SQLite's 4 KiB (Benchmarks/README.md, session
            // 10). A library made with 4 KiB pages keeps them.
            if !readOnly { try db.execute(sql: "PRAGMA page_size = 8192") }
            if !readOnly { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Each upsert (it fires the FTS triggers) keeps a statement journal; on disk that was 10 writes
            // to /var/tmp per row. In memory it costs a few KB.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // SQL functions the query compiler emits (mlib_fold, mlib_matches, …): see QueryFunctions.swift.
            QueryFunctions.install(db)
        }
        return config
    }

    private func migrate() throws {
        do {
            let migrator = Schema.migrator
            let (completed, superseded, foreign) = try database.read { db in
                (try migrator.hasCompletedMigrations(db), try migrator.hasBeenSuperseded(db),
                 try !db.tableExists("grdb_migrations") && !db.tableExists("items")
                     && Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0 > 0)
            }
            // Another program's database: migrating would add mlib's tables to it.
            if foreign {
                throw IndexError.cannotOpen(database: path, reason: "an SQLite database, but not an mlib library")
            }
            // Written by a newer mlib: this one would misread or damage what it does not know.
            if superseded {
                throw IndexError.cannotOpen(database: path, reason: "made by a newer version of mlib (its schema has steps this one does not know); use that version")
            }
            if !completed {
                if isReadOnly {
                    throw IndexError.cannotOpen(database: path, reason: "made by an older mlib and read-only here; open it once where it is writable to upgrade it")
                }
                try migrator.migrate(database)
            }
            if !isReadOnly {
                try Schema.addMissingPropertyColumns(database)
                try restoreIndexesOfAKilledScan()
            }
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError.cannotOpen(database: path, reason: Self.reason(error))
        }
    }

    // MARK: Error mapping (every GRDB error leaves as an IndexError with the database path)

    static func reason(_ error: any Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? e.description }
        if let e = error as? IndexError { return e.description }
        return "\(error)"
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        EventLoopCheck.assertOffEventLoop()
        do { return try database.read(body) } catch let error as IndexError { throw error } catch {
            throw Self.readError(error, path)
        }
    }

    /// SQLite's limits on a statement (expression depth, variables, pattern size) are hit by a query too
    /// big to run, not by a broken library: they leave as a `QueryError`, the library's own as `IndexError`.
    enum TemporaryStorage: String { case memory = "MEMORY", file = "FILE" }

    /// Where SQLite keeps temporary data (sorts, statement journals) for the next transactions: in memory
    /// for writes (each upsert firing the FTS triggers keeps a statement journal: on disk that was 10
    /// writes to /var/tmp per row), in a file for reads, whose sorts hold every row they order (`ls` of
    /// 100,000 items sorted in memory: ~35 MB more). Set outside a transaction (SQLite refuses to change it
    /// inside one while a temporary table exists); a no-op when it is already so. A failure only costs memory or speed.
    static func useTemporaryStorage(_ storage: TemporaryStorage, _ database: any DatabaseWriter) {
        try? database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA temp_store = \(storage.rawValue)") }
    }

    static func readError(_ error: any Error, _ path: String) -> any Error {
        if error is QueryError { return error }
        if let e = error as? DatabaseError, let message = e.message,
           ["Expression tree is too large", "too many SQL variables", "too many terms in compound SELECT",
            "pattern too complex", "string or blob too big", "parser stack overflow", "too many FROM clause terms"]
               .contains(where: message.contains) {
            return QueryError("the query is too large to run (\(message))")
        }
        return IndexError.database(database: path, reason: reason(error))
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        EventLoopCheck.assertOffEventLoop()
        try writeGate.checkBeforeFirstWrite(database, path: path)
        Self.useTemporaryStorage(.memory, database)
        do { return try database.write(body) } catch let error as IndexError { throw error } catch {
            throw IndexError.database(database: path, reason: Self.reason(error))
        }
    }

    public func prepareForWrites() throws {
        EventLoopCheck.assertOffEventLoop()
        try writeGate.checkBeforeFirstWrite(database, path: path)
    }

    /// Runs `PRAGMA integrity_check`, then FTS5's check of the full-text index's own structure (SQLite 3.40
    /// does not compare it with the items; tests do that by searching), then what mlib derives
    /// (`derivedColumnProblems`, as on PostgreSQL); "ok" when all pass.
    public func integrityCheck() throws -> String {
        let pragma = try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
        guard pragma == "ok" else { return pragma }
        do {
            // A command, not a change: it writes nothing, but SQLite runs it as a write.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")
            }
        } catch {
            return "full-text index: " + Self.reason(error)
        }
        let problems = try derivedColumnProblems()
        return problems.isEmpty ? "ok" : problems.joined(separator: "; ")
    }

    /// Runs a read-only statement and returns every value as text (NULL as nil): for tests and diagnostics.
    func textRows(_ sql: String, _ arguments: StatementArguments = []) throws -> [[String?]] {
        try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                row.databaseValues.map { $0.isNull ? nil : (String.fromDatabaseValue($0) ?? $0.description) }
            }
        }
    }
}

extension SQLiteIndex: LibraryReader, UserDataStore, PlaylistStore, RootStore, ScanStore, ItemChangeLog, AnalysisStore {
    public func readingConnection() throws -> any ScanStore { try secondConnection() }
}
