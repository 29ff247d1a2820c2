#if canImport(Glibc)
import Glibc
#endif
import GRDB
import GRDBSQLite

/// The library file's header as it is on disk, read through the connection's own file descriptor
/// (`SQLITE_FCNTL_FILE_POINTER`): opening the file again and closing that descriptor would drop every POSIX
/// lock SQLite holds on it in this process.
enum LibraryFileHeader {
    /// SQLite's file change counter (offset 24, big-endian). In WAL mode a write leaves it as it is and a
    /// schema change or VACUUM raises it, when checkpointed into the file; a backup (`VACUUM INTO`, `.backup`)
    /// starts again from 1. So a library's own counter never goes down, and a lower one means another
    /// database's bytes were written over the file (issue 47: a backup restored with `cp`, which keeps the
    /// inode). A copy with the same counter (the library copied cold since its last schema change) cannot be
    /// told apart this way. Nil when the header cannot be read (a new, empty file).
    static func changeCounter(_ database: any DatabaseWriter) -> UInt32? {
        try? database.unsafeReentrantRead { db -> UInt32? in
            var pointer: UnsafeMutablePointer<sqlite3_file>?
            guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
                  let file = pointer, let methods = file.pointee.pMethods, let read = methods.pointee.xRead else { return nil }
            var bytes = [UInt8](repeating: 0, count: 4)
            guard read(file, &bytes, 4, 24) == SQLITE_OK else { return nil }
            return bytes.reduce(0) { $0 << 8 | UInt32($1) }
        }
    }

    /// Makes closing the connection leave the WAL as it is (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`): its frames
    /// belong to the content the file had before it was overwritten. `sqlite3_db_config` is variadic, which
    /// Swift does not import; on Linux (x86-64 and AArch64) a variadic callee reads integer and pointer
    /// arguments where a plain call puts them, so it is called through a plain function type.
    /// False when it could not be set: the connection must then stay open.
    static func skipCheckpointOnClose(_ database: any DatabaseWriter) -> Bool {
        typealias DBConfig = @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutablePointer<Int32>?) -> Int32
        guard let symbol = dlsym(nil, "sqlite3_db_config") else { return false }     // RTLD_DEFAULT
        let config = unsafeBitCast(symbol, to: DBConfig.self)
        return (try? database.unsafeReentrantRead { db -> Bool in
            var set: Int32 = 0
            return config(db.sqliteConnection, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &set) == SQLITE_OK && set == 1
        }) ?? false
    }
}
