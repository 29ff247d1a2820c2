import ArgumentParser
import Foundation
import MediaIndex

/// `--library PATH`, shared by every command that opens the index. Resolution order: the option,
/// $MLIB_LIBRARY, then $XDG_DATA_HOME/mlib/library.sqlite (XDG_DATA_HOME defaulting to ~/.local/share).
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library database.", valueName: "path"))
    var library: String?

    var resolvedPath: String {
        if let library { return library }
        let env = ProcessInfo.processInfo.environment
        if let p = env["MLIB_LIBRARY"], !p.isEmpty { return p }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return data + "/mlib/library.sqlite"
    }

    /// Opens the library, or prints one line and exits with status 3.
    func open() throws -> SQLiteIndex {
        do { return try SQLiteIndex(path: resolvedPath) } catch {
            printError("\(error)")
            throw ExitCode(ExitStatus.libraryUnavailable)
        }
    }
}

/// One line on standard error, prefixed with the program name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("mlib: \(message)\n".utf8))
}
