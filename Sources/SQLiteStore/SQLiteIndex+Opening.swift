import Foundation
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
        if access(path, W_OK) == 0 && access(directory(of: path), W_OK) == 0 { return .readWrite }
        guard mode == .existing else { return .readWrite }  // creating commands write: let SQLite say why not
        return access(path + "-shm", F_OK) == 0 ? .readOnly : .immutable
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
        let name = (path as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\(name).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { unlink(temporary) }
        do {
            let queue = try DatabaseQueue(path: temporary, configuration: configuration(readOnly: false))
            try Schema.migrator.migrate(queue)
            try Schema.addMissingPropertyColumns(queue)
            // Closing checkpoints the WAL into the file and removes the -wal and -shm files.
            try queue.close()
        } catch {
            throw IndexError.cannotOpen(database: path, reason: reason(error))
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw IndexError.cannotOpen(database: path, reason: String(cString: strerror(errno)))
        }
    }

    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }
}
