import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel
import Playlists

/// `mlib playlist …`: playlists kept in the library, as MPMediaPlaylist. Static playlists hold item ids,
/// so their entries survive rescans and moves; smart playlists hold a query evaluated when read.
struct PlaylistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Manage playlists kept in the library.",
        discussion: """
            Static playlists list items in a chosen order and follow files across rescans and moves. \
            Smart playlists store a query (with --sort and --limit) and are evaluated each time they are \
            shown or exported, like iTunes smart playlists.

            Examples:
              mlib playlist create Road
              mlib playlist add Road artist:Björk --sort album
              mlib playlist smart Jazz genre:jazz --sort -year --limit 50
              mlib playlist smart "Last week" 'dateAdded > "-7d"' --sort -added
              mlib playlist export Road -o road.m3u8
              mlib playlist import ~/old/party.pls

            \(ExitStatus.help(one: "no such playlist, a name already taken, nothing matched, or entries that did not resolve"))
            """,
        subcommands: [PlaylistCreate.self, PlaylistAdd.self, PlaylistRemove.self, PlaylistList.self,
                      PlaylistShow.self, PlaylistRename.self, PlaylistDelete.self, PlaylistExport.self,
                      PlaylistSmart.self, PlaylistImport.self])

    /// `mlib playlist --library X list`: the library may also come before the subcommand (ArgumentParser
    /// reads it here, on the command that groups them; each subcommand also takes it after its name).
    @OptionGroup var libraryOptions: LibraryOptions
}

/// A `playlist` subcommand: its own --library, or the one given before its name.
protocol PlaylistSubcommand: AsyncParsableCommand {
    var libraryOption: LibraryOptions { get }
    var parent: PlaylistCommand { get }
}

extension PlaylistSubcommand {
    var libraryOptions: LibraryOptions { libraryOption.library == nil ? parent.libraryOptions : libraryOption }
}

struct PlaylistCreate: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an empty static playlist (and the library, if there is none yet).",
        discussion: ExitStatus.help(one: "the name is taken"))
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String

    func run() async throws {
        try libraryOptions.open(.create).createPlaylist(name: name)
    }
}

struct PlaylistAdd: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Append the items matching a query to a static playlist.",
        discussion: """
            Items are appended in the query's order (--sort); an item already listed is listed again.

            \(ExitStatus.help(one: "no such playlist, a smart one, or nothing matches"))
            """)
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @OptionGroup var sortOptions: SortOptions
    @Option(name: .long, parsing: .unconditional, help: "Add at most this many items.") var limit: Int?
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String
    @Argument(help: ArgumentHelp("Query selecting the items (see mlib-query(7)).", valueName: "query"), completion: Completions.queryTerms) var query: [String]

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit cannot be negative.") }
    }

    func run() async throws {
        let query = try PlaylistQuery.query(query, sort: sortOptions, limit: limit)
        let index = try libraryOptions.open()
        if try index.requirePlaylist(name).isSmart { throw notStatic(name) }
        let added = try index.appendToPlaylist(name: name, matching: query)
        if added == 0 { throw CLIError.nothingMatches("no items match; playlist \"\(name)\" unchanged") }
        print("added \(added) item\(added == 1 ? "" : "s") to \"\(name)\"")
    }
}

struct PlaylistRemove: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove entries from a static playlist by position (as `show` numbers them).",
        discussion: ExitStatus.help(one: "no such playlist or position"))
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String
    @Argument(help: ArgumentHelp("Positions, from 1; ranges such as 3-7 work.", valueName: "position"))
    var positions: [String]

    func run() async throws {
        var zeroBased: [Int] = []
        for text in positions {
            let bounds = text.split(separator: "-", maxSplits: 1).map { Int($0) }
            guard bounds.allSatisfy({ ($0 ?? 0) >= 1 }), let lo = bounds.first ?? nil, let hi = bounds.last ?? nil, lo <= hi else {
                throw ValidationError("'\(text)' is not a position (1, 2, …) or a range (3-7).")
            }
            zeroBased += (lo...hi).map { $0 - 1 }
        }
        let index = try libraryOptions.open()
        let playlist = try index.requirePlaylist(name)
        if playlist.isSmart { throw notStatic(name) }
        if let bad = zeroBased.first(where: { $0 >= playlist.entryCount }) {
            throw CLIError.input("playlist \"\(name)\" has no position \(bad + 1) (it has \(playlist.entryCount) entries)")
        }
        try index.removeFromPlaylist(name: name, positions: zeroBased)
    }
}

struct PlaylistList: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List playlists with their item counts.",
        discussion: """
            A playlist made through the API (mlib serve --http) shows its owner, and "private" when only its \
            owner and admins see it there; the library's own playlists have no owner.

            A smart playlist whose stored query cannot be run (too deeply nested, or not readable by this \
            version) is listed with the error instead of its count ("error" in JSON), and its error is one \
            line on standard error; the others are listed as usual.

            \(ExitStatus.help(one: "a smart playlist's query could not be run"))
            """)
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
        let index = try libraryOptions.open()
        var rows: [JSONValue] = []
        var broken = 0
        for playlist in try index.playlists() {
            // One bad rule is that playlist's problem: the listing goes on (a query error only; a library
            // error still ends the command).
            var count: Int? = playlist.entryCount, problem: String?
            if let rule = playlist.smart {
                do { count = try index.count(try PlaylistContents.query(rule)) } catch let error as QueryError {
                    count = nil
                    problem = error.description.split(separator: "\n").first.map(String.init) ?? "\(error)"
                    broken += 1
                    printError("playlist \"\(playlist.name)\": \(problem!)")
                }
            }
            if json {
                rows.append(.object([
                    ("name", .string(playlist.name)), ("smart", .bool(playlist.isSmart)),
                    ("count", count.map { .int(Int64($0)) } ?? .null), ("error", problem.map(JSONValue.string) ?? .null),
                    ("query", playlist.smart.map { .string($0.predicate) } ?? .null),
                    ("sort", playlist.smart?.sort.map { .string($0) } ?? .null),
                    ("limit", playlist.smart?.limit.map { .int(Int64($0)) } ?? .null),
                    ("source", playlist.source.map { .string($0.string) } ?? .null),
                    ("owner", playlist.owner.map(JSONValue.string) ?? .null), ("public", .bool(playlist.isPublic)),
                    ("created", .double(playlist.created.timeIntervalSince1970)),
                    ("modified", .double(playlist.modified.timeIntervalSince1970)),
                ]))
            } else {
                let rule = playlist.smart.map { "  [smart: \($0.predicate)\($0.sort.map { " sort \($0)" } ?? "")\($0.limit.map { " limit \($0)" } ?? "")]" } ?? ""
                let mirror = playlist.source.map { "  [mirrors \($0.string): edit the file]" } ?? ""
                let size = count.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "error: \(problem ?? "")"
                // An API user's playlist names its owner; a private one says so (the library's are public).
                let rights = [playlist.owner.map { "owner \($0)" }, playlist.isPublic ? nil : "private"].compactMap { $0 }
                let owner = rights.isEmpty ? "" : "  [\(rights.joined(separator: ", "))]"
                print("\(playlist.name)\t\(size)\(rule)\(mirror)\(owner)")
            }
        }
        if json { print(JSONValue.array(rows).serialized(pretty: true)) }
        if broken > 0 { throw ExitCode(ExitStatus.partialFailure) }
    }
}

struct PlaylistShow: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a playlist's items in order.", discussion: ExitStatus.help(one: "no such playlist"))
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Flag(name: .long, help: "Print the items as JSON (the same form as mlib ls --json).") var json = false
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String

    func run() async throws {
        let library = try libraryOptions.library()
        let index = library.store
        let playlist = try index.requirePlaylist(name)
        let user = libraryOption.userName ?? parent.libraryOptions.userName
        var out = StandardOutput()
        var position = 0
        if json { out.write("[") }
        defer { out.flush() }
        func show(_ item: MediaItem) {
            position += 1
            if json {
                out.write(position == 1 ? "\n" : ",\n")
                var bytes: [UInt8] = []
                item.writeJSON(into: &bytes)
                out.write(bytes: bytes)
            } else {
                let title = item.artist.map { "\($0) - \(item.displayTitle)" } ?? item.displayTitle
                out.write("\(String(position).leftPadded(4))  \(Self.clock(item.playbackDuration).leftPadded(7))  \(title)\t\(item.path)\n")
            }
        }
        if playlist.smart != nil, try library.dataUser(user) != nil {
            // A smart playlist as --user sees it: its rule reads that user's ratings and plays.
            for item in try library.items(of: playlist, for: user) { show(item) }
        } else {
            try PlaylistContents.forEachItem(of: playlist, in: index) { show($0) }
        }
        if json { out.write(position == 0 ? "]\n" : "\n]\n") }
    }

    static func clock(_ seconds: Double) -> String {
        guard seconds > 0, seconds.isFinite else { return "--:--" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

struct PlaylistRename: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a playlist.", discussion: ExitStatus.help(one: "no such playlist, or the new name is taken"))
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Argument(help: "The current name.", completion: Completions.playlistNames) var name: String
    @Argument(help: "The new name.") var newName: String

    func run() async throws {
        try libraryOptions.open().renamePlaylist(name, to: newName)
    }
}

struct PlaylistDelete: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a playlist (its items stay in the library).",
        discussion: ExitStatus.help(one: "no such playlist"))
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String

    func run() async throws {
        try libraryOptions.open().deletePlaylist(name: name)
    }
}

struct PlaylistExport: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a playlist to a file or standard output.",
        discussion: """
            Options as for mlib export; a smart playlist is evaluated now. The playlist's name is its title \
            unless --title is given. --sort reorders the entries (a smart playlist's own sort otherwise), \
            --limit keeps the first ones.

            \(ExitStatus.help(one: "no such playlist, or the -o file could not be written"))
            """)
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @OptionGroup var outputOptions: PlaylistOutputOptions
    @OptionGroup var sortOptions: SortOptions
    @Option(name: .long, parsing: .unconditional, help: "Export at most this many entries.") var limit: Int?
    @Option(name: .long, help: "The playlist's title (xspf, jspf, and #PLAYLIST in m3u; default: its name).") var title: String?
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit cannot be negative.") }
    }

    func run() async throws {
        let library = try libraryOptions.library()
        let index = library.store
        let playlist = try index.requirePlaylist(name)
        let sort = try sortOptions.sort.map { _ in try sortOptions.descriptors(default: nil) }
        var writer = outputOptions.writer(title: title ?? name)
        // --user: a smart playlist's rule reads that user's ratings and plays (nil: the owner's, the items').
        let user = try library.dataUser(libraryOption.userName ?? parent.libraryOptions.userName)
        if let rule = playlist.smart, sort != nil || limit != nil || user != nil {
            // A smart playlist's own query, with the order and length asked for here.
            var query = try PlaylistContents.query(rule)
            if user != nil { query.filter = try library.predicate(query.filter, for: user) }
            if let sort { query.sort = sort }
            if let limit { query.limit = limit }
            try index.forEachItem(query) { writer.append($0) }
        } else if sort == nil {
            var left = limit ?? .max
            try PlaylistContents.forEachItem(of: playlist, in: index) { item in
                if left > 0 { writer.append(item); left -= 1 }
            }
        } else {
            var items: [MediaItem] = []
            try PlaylistContents.forEachItem(of: playlist, in: index) { items.append($0) }
            for item in ItemOrdering(sort ?? []).sorted(items).prefix(limit ?? .max) { writer.append(item) }
        }
        try outputOptions.emit(writer.finish())
    }
}

struct PlaylistSmart: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "smart", abstract: "Create (or with --replace, redefine) a smart playlist from a query.",
        discussion: """
            The query is stored and evaluated whenever the playlist is listed, shown or exported. When every \
            argument is a format string they are stored as typed, so a relative date (dateAdded > "-7d") \
            stays relative; otherwise the query is stored as the equivalent format string, with relative \
            dates in field:value words (added:-7d..) fixed when the playlist is saved.

            Without --sort the playlist is in the order mlib ls lists in (\(PlaylistContents.defaultSort)), \
            and with --limit that order decides which items it holds; every command that reads it (playlist \
            show, ls --group playlists, export, play, mlib serve) evaluates it the same way.

            \(ExitStatus.help(one: "the name belongs to a static playlist"))
            """)
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @OptionGroup var sortOptions: SortOptions
    @Option(name: .long, parsing: .unconditional, help: "At most this many items.") var limit: Int?
    @Flag(name: .long, help: "Replace the rule of an existing smart playlist of that name.") var replace = false
    @Argument(help: "The playlist's name.", completion: Completions.playlistNames) var name: String
    @Argument(help: ArgumentHelp("The query (see mlib-query(7)).", valueName: "query"), completion: Completions.queryTerms) var query: [String]

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let rule = try PlaylistQuery.rule(query, sort: sortOptions, limit: limit)
        let index = try libraryOptions.open(.create)
        if replace, let old = try index.playlist(named: name) {
            guard old.isSmart else { throw notSmart(name) }
            try index.deletePlaylist(name: name)
        }
        try index.createPlaylist(name: name, smart: rule)
    }
}

/// The error for editing the entries of a smart playlist.
func notStatic(_ name: String) -> CLIError {
    .wrongPlaylistKind("\"\(name)\" is a smart playlist: change its query with mlib playlist smart --replace")
}

func notSmart(_ name: String) -> CLIError {
    .wrongPlaylistKind("\"\(name)\" is a static playlist; --replace only redefines smart playlists")
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
