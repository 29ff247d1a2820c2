import ArgumentParser
import Foundation
import MediaIndex
import MediaModel
import MediaScanner
#if PostgreSQL
import PostgresStore
#endif

/// `--library LOCATOR`, shared by every command that opens the index. Resolution order: the option,
/// $MLIB_LIBRARY, then $XDG_DATA_HOME/mlib/library.sqlite (XDG_DATA_HOME defaulting to ~/.local/share).
/// A locator is a path, `sqlite:PATH`, or a `postgres://` URL (see `LibraryLocator`).
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library: a database file, sqlite:PATH or postgres://….", valueName: "locator"))
    var library: String?

    /// A path that is not UTF-8 reaches Swift repaired (U+FFFD in place of the bad bytes), so it would name
    /// another file: refused rather than opened (or created) there.
    func validate() throws {
        guard let library, library.contains("\u{FFFD}") else { return }
        if !RawArguments.all.contains(where: { $0 == Array(library.utf8) || $0 == Array("--library=\(library)".utf8) }) {
            throw ValidationError("--library: the path is not valid UTF-8; mlib can only open a library whose path is")
        }
    }

    var locator: LibraryLocator {
        if let library { return LibraryLocator(library) }
        let env = ProcessInfo.processInfo.environment
        if let p = env["MLIB_LIBRARY"], !p.isEmpty { return LibraryLocator(p) }
        // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored (it named a library under the cwd).
        let data = env["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return .sqlite(path: data + "/mlib/library.sqlite")
    }

    /// Opens the library (SQLite or PostgreSQL). Commands that only read or edit what is there use
    /// `.existing`: a mistyped path is "no library at …" (exit 3), never a new empty library; only commands
    /// that fill one use `.create`.
    func open(_ mode: LibraryOpenMode = .existing) throws -> any LibraryStore {
        try locator.open(mode)
    }

    /// The lock a scan of `roots` holds while it writes: the lock file beside an SQLite library (one scan
    /// at a time), or an advisory lock per root on PostgreSQL (scans of other roots go on meanwhile).
    func scanLock(roots: [MediaPath], timeout: Double?, onWait: () -> Void) throws -> AnyObject {
        switch locator {
        case .sqlite(let path):
            return try ScanLock(libraryPath: path, timeout: timeout, onWait: onWait)
        case .postgres(let url):
            #if PostgreSQL
            return try PostgresRootLock(location: PostgresLocation(url: url), roots: roots, timeout: timeout, onWait: onWait)
            #else
            return try locator.open(.existing)    // says why it cannot
            #endif
        }
    }
}

/// One line on standard error, prefixed with the program name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("mlib: \(message)\n".utf8))
}
