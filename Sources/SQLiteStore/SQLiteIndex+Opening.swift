import Foundation
import MediaModel
import MediaIndex
import GRDB

/// What happens to the file before SQLite opens it: a missing library is an error or is created atomically,
/// an empty file is refused, and a library that cannot be written is opened read-only.
extension SQLiteIndex {
    /// How the file is opened once it exists.
    enum FileAccess: Equatable {
        case readWrite
        /// Read-only: the file or its directory is not writable, and SQLite finds (or can make) the WAL's
        /// shared-memory file `-shm`.
        case readOnly
        /// Read-only with no `-shm` to be had (a read-only directory): SQLite's `immutable` URI parameter
        /// reads the file without WAL shared memory; it assumes nobody writes, which nobody can here.
        case immutable

        func sqlitePath(_ path: String) -> String {
            guard self == .immutable else { return path }
            // A URI filename (the system SQLite is built with SQLITE_USE_URI); the path percent-escaped.
            let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))
            return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
        }
    }

    static func prepareFile(_ path: String, mode: LibraryOpenMode) throws -> FileAccess {
        guard path != ":memory:" else { return .readWrite }
        var st = stat()
        if stat(path, &st) != 0 {
            guard errno == ENOENT else {
                throw IndexError.cannotOpen(database: path, reason: String(cString: strerror(errno)))
            }
            guard mode == .create else { throw IndexError.noLibrary(database: path) }
            try createAtomically(path)
            return .readWrite
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw IndexError.cannotOpen(database: path, reason: "not a file")
        }
        // SQLite would take an empty file for a new database and fill it: a truncated library, or a file
        // that was never one, must not silently become an empty library. (A library is never empty on disk:
        // it is created complete, in WAL mode, which writes its header.)
        if st.st_size == 0 {
            throw IndexError.cannotOpen(database: path, reason: "the file is empty, not an mlib library (remove it to start a new library)")
        }
        let fileAccess: FileAccess
        if access(path, W_OK) == 0 && access(directory(of: path), W_OK) == 0 { fileAccess = .readWrite }
        else if mode != .existing { fileAccess = .readWrite }  // creating commands write: let SQLite say why not
        else { fileAccess = access(path + "-shm", F_OK) == 0 ? .readOnly : .immutable }
        // Whether it is an mlib library is asked on the library's own connection, first thing
        // (`configuration(readOnly:checkingLibrary:)`), before any pragma can write to it.
        return fileAccess
    }

    /// The first migration of every mlib library, recorded in `grdb_migrations` by `createAtomically`:
    /// mlib's mark on a file. (Names are frozen: see Schema.swift.)
    static let firstMigration = "v1: items, roots, failures, playlists, FTS"

    /// Refuses a file that is not an mlib library before anything writes to it: the library's own
    /// connection switches the file to WAL and migrates, so another program's database (one with an
    /// `items` table too) would be changed by a mere `mlib ls`. The check reads only, and runs first on
    /// the library's connection, before its pragmas (`configuration(readOnly:checkingLibrary:)`): the
    /// `grdb_migrations` row of mlib's first step (a file that is not an SQLite database fails there, "file
    /// is not a database"). It had a read-only connection of its own, opened and closed before the
    /// library's: SQLite's whole start (the file, its WAL and -shm) twice in every command (issue 41).
    static func checkIsLibrary(_ db: Database) throws {
        let isLibrary = try db.tableExists("grdb_migrations")
            && Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)", arguments: [firstMigration]) == true
        guard isLibrary else { throw NotALibrary() }
    }

    /// What `checkIsLibrary` throws, for `init` to say as `IndexError.cannotOpen`.
    struct NotALibrary: Error {
        static let reason = "an SQLite database, but not an mlib library (another program's file?); give mlib its own with --library or MLIB_LIBRARY"
    }

    /// Creates a complete, migrated library at `path` without ever showing a half-made one: built under a
    /// temporary name in the same directory, then hard-linked into place (link(2) fails if the name
    /// exists). When another process won the race, its library is used and ours is dropped.
    static func createAtomically(_ path: String) throws {
        let directory = directory(of: path)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw IndexError.cannotOpen(database: path, reason: reason(error))
        }
        let name = MediaPath(path).lastComponent.string
        let temporary = directory + "/.\(name).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // The temporary and whatever SQLite left beside it go, whether the library was linked or not.
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) } }
        do {
            // Made 0600 before SQLite fills it (SQLite gives its -wal and -shm the file's mode): a library holds
            // the users' accounts and listening history, for its owner only. (An existing library keeps the
            // mode it has: `chmod 600` it by hand.)
            let made = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard made >= 0 else { throw IndexError.cannotOpen(database: path, reason: String(cString: strerror(errno))) }
            close(made)
            let queue = try DatabaseQueue(path: temporary, configuration: configuration(readOnly: false))
            try Schema.migrator.migrate(queue)
            try Schema.addMissingPropertyColumns(queue)
            // Everything into the main file before it is linked: closing checkpoints too, but ignores a
            // failure (a full disk), which linked a file missing the pages left in its -wal: "database disk
            // image is malformed" for every later command. This checkpoint says whether it completed.
            let (busy, logFrames, checkpointed) = try queue.writeWithoutTransaction { db -> (Int, Int, Int) in
                let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                return (row?[0] ?? 1, row?[1] ?? -1, row?[2] ?? -2)
            }
            try queue.close()
            guard busy == 0, logFrames == checkpointed else {
                throw IndexError.cannotOpen(database: path, reason: "the new library could not be written completely (disk full?); nothing was created")
            }
            // On disk before it has its name: a crash after the link must not leave a library of holes.
            let fd = open(temporary, O_RDONLY | O_CLOEXEC)
            guard fd >= 0, fsync(fd) == 0 else {
                let why = String(cString: strerror(errno))
                if fd >= 0 { close(fd) }
                throw IndexError.cannotOpen(database: path, reason: "the new library could not be written (\(why)); nothing was created")
            }
            close(fd)
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError.cannotOpen(database: path, reason: reason(error) + "; nothing was created")
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw IndexError.cannotOpen(database: path, reason: String(cString: strerror(errno)))
        }
        // The new name on disk too.
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { _ = fsync(dirFD); close(dirFD) }
    }

    /// The folder a library file is in, by its bytes: "." for a bare name. (Foundation's
    /// `deletingLastPathComponent` traps on a one-character relative path such as `L`, issue 47.)
    static func directory(of path: String) -> String {
        MediaPath(path).directory.string
    }
}

/// Checks a library once, before the first write of its connection: a command that writes (scan, rate,
/// playlist create…) on a library with damaged pages would add to the damage and report success. SQLite
/// finds a damaged page only when a statement reads it, so a command that never reads the damaged table
/// succeeded; `PRAGMA quick_check` reads every page (0.13 s on a 100,000-item library of 111 MB, page
/// cache warm; `integrity_check`, which also compares indexes with their tables, takes 0.86 s), and then
/// counts each index's entries against its table (`indexProblems`). Readers
/// are not checked: they change nothing, and a damaged page they read is an error anyway.
final class WriteGate: @unchecked Sendable {
    private let lock = NSLock()
    private var checked = false
    /// The device and inode of the library file when it was opened.
    private var file: (device: UInt64, inode: UInt64)?
    /// The highest file change counter seen in the library file's header (`LibraryFileHeader`).
    private var changeCounter: UInt32?
    /// Why writes are refused, once the file was found replaced.
    private var refusal: IndexError?

    /// Notes which file `path` is now (right after opening it): a later write checks it is still that one.
    func remember(_ path: String, _ database: any DatabaseWriter) {
        guard path != ":memory:" else { return }
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        let counter = LibraryFileHeader.changeCounter(database)
        lock.withLock {
            file = (UInt64(st.st_dev), UInt64(st.st_ino))
            changeCounter = counter
        }
    }

    /// Refuses to write when another file now has the library's name (a backup restored with `mv`, an rsync
    /// or a `sqlite3 .restore` into a new file renamed into place): the connection still has the old,
    /// unlinked file open, and its WAL beside the new one; writing would go to the one and damage the other
    /// (issue 47: `mv backup.sqlite library.sqlite` under `mlib serve`, then a rating, left it malformed).
    /// A `stat` per write: about a microsecond.
    ///
    /// And a backup copied over the library with `cp`, which keeps the inode: the file's change counter went
    /// down (`LibraryFileHeader`). The connection's WAL was written against the old content: it is closed
    /// without the checkpoint SQLite makes at closing (that would write the old pages into the restored file)
    /// and its WAL set aside as above.
    private func checkNotReplaced(_ database: any DatabaseWriter, path: String) throws {
        guard let file else { return }
        // Once refused, always: the connection may be closed (SQLite's handle gone).
        if let refusal { throw refusal }
        var st = stat()
        let exists = stat(path, &st) == 0
        let sameFile = exists && UInt64(st.st_dev) == file.device && UInt64(st.st_ino) == file.inode
        if sameFile {
            let counter = LibraryFileHeader.changeCounter(database)
            guard let counter, let known = changeCounter, counter < known else {
                // Ours and other processes' writes only raise it (checkpoints of schema changes, VACUUM).
                if let counter, counter > changeCounter ?? 0 { changeCounter = counter }
                return
            }
            guard LibraryFileHeader.skipCheckpointOnClose(database) else {
                let error = IndexError.cannotOpen(database: path, reason: "the library file was replaced since this process opened it "
                    + "(a backup copied over it?); nothing was written: stop this process, and move \(path)-wal aside before using the file now there")
                refusal = error
                throw error
            }
        }
        // This connection is closed, and its WAL, written before the new file took the name, is set aside:
        // left beside the new file, its frames would be read into it by the next process to open it (the
        // restored library malformed). SQLite does not delete the WAL of a file unlinked while open.
        try? database.close()
        var wal = stat()
        let walPath = path + "-wal", aside = path + "-wal.replaced-\(getpid())"
        let setAside = exists && stat(walPath, &wal) == 0
            && (wal.st_mtim.tv_sec, wal.st_mtim.tv_nsec) <= (st.st_ctim.tv_sec, st.st_ctim.tv_nsec)
            && rename(walPath, aside) == 0
        let error = IndexError.cannotOpen(database: path, reason: !exists
            ? "the library file was removed since this process opened it; nothing was written (restart to open it again)"
            : "the library file was replaced since this process opened it (a backup restored?); nothing was written"
                + (setAside ? " and the old file's write-ahead log was moved to \(aside)" : "") + ": restart to use the file now there")
        refusal = error
        throw error
    }

    func checkBeforeFirstWrite(_ database: any DatabaseWriter, path: String) throws {
        lock.lock()
        defer { lock.unlock() }
        try checkNotReplaced(database, path: path)
        guard !checked, path != ":memory:" else { return }
        let problems: [String]
        do {
            // Reentrant: a write may come from inside another access of this connection (a scan's fold).
            problems = try database.unsafeReentrantRead { db in
                let pages = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
                guard pages == ["ok"] else { return pages }
                let indexes = try Self.indexProblems(db)
                return indexes.isEmpty ? pages : Array(indexes.prefix(3))
            }
        } catch {
            problems = [SQLiteIndex.reason(error)]
        }
        guard problems == ["ok"] else {
            throw IndexError.cannotOpen(database: path, reason: Self.damaged(problems, path: path))
        }
        checked = true
    }

    /// Indexes whose entries do not match their table's rows in number: `quick_check` reads every page but
    /// does not compare an index with its table (issue 47: `items_path_text` with no entries passed, and
    /// `rate 'path == X'` then matched nothing). `integrity_check` does, at 0.86 s per 100,000 items; this
    /// counts each plain index's entries (a covering scan of the index, `IS NOT NULL` on its first column)
    /// and its table's rows with that column set (one pass over each table for all its indexes). Partial,
    /// expression and WITHOUT ROWID primary-key indexes are left to `integrity_check`.
    static func indexProblems(_ db: Database) throws -> [String] {
        func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var problems: [String] = []
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        for table in tables {
            var checks: [(index: String, column: String)] = []
            for row in try Row.fetchAll(db, sql: "SELECT name, partial, origin FROM pragma_index_list(?)", arguments: [table]) {
                let name: String = row["name"], partial: Int = row["partial"], origin: String = row["origin"]
                guard partial == 0, origin != "pk",
                      let column = try String.fetchOne(db, sql: "SELECT name FROM pragma_index_info(?) WHERE seqno = 0", arguments: [name])
                else { continue }
                checks.append((name, column))
            }
            guard !checks.isEmpty else { continue }
            var columns: [String] = []
            for check in checks where !columns.contains(check.column) { columns.append(check.column) }
            // One statement, so one snapshot: another process writing between two counts (a scan beside
            // `mlib playlist add`) made them differ on a sound library.
            let entries = checks.map {
                "(SELECT count(*) FROM \(quoted(table)) INDEXED BY \(quoted($0.index)) WHERE \(quoted($0.column)) IS NOT NULL)"
            }
            let sql = "SELECT \((columns.map { "count(\(quoted($0)))" } + entries).joined(separator: ", ")) FROM \(quoted(table)) NOT INDEXED"
            guard let counts = try Row.fetchOne(db, sql: sql) else { continue }
            for (n, check) in checks.enumerated() {
                let inIndex: Int = counts[columns.count + n], expected: Int = counts[columns.firstIndex(of: check.column)!]
                if inIndex != expected { problems.append("index \(check.index) has \(inIndex) entries for \(expected) rows of \(table)") }
            }
        }
        return problems
    }

    static func damaged(_ problems: [String], path: String) -> String {
        "library damaged: \(problems.joined(separator: "; ")); nothing was written. Restore it from a backup, "
            + "or save what SQLite can read (sqlite3 '\(path)' .recover | sqlite3 recovered.sqlite) and rescan into a new library"
    }
}
