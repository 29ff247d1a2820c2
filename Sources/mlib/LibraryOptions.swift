import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel

/// `--library LOCATOR`, shared by every command that opens the index. Resolution order: the option,
/// $MLIB_LIBRARY, then $XDG_DATA_HOME/mlib/library.sqlite (XDG_DATA_HOME defaulting to ~/.local/share).
/// A locator is a path, `sqlite:PATH`, or a `postgres://` URL (see `LibraryLocator`).
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library: a database file, sqlite:PATH or postgres://….", valueName: "locator"), completion: .file())
    var library: String?

    @Option(name: .long, help: ArgumentHelp("Act as this user of the library: their ratings, plays and history (default: $MLIB_USER, else the library's owner).",
                                            valueName: "name"))
    var user: String?

    /// The user named by --user, else $MLIB_USER (empty: none), else nil: the library's owner.
    var userName: String? {
        user ?? ProcessEnvironment.values(["MLIB_USER"])["MLIB_USER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whose values this command reads and writes in `library` (`Library.dataUser`): nil for the owner.
    /// An unknown name is `UsersError.unknownUser` (exit status 2).
    func dataUser(_ library: Library) throws -> String? {
        try library.dataUser(userName)
    }

    /// A path that is not UTF-8 reaches Swift repaired (U+FFFD in place of the bad bytes), so it would name
    /// another file: refused rather than opened (or created) there.
    /// $MLIB_LIBRARY likewise (Foundation's environment repairs it the same way): read as bytes.
    func validate() throws {
        guard let library else {
            if let raw = getenv("MLIB_LIBRARY"), String(validatingCString: raw) == nil {
                throw ValidationError("MLIB_LIBRARY: the path is not valid UTF-8; mlib can only open a library whose path is valid UTF-8 (rename it, or give --library)")
            }
            return
        }
        guard library.contains("\u{FFFD}") else { return }
        if !RawArguments.all.contains(where: { $0 == Array(library.utf8) || $0 == Array("--library=\(library)".utf8) }) {
            throw ValidationError("--library: the path is not valid UTF-8; mlib can only open a library whose path is valid UTF-8 (rename it)")
        }
    }

    var locator: LibraryLocator {
        library.map(LibraryLocator.init) ?? Library.defaultLocator()
    }

    /// Opens the library (`Library.open`: SQLite or PostgreSQL). Commands that only read or edit what is
    /// there use `.existing` (a mistyped path is "no library at …", exit 3); only commands that fill one
    /// use `.create`.
    /// A library created at a path given (--library, $MLIB_LIBRARY) needs its folder to exist: a mistyped
    /// `--library /no/such/dir/lib.sqlite` made every folder on the way silently. Only the default
    /// location's folders ($XDG_DATA_HOME/mlib) are made.
    func library(_ mode: LibraryOpenMode = .existing) throws -> Library {
        let given = library ?? ProcessEnvironment.values(["MLIB_LIBRARY"])["MLIB_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 }
        if mode == .create, given != nil, case .sqlite(let path) = locator {
            // By the path's bytes: `deletingLastPathComponent` traps on a one-character path (issue 47).
            let folder = MediaPath(path).directory.string
            var isDirectory: ObjCBool = false
            if folder != ".", !FileManager.default.fileExists(atPath: path),
               !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
                throw IndexError.cannotOpen(database: path, reason: "no folder \(folder) (mlib makes no folders for a library named by --library or MLIB_LIBRARY: create it first)")
            }
        }
        // MLib.main recovered interrupted tag writes before parsing: the open need not look again.
        return try Library.open(locator, mode: mode, recoveringTagWrites: false)
    }

    /// The store of `library(mode)`, for commands that only query or edit through the store protocols.
    func open(_ mode: LibraryOpenMode = .existing) throws -> any LibraryStore {
        try library(mode).store
    }
}

/// One line on standard error, prefixed with the program name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("mlib: \(message)\n".utf8))
}
