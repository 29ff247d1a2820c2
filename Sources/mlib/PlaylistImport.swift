import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel
import Playlists

struct PlaylistImport: PlaylistSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import playlist files (m3u, m3u8, pls, xspf, jspf, json) as static playlists.",
        discussion: """
            Each entry is resolved to an indexed item by its path (relative entries against the playlist \
            file's folder; file:// URIs decoded; symlinks followed if the path itself is not indexed). \
            Entries that do not resolve are listed on standard error and the exit status is 1; the others \
            are imported. The playlist is named after the file (without extension) unless --name is given; a name \
            already taken is refused before anything is read (give --replace or --name).

            \(ExitStatus.help(one: "a file could not be read or an entry did not resolve"))
            """)
    @OptionGroup var libraryOption: LibraryOptions
    @ParentCommand var parent: PlaylistCommand
    @Option(name: .long, help: "The playlist's name (only with one file).") var name: String?
    @Option(name: .long, help: ArgumentHelp("Read as this format instead of guessing from the extension and content.",
                                            valueName: "format"))
    var format: PlaylistFormat?
    @Flag(name: .long, help: "Replace the entries of an existing static playlist of that name.") var replace = false
    @Option(name: .long, help: ArgumentHelp("Resolve relative entries against this directory instead of the file's folder (MPD's saved playlists: its music_directory).", valueName: "dir"), completion: .directory)
    var base: String?
    @Argument(help: ArgumentHelp("Playlist files.", valueName: "file"), completion: .file()) var files: [String]

    func validate() throws {
        if name != nil && files.count > 1 { throw ValidationError("--name needs exactly one file.") }
    }

    func run() async throws {
        let index = try libraryOptions.open(.create)
        var failed = false
        for file in files {
            let path = PlaylistOutputOptions.absolute(file)
            let document: PlaylistDocument
            do {
                document = try PlaylistReader.read(contentsOf: path, format: format, base: base.map(PlaylistOutputOptions.absolute))
            } catch {
                printError("\(error)")
                failed = true
                continue
            }
            let playlistName = name ?? PlaylistImporter.defaultName(path)
            // A name taken is the first thing to say, with the ways out: the entries are judged after.
            if !replace, try index.playlist(named: playlistName) != nil {
                printError("\(file): a playlist named \"\(playlistName)\" already exists: give --replace to replace its entries, or --name to import under another name")
                failed = true
                continue
            }
            let result = try PlaylistImporter.resolve(document, in: index)
            for (number, entry) in result.unresolved {
                printError("\(PlaylistText.printable(file)): entry \(number) is not in the library: \(entry.location.printable)")
            }
            failed = failed || !result.unresolved.isEmpty
            if result.itemIDs.isEmpty && !document.entries.isEmpty {
                printError("\(PlaylistText.printable(file)): no entry is in the library; playlist \"\(PlaylistText.printable(playlistName))\" not created")
                continue
            }
            do {
                if replace, let old = try index.playlist(named: playlistName) {
                    guard !old.isSmart else { throw notStatic(playlistName) }
                    try index.setPlaylistEntries(name: playlistName, itemIDs: result.itemIDs)
                } else {
                    try index.createPlaylist(name: playlistName)
                    try index.appendToPlaylist(name: playlistName, itemIDs: result.itemIDs)
                }
            } catch let error as StatusError where error.exitStatus == ExitStatus.partialFailure {
                // This file's playlist cannot be made (a name taken, a smart playlist): report, go on.
                printError(error.reportLine)
                failed = true
                continue
            }
            print("\(PlaylistText.printable(playlistName)): imported \(result.itemIDs.count) of \(document.entries.count) entries from \(PlaylistText.printable(file))")
        }
        if failed { throw ExitCode(ExitStatus.partialFailure) }
    }
}
