import ArgumentParser
import Foundation
import MediaIndex
import MediaModel
import MediaScanner

/// `--library LOCATOR`, shared by every command that opens the index. Resolution order: the option,
/// $MLIB_LIBRARY, then $XDG_DATA_HOME/mlib/library.sqlite (XDG_DATA_HOME defaulting to ~/.local/share).
/// A locator is a path, `sqlite:PATH`, or a `postgres://` URL (see `LibraryLocator`).
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library: a database file, sqlite:PATH or postgres://….", valueName: "locator"))
    var library: String?

    var locator: LibraryLocator {
        if let library { return LibraryLocator(library) }
        let env = ProcessInfo.processInfo.environment
        if let p = env["MLIB_LIBRARY"], !p.isEmpty { return LibraryLocator(p) }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return .sqlite(path: data + "/mlib/library.sqlite")
    }

    /// The SQLite file (or, for a server locator, its text: commands that need a file say so when opening).
    var resolvedPath: String { locator.sqlitePath ?? locator.description }

    /// The SQLite file, for a command that works on SQLite libraries only; one line and exit 3 otherwise.
    func sqliteFile(command: String) throws -> String {
        if let path = locator.sqlitePath { return path }
        printError("\(command) works on SQLite libraries only in this version; \(locator) is a PostgreSQL library")
        throw ExitCode(ExitStatus.libraryUnavailable)
    }

    /// Opens the library (SQLite or PostgreSQL), or prints one line and exits with status 3.
    func open() throws -> any LibraryStore {
        do { return try locator.open() } catch {
            printError("\(error)")
            throw ExitCode(ExitStatus.libraryUnavailable)
        }
    }

    /// The lock a scan of `roots` holds while it writes: the lock file beside an SQLite library (one scan
    /// at a time), or an advisory lock per root on PostgreSQL (scans of other roots go on meanwhile).
    /// One line and exit 3 when it cannot be had.
    func scanLock(roots: [MediaPath], timeout: Double?, onWait: () -> Void) throws -> AnyObject {
        do {
            switch locator {
            case .sqlite(let path):
                return try ScanLock(libraryPath: path, timeout: timeout, onWait: onWait)
            case .postgres(let url):
                return try PostgresRootLock(location: PostgresLocation(url: url), roots: roots, timeout: timeout, onWait: onWait)
            }
        } catch {
            printError("\(error)")
            throw ExitCode(ExitStatus.libraryUnavailable)
        }
    }
}

/// One line on standard error, prefixed with the program name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("mlib: \(message)\n".utf8))
}
