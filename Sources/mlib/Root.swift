import ArgumentParser
import Foundation
import MediaIndex
import MediaModel
import MediaScanner

/// `mlib root`: the library's roots — list, add (a nested root too), relocate, forget.
struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, add, relocate or forget library roots.",
        discussion: """
            A root is a directory tree the library indexes. `mlib scan DIR` adds DIR as a root unless it lies \\
            inside one (then it rescans that part); `mlib root add` adds a root even inside another. `mlib \\
            root move OLD NEW` follows a library that moved (a renamed folder, a disk mounted elsewhere): \\
            every item keeps its id, play counts, rating and playlist entries.

            Exit status: 0 success; 1 the directory does not exist; 2 usage error (not a root, overlapping \\
            roots); 3 the library could not be opened or a scan holds it.
            """,
        subcommands: [RootList.self, RootAdd.self, RootMove.self, RootForget.self],
        defaultSubcommand: RootList.self)

    /// The root `text` names: resolved when it still exists, else as the library spells it (a moved or
    /// unmounted root usually cannot be resolved any more).
    static func known(_ text: String, in index: some RootStore) throws -> MediaPath {
        let roots = try index.roots()
        let resolved = Scan.absolutePath(MediaPath(text))
        if roots.contains(resolved) { return resolved }
        guard roots.contains(MediaPath(text)) else { throw ValidationError("\(text) is not a library root (see `mlib root list`).") }
        return MediaPath(text)
    }
}

struct RootList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the roots.")
    @OptionGroup var libraryOptions: LibraryOptions
    @Flag(name: .long, help: "Print the roots as a JSON array of paths.") var json = false

    func run() throws {
        let roots = try libraryOptions.open().roots()
        if json {
            FileHandle.standardOutput.write(try JSONEncoder().encode(roots.map(\.string)) + Data("\n".utf8))
        } else {
            for root in roots { print(root.string) }
        }
    }
}

struct RootAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add directories as roots (even inside another root); `mlib scan` then indexes them.")
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("Directories to add.", valueName: "dir")) var directories: [String]

    func run() throws {
        let index = try libraryOptions.open()
        for directory in directories {
            let root = try Scan.existingDirectory(MediaPath(directory))
            print(try index.addRoot(root) ? "added \(root)" : "\(root) is a root already")
        }
    }
}

struct RootMove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Relocate a root: every path under OLD is rewritten under NEW; identity and user data stay.")
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The root as the library knows it.", valueName: "old")) var old: String
    @Argument(help: ArgumentHelp("Where it is now.", valueName: "new")) var new: String

    func run() throws {
        let lock = try ScanLock.forCommand(libraryOptions)
        defer { withExtendedLifetime(lock) {} }
        let index = try libraryOptions.open()
        let from = try Root.known(old, in: index)
        let to = try Scan.existingDirectory(MediaPath(new))
        do { try index.relocateRoot(from, to: to) } catch let error as IndexError {
            throw ValidationError(error.description)
        }
        print("moved \(from) to \(to); run `mlib scan \(to)` to check it")
    }
}

struct RootForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Remove a root and what is indexed under it (what another root covers stays).")
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The root to forget.", valueName: "dir")) var directory: String

    func run() throws {
        let lock = try ScanLock.forCommand(libraryOptions)
        defer { withExtendedLifetime(lock) {} }
        let index = try libraryOptions.open()
        let from = try Root.known(directory, in: index)
        try index.removeRoot(from)
        print("forgot \(from)")
    }
}

extension ScanLock {
    /// The scan lock for a command that rewrites what a scan writes: exits 3 at once if a scan runs.
    static func forCommand(_ options: LibraryOptions) throws -> ScanLock {
        let path = try options.sqliteFile()
        do { return try ScanLock(libraryPath: path, timeout: 0) } catch {
            printError("\(error)")
            throw ExitCode(ExitStatus.libraryUnavailable)
        }
    }
}
