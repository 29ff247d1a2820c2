import ArgumentParser
import Foundation
import MediaIndex
import MediaModel
import Playlists

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export query results as a playlist.",
        discussion: """
            Writes the items matching QUERY (all items without one) as a playlist, to standard output or \
            atomically to -o FILE (an interrupted export never leaves half a playlist over a good one).

            Paths are absolute unless --relative-to DIR or --relative (relative to the -o file's folder) is \
            given. File names that are not UTF-8: m3u writes the raw bytes; m3u8 and pls write an absolute \
            file:// URI with %XX escapes; xspf and jspf always use escaped URIs; json writes {"bytes": [...]}.

            Examples:
              mlib export artist:Björk --sort album -o bjork.m3u8
              mlib export 'genre ==[c] "jazz" AND year < 1970' --format xspf > jazz.xspf
              mlib export --relative -o ~/Music/playlists/all.m3u

            \(ExitStatus.help(one: "the -o file could not be written"))
            """)

    @OptionGroup var libraryOptions: LibraryOptions
    @OptionGroup var outputOptions: PlaylistOutputOptions

    @OptionGroup var sortOptions: SortOptions

    @Option(name: .long, parsing: .unconditional, help: "Export at most this many items.")
    var limit: Int?

    @Option(name: .long, help: "The playlist's title (xspf, jspf, and #PLAYLIST in m3u).")
    var title: String?

    @Argument(help: ArgumentHelp("Query: field:value words or a format string (see mlib-query(7)).", valueName: "query"),
              completion: Completions.queryTerms)
    var query: [String] = []

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit cannot be negative.") }
    }

    func run() async throws {
        let query = try PlaylistQuery.query(query, sort: sortOptions, limit: limit)
        let index = try libraryOptions.open()
        var writer = outputOptions.writer(title: title)
        // Items of several hosts (a shared PostgreSQL library): the JSON format says whose file each is, as
        // `ls --json` does; one host's items are written as they always were.
        let hosts = writer.format == .json ? try (index as? SQLStore)?.hostLabels(ifSeveral: query) : nil
        try index.forEachItem(query) { writer.append($0, host: hosts?[$0.persistentID]) }
        // An empty result never replaces a playlist (a typo in a cron job would have emptied a good one).
        if writer.count == 0 { throw CLIError.nothingMatches("no items match; nothing written") }
        try outputOptions.emit(writer.finish())
    }
}
