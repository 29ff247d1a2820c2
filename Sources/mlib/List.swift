import ArgumentParser
import Foundation
import Library
import MediaIndex
import MediaModel

/// `mlib ls [QUERY...]` (alias `query`): items or collections matching a query, streamed as they are read.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "Query the library.",
        discussion: """
            Each QUERY argument is either a format string with an operator \
            ('artist ==[cd] "bjork" AND year > 1995', 'title CONTAINS "love"', 'year BETWEEN {1990, 1999}') \
            or short-form terms like beets: artist:Björk year:1990..1999 genre:rock,pop ^comments:live \
            "title:love song"; bare words search title, album, artist, album artist, composer and genre; \
            host:NAME and host:this select the files of a host of a shared PostgreSQL library. \
            Arguments are ANDed. The whole language, with examples: mlib-query(7).

            Examples:
              mlib ls artist:björk
              mlib ls 'playbackDuration > 5:00' --sort=-duration --limit 10
              mlib ls --group albums year:1990..
              mlib ls -f '${artist:20} ${title:40} $duration' genre:jazz
              mlib ls --paths -0 type:music | xargs -0 ls -l

            \(ExitStatus.help(one: nil))
            """,
        aliases: ["query"])

    @OptionGroup var libraryOptions: LibraryOptions

    @Argument(help: ArgumentHelp("Query: a format string or short-form terms (see mlib-query(7)).", valueName: "query"),
              completion: Completions.queryTerms)
    var query: [String] = []

    @Option(name: [.short, .long], help: ArgumentHelp(
        "Output template: $field or ${field:WIDTH} (${field:>WIDTH} right-aligned); with --group also $name and $count.",
        valueName: "template"), completion: Completions.templateFields)
    var format: String?

    @Flag(help: "Print a JSON array of items (every property that has a value, by key).")
    var json = false

    @Flag(help: "Print one JSON object per line.")
    var jsonl = false

    @OptionGroup var sortOptions: SortOptions

    @Option(help: ArgumentHelp("Print collections with their item counts: albums, artists, albumArtists, composers, genres, titles, playlists; --sort orders them (by the first item's properties, count or total duration); without --sort, albums by album artist, then album (as beet ls -a), the others by name.",
                               valueName: "kind"))
    var group: MediaGrouping?

    @Option(parsing: .unconditional, help: "At most this many items (or collections).")
    var limit: Int?

    @Option(parsing: .unconditional, help: "Skip this many items (or collections) first.")
    var offset: Int = 0

    @Flag(help: "Print only the number of matching items (or collections).")
    var count = false

    @Flag(help: "Print file paths only, exactly as stored (bytes); items of several hosts (PostgreSQL) as HOST:PATH.")
    var paths = false

    @Flag(name: [.customShort("0"), .customLong("null")], help: "With --paths, end each path with NUL instead of a newline.")
    var nul = false

    func validate() throws {
        if json && jsonl { throw ValidationError("--json and --jsonl exclude each other") }
        if paths && (json || jsonl || format != nil) { throw ValidationError("--paths prints paths only: drop --json/--jsonl/--format") }
        if nul && !paths { throw ValidationError("-0 goes with --paths") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    func run() async throws {
        let library = try libraryOptions.library()
        // A user's query reads their own ratings and plays (--user, MLIB_USER; the owner's are the items').
        let filter = try library.predicate(try QueryInput.predicate(query), for: libraryOptions.userName)
        let mediaQuery: MediaQuery
        if let group {
            mediaQuery = MediaQuery(filter: filter, grouping: group, limit: limit, offset: offset)
        } else {
            mediaQuery = MediaQuery(filter: filter, sort: try sortOptions.descriptors(default: PlaylistQuery.defaultSort),
                                    limit: limit, offset: offset)
        }
        let template = try format.map { try ItemTemplate($0, extraNames: group == nil ? [] : ["name", "count"]) }
        let index = library.store
        var out = StandardOutput()
        // What was printed before an error reaches standard output before the error's line.
        defer { out.flush() }
        if group != nil {
            try listCollections(library, mediaQuery, template, &out)
        } else if count {
            out.write("\(try index.count(mediaQuery))\n")
        } else {
            let user = try libraryOptions.dataUser(library)
            try listItems(index, mediaQuery, template, own: try user.map { try index.userValues(of: $0, ids: nil) }, &out)
        }
    }

    /// `own`: a user's values (not the owner's), printed in place of the items' own.
    private func listItems(_ index: any LibraryStore, _ query: MediaQuery, _ template: ItemTemplate?, own: [Int64: UserItemValues]?,
                           _ out: inout StandardOutput) throws {
        var first = true
        // Items of several hosts (a shared PostgreSQL library): --paths and JSON say whose file each is
        // (`host:path`, a "host" member); a listing of one host's items prints as it always did.
        let hosts = paths || json || jsonl ? try (index as? SQLStore)?.hostLabels(ifSeveral: query) : nil
        if json { out.write("[") }
        // Only the columns the output prints (JSON prints every field: whole items).
        let reading: [MediaProperty]? = paths ? [] : json || jsonl ? nil : template?.properties ?? Self.defaultLineProperties
        let each: (MediaItem) throws -> Void = { item in
            var item = item
            if let own {
                let values = own[item.persistentID] ?? UserItemValues()
                for property in UserDataEdits.editable { item[property] = values[property] }
            }
            if paths {
                let host = hosts?[item.persistentID].map { Array(($0 + ":").utf8) } ?? []
                out.write(bytes: host + item.path.bytes + [nul ? 0 : UInt8(ascii: "\n")])
            } else if json || jsonl {
                var bytes: [UInt8] = json ? Array((first ? "\n" : ",\n").utf8) : []
                item.writeJSON(into: &bytes, host: hosts?[item.persistentID])
                if jsonl { bytes.append(UInt8(ascii: "\n")) }
                out.write(bytes: bytes)
            } else {
                out.write((template?.render(item) ?? Self.defaultLine(item)) + "\n")
            }
            first = false
        }
        if let reading { try index.forEachItem(query, reading: reading, each) } else { try index.forEachItem(query, each) }
        if json { out.write(first ? "]\n" : "\n]\n") }
    }

    /// What `defaultLine` prints.
    static let defaultLineProperties: [MediaProperty] = [.artist, .albumTitle, .title]

    /// "artist - album - title", leaving out what is not tagged; an untagged file shows its file name.
    static func defaultLine(_ item: MediaItem) -> String {
        dashed([item.artist, item.albumTitle, item.title.flatMap { $0.isEmpty ? nil : $0 } ?? item.path.lastComponent.string])
    }

    /// The parts that have text, joined by " - ".
    static func dashed(_ parts: [String?]) -> String {
        parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - ")
    }

    /// The order of groups: --sort (by the first item's properties, count or total duration), else the
    /// grouping's standard order (albums by album artist, then album; the others by name, with the
    /// articles left out with --ignore-articles); nil: by name, as the index lists them.
    func groupOrdering(_ grouping: MediaGrouping) throws -> CollectionOrdering? {
        if let sort = sortOptions.sort { return try CollectionOrdering.parse(sort.text, ignoreArticles: sortOptions.ignoreArticles) }
        return CollectionOrdering.standard(for: grouping, ignoreArticles: sortOptions.ignoreArticles)
    }

    /// The query's collections in `groupOrdering`: streamed from the library when listed by name, else
    /// all read (a summary each), sorted, then paged. Playlists are evaluated as `mlib playlist show` does
    /// (`SmartPlaylistRule.query()`, the one smart-playlist evaluator).
    private func forEachCollection(_ index: Library, _ query: MediaQuery, _ body: (MediaCollectionSummary) throws -> Void) throws {
        guard let ordering = try groupOrdering(query.grouping) else { return try index.forEachCollectionSummary(query, body) }
        var unpaged = query
        unpaged.limit = nil
        unpaged.offset = 0
        for summary in ordering.sorted(try index.collectionSummaries(unpaged), grouping: query.grouping).dropFirst(query.offset).prefix(query.limit ?? .max) {
            try body(summary)
        }
    }

    private func listCollections(_ index: Library, _ query: MediaQuery, _ template: ItemTemplate?,
                                 _ out: inout StandardOutput) throws {
        if count {
            var n = 0
            try index.forEachCollectionSummary(query) { _ in n += 1 }
            out.write("\(n)\n")
            return
        }
        var first = true
        if json { out.write("[") }
        try forEachCollection(index, query) { summary in
            if paths {
                out.write(bytes: summary.representativeItem.path.bytes + [nul ? 0 : UInt8(ascii: "\n")])
            } else if json || jsonl {
                var bytes: [UInt8] = json ? Array((first ? "\n" : ",\n").utf8) : []
                let object = JSONValue.object([
                    ("name", summary.name.map(JSONValue.string) ?? .null), ("count", .int(Int64(summary.count))),
                    ("representativeItem", summary.representativeItem.json(includeTags: false)),
                ])
                object.write(into: &bytes)
                if jsonl { bytes.append(UInt8(ascii: "\n")) }
                out.write(bytes: bytes)
            } else {
                var item = summary.representativeItem
                if query.grouping == .album, item.albumArtist == nil { item.albumArtist = item.artist }
                let name = summary.name ?? "(none)", count = String(summary.count)
                if let template {
                    out.write(template.render(item, extra: ["name": name, "count": count]) + "\n")
                } else {
                    // "album artist - album (count)" for albums, leaving out an untagged artist; "name (count)".
                    out.write(Self.dashed([query.grouping == .album ? item.albumArtist : nil, name]) + " (\(count))\n")
                }
            }
            first = false
        }
        if json { out.write(first ? "]\n" : "\n]\n") }
    }
}
