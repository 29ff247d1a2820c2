import ArgumentParser
import Foundation
import MediaIndex
import MediaModel
import Library
import MediaScanner

/// `mlib root`: the library's roots — list, add (a nested root too), relocate, forget.
struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "root",
        abstract: "List, add, relocate or forget library roots.",
        discussion: """
            A root is a directory tree the library indexes. `mlib scan DIR` adds DIR as a root unless it lies \
            inside one (then it rescans that part); `mlib root add` adds a root even inside another. `mlib \
            root move OLD NEW` follows a library that moved (a renamed folder, a disk mounted elsewhere): \
            every item keeps its id, play counts, rating and playlist entries. `mlib root exclude DIR GLOB` \
            stores an exclude list with the root (as if in a .mlibignore at it).

            On a PostgreSQL library shared by several hosts, `mlib root add DIR --share NAME` on each host \
            that mounts one NAS share at DIR makes the share one set of items (one id per file, its plays, \
            ratings and playlist entries seen from every host), scanned by whichever host scans it. Each \
            host mounts the share where it likes and sees its items at its own mount point (`mlib root move` \
            moves this host's mount point only). `mlib root forget DIR` then leaves the share on this host \
            only: its items stay for the others (the last host to leave forgets them). A host where the \
            share is not mounted (its mount point missing or empty) removes nothing of it, and its servers \
            do not list its items. An SQLite library is one host's: --share is refused there.

            \(ExitStatus.help(one: "a directory does not exist"))
            """,
        subcommands: [RootList.self, RootAdd.self, RootMove.self, RootForget.self, RootExclude.self],
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
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the roots.", discussion: ExitStatus.help(one: nil))
    @OptionGroup var libraryOptions: LibraryOptions
    @Flag(name: .long, help: "Print the roots as a JSON array of paths.") var json = false

    func run() throws {
        let index = try libraryOptions.open()
        let roots = try index.roots()
        if json {
            FileHandle.standardOutput.write(try JSONEncoder().encode(roots.map(\.string)) + Data("\n".utf8))
        } else {
            let excludes = Dictionary(uniqueKeysWithValues: try index.rootStates().map { ($0.path, $0.excludes) })
            let sql = index as? SQLStore
            let shares = try sql?.sharedRoots() ?? []
            for root in roots {
                let list = excludes[root] ?? []
                var line = root.string + (list.isEmpty ? "" : "  (excludes: \(list.joined(separator: " ")))")
                if let share = shares.first(where: { $0.path == root }), let sql {
                    line += "  (share \(share.name): \(try sql.hostsOfShare(share).joined(separator: ", "))\(share.isMounted ? "" : "; not mounted here"))"
                }
                print(line)
            }
        }
    }
}

struct RootAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add directories as roots (even inside another root); `mlib scan` then indexes them.",
        discussion: ExitStatus.help(one: "a directory does not exist"))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("Directories to add.", valueName: "dir"), completion: .directory) var directories: [String]
    @Option(name: .long, help: ArgumentHelp(
        "Join the share NAME at this directory, this host's mount point of it: one set of items for every host that joins it (PostgreSQL).",
        valueName: "name")) var share: String?

    func validate() throws {
        if share != nil && directories.count != 1 { throw ValidationError("--share takes one directory (the share's mount point).") }
    }

    func run() throws {
        if let share {
            if case .sqlite = libraryOptions.locator { throw ValidationError(SharedRoot.singleHostRefusal) }
            let library = try libraryOptions.library(.create)
            let root = try Scan.existingDirectory(MediaPath(directories[0]))
            let joined: SQLStore.ShareJoin
            do { joined = try library.joinShare(share, at: root, options: .failingWhenBusy) } catch let error as IndexError {
                throw ValidationError(error.description)
            }
            switch joined {
            case .joined: print("joined the share \(share) at \(root)")
            case .converted: print("\(root) is now the share \(share): its items keep their ids and user data")
            case .already: print("\(root) is the share \(share) here already")
            }
            return
        }
        let index = try libraryOptions.open(.create)
        for directory in directories {
            let root = try Scan.existingDirectory(MediaPath(directory))
            print(try index.addRoot(root) ? "added \(root)" : "\(root) is a root already")
            // Another host joined this export as a share: indexing it here too would make two items per file.
            if let source = SharedRoot.networkSource(of: root), let share = try (index as? SQLStore)?.share(mountedFrom: source) {
                printError("""
                    note: \(root) is \(source), which other hosts joined as the share '\(share)'; to share its items \
                    with them, run `mlib root forget \(root)` and `mlib root add \(root) --share \(share)`
                    """)
            }
        }
    }
}

struct RootMove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Relocate a root: every path under OLD is rewritten under NEW; identity and user data stay.",
        discussion: ExitStatus.help(one: "the new directory does not exist"))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The root as the library knows it.", valueName: "old"), completion: .directory) var old: String
    @Argument(help: ArgumentHelp("Where it is now.", valueName: "new"), completion: .directory) var new: String

    func run() throws {
        let library = try libraryOptions.library()
        let from = try Root.known(old, in: library.store)
        let to = try Scan.existingDirectory(MediaPath(new))
        do { try library.relocateRoot(from, to: to, options: .failingWhenBusy) } catch let error as IndexError {
            throw ValidationError(error.description)
        }
        print("moved \(from) to \(to); run `mlib scan \(to)` to check it")
    }
}

struct RootForget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Remove a root and what is indexed under it (what another root covers stays).",
        discussion: ExitStatus.help(one: nil))
    @OptionGroup var libraryOptions: LibraryOptions
    @Argument(help: ArgumentHelp("The root to forget.", valueName: "dir"), completion: .directory) var directory: String

    func run() throws {
        let library = try libraryOptions.library()
        let from = try Root.known(directory, in: library.store)
        if let share = try library.sharedRoots().first(where: { $0.path == from }) {
            let left = try library.leaveShare(share, options: .failingWhenBusy)
            print(left == 0 ? "forgot the share \(share.name) at \(from) (no host is left in it)"
                  : "left the share \(share.name) at \(from); its items stay for the \(left) other host\(left == 1 ? "" : "s")")
            return
        }
        try library.forgetRoot(from, options: .failingWhenBusy)
        print("forgot \(from)")
    }
}

extension Library.ScanOptions {
    /// For a command that rewrites what a scan writes: `ScanLock.Failure.busy` (exit 3) at once if a scan runs.
    static var failingWhenBusy: Self {
        var options = Self()
        options.lockTimeout = 0
        return options
    }
}

struct RootExclude: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exclude",
        abstract: "Show or change a root's stored exclude list.",
        discussion: """
            The patterns are gitignore-style globs, read as if they were in a .mlibignore file at the root \
            (see "Exclude lists" in mlib(1)); they are kept in the library, so every scan and `mlib watch` \
            applies them without a file in the music folder. The next scan of the root hides what the list \
            leaves out and brings back, with their ids and user data, the items it no longer does. Without \
            patterns, prints the list.

            \(ExitStatus.help(one: nil))
            """)
    @OptionGroup var libraryOptions: LibraryOptions
    @Flag(name: .long, help: "Remove the given patterns from the list instead of adding them.") var remove = false
    @Flag(name: .long, help: "Empty the list.") var clear = false
    @Argument(help: ArgumentHelp("The root.", valueName: "dir"), completion: .directory) var root: String
    @Argument(help: ArgumentHelp("Patterns to add (or remove with --remove).", valueName: "glob")) var patterns: [String] = []

    func validate() throws {
        if remove && patterns.isEmpty { throw ValidationError("--remove needs the patterns to remove.") }
        if clear && !patterns.isEmpty { throw ValidationError("--clear takes no patterns.") }
    }

    func run() throws {
        let index = try libraryOptions.open()
        let root = try Root.known(self.root, in: index)
        var list = try index.rootStates().first { $0.path == root }?.excludes ?? []
        if clear {
            list = []
        } else if remove {
            for pattern in patterns where !list.contains(pattern) { printError("\(pattern): not in the list") }
            list.removeAll { patterns.contains($0) }
        } else {
            for pattern in patterns where !list.contains(pattern) {
                guard !pattern.contains("\n"), !pattern.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ValidationError("a pattern cannot be empty or span lines.")
                }
                list.append(pattern)
            }
        }
        if clear || !patterns.isEmpty { try index.setExcludes(list, of: root) }
        for pattern in list { print(pattern) }
    }
}
