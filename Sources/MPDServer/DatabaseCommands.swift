import Foundation
import MediaIndex
import MediaModel
import Playback

/// The database commands over the mlib index: browsing (`lsinfo`, `listall`, `listallinfo`), queries
/// (`find`, `search`, `count`, `list` with `group`), adding from queries (`findadd`, `searchadd`),
/// `update`/`rescan` (the scanner), and cover art (`albumart`, `readpicture`).
enum DatabaseCommands {
    private static func browser(_ c: CommandContext) throws -> LibraryBrowser { try c.core.browser() }

    // MARK: Browsing

    static func lsinfo(_ c: CommandContext, _ out: inout Response) throws {
        let uri = c.arguments.first ?? ""
        let browser = try browser(c)
        if let song = try browser.song(uri) { return c.songs.write(song, to: &out) }
        let node = try browser.tree(at: uri)
        for song in try browser.items(node.songs) { c.songs.write(song, to: &out) }
        for name in node.directories.keys.sorted(by: LibraryBrowser.byteOrder) {
            let child = LibraryBrowser.join(uri, name)
            out.field("directory", child)
            if let modified = browser.modified(directoryURI: child) { out.field("Last-Modified", MPDFormat.timestamp(modified)) }
        }
        if LibraryURIs.normalized(uri).isEmpty {
            // MPD lists the stored playlists at the top too (for old clients).
            for playlist in try c.core.store.playlists() {
                out.field("playlist", playlist.name)
                out.field("Last-Modified", MPDFormat.timestamp(playlist.modified))
            }
        }
    }

    static func listall(_ c: CommandContext, _ out: inout Response) throws { try walk(c, info: false, &out) }
    static func listallinfo(_ c: CommandContext, _ out: inout Response) throws { try walk(c, info: true, &out) }

    /// The tree below a directory: each directory, then its songs, then its subdirectories, recursively.
    private static func walk(_ c: CommandContext, info: Bool, _ out: inout Response) throws {
        let uri = c.arguments.first ?? ""
        let browser = try browser(c)
        if let song = try browser.song(uri) {
            return info ? c.songs.write(song, to: &out) : out.field("file", c.core.uris.uri(of: song.path) ?? uri)
        }
        let top = try browser.tree(at: uri)
        // listallinfo prints every song's tags: read them all at once; listall needs only the paths.
        var items: [Int64: MediaItem] = [:]
        if info {
            for item in try browser.items(try browser.entries(at: uri)) { items[item.persistentID] = item }
        }
        func visit(_ node: LibraryBrowser.Node, _ directory: String) {
            for song in node.songs {
                if info, let item = items[song.id] { c.songs.write(item, to: &out) } else if !info {
                    out.field("file", c.core.uris.uri(of: song.path) ?? "")
                }
            }
            for name in node.directories.keys.sorted(by: LibraryBrowser.byteOrder) {
                let child = LibraryBrowser.join(directory, name)
                out.field("directory", child)
                if info, let modified = browser.modified(directoryURI: child) {
                    out.field("Last-Modified", MPDFormat.timestamp(modified))
                }
                visit(node.directories[name]!, child)
            }
        }
        let normalized = LibraryURIs.normalized(uri)
        if !normalized.isEmpty {
            out.field("directory", normalized)
            if info, let modified = browser.modified(directoryURI: normalized) { out.field("Last-Modified", MPDFormat.timestamp(modified)) }
        }
        visit(top, normalized)
    }

    // MARK: Queries

    /// Filter arguments and the keywords after them (`sort`, `window`, `group`, `position`).
    struct QueryArguments {
        var filter: [String] = []
        var sort: String?
        var window: Range<Int>?
        var groups: [String] = []
        var position: String?

        init(_ arguments: ArraySlice<String>) throws {
            var i = arguments.startIndex
            while i < arguments.endIndex {
                let word = arguments[i]
                let hasNext = i + 1 < arguments.endIndex
                switch word.lowercased() {
                case "sort" where hasNext: sort = arguments[i + 1]; i += 2
                case "window" where hasNext: window = try Arguments.range(arguments[i + 1], count: .max); i += 2
                case "group" where hasNext: groups.append(arguments[i + 1]); i += 2
                case "position" where hasNext: position = arguments[i + 1]; i += 2
                default:
                    if word.hasPrefix("(") { filter.append(word); i += 1 } else {
                        guard hasNext else { throw MPDError.badArgument("Incorrect number of filter arguments") }
                        filter += [word, arguments[i + 1]]
                        i += 2
                    }
                }
            }
        }
    }

    static func find(_ c: CommandContext, _ out: inout Response) throws {
        for song in try matches(c, .exact) { c.songs.write(song, to: &out) }
    }

    static func search(_ c: CommandContext, _ out: inout Response) throws {
        for song in try matches(c, .search) { c.songs.write(song, to: &out) }
    }

    static func findadd(_ c: CommandContext, _ out: inout Response) throws { try addMatches(c, .exact) }
    static func searchadd(_ c: CommandContext, _ out: inout Response) throws { try addMatches(c, .search) }

    private static func matches(_ c: CommandContext, _ mode: FilterCompiler.Mode) throws -> [MediaItem] {
        let q = try QueryArguments(c.arguments[...])
        let predicate = try FilterCompiler(mode: mode, uris: c.core.uris).compile(q.filter)
        return try query { try browser(c).find(predicate, sort: q.sort, window: q.window) }
    }

    private static func addMatches(_ c: CommandContext, _ mode: FilterCompiler.Mode) throws {
        let q = try QueryArguments(c.arguments[...])
        let items = try matches(c, mode)
        let position = try q.position.map(QueueCommands.position(c))
        // mpd adds the matches one at a time, the queue version rising once per song (`add DIRECTORY`
        // raises it once): so does this, for `plchanges` and clients that compare versions.
        for (k, item) in items.enumerated() {
            _ = try c.core.insert([item], at: position.map { $0 + k })
            c.core.commitQueue()
        }
    }

    /// Runs a store query; a predicate the store refuses (a bad regular expression) is the client's error.
    private static func query<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as MPDError { throw error } catch let error as QueryError {
            throw MPDError.badArgument("\(error)")
        }
    }

    /// `count FILTER [group TAG]`: songs and whole seconds of playtime, per group value if asked.
    static func count(_ c: CommandContext, _ out: inout Response) throws {
        let q = try QueryArguments(c.arguments[...])
        let predicate = q.filter.isEmpty ? MediaPredicate.all : try FilterCompiler(mode: .exact, uris: c.core.uris).compile(q.filter)
        guard let groupName = q.groups.first else {
            var songs = 0, seconds = 0.0
            try query { try c.core.store.forEachItem(MediaQuery(filter: predicate)) { songs += 1; seconds += $0.playbackDuration } }
            out.field("songs", songs)
            out.field("playtime", Int(seconds))
            return
        }
        guard let tag = MPDTag.named(groupName) else { throw MPDError.badArgument("Unknown tag type: \(groupName)") }
        var groups: [String: (songs: Int, seconds: Double)] = [:]
        try query {
            try c.core.store.forEachItem(MediaQuery(filter: predicate)) { item in
                for value in values(of: tag, in: item, keepEmpty: true) {
                    groups[value, default: (0, 0)].songs += 1
                    groups[value, default: (0, 0)].seconds += item.playbackDuration
                }
            }
        }
        for key in groups.keys.sorted(by: LibraryBrowser.byteOrder) {
            out.field(tag.name, key)
            out.field("songs", groups[key]!.songs)
            out.field("playtime", Int(groups[key]!.seconds))
        }
    }

    /// A tag's values in an item (several for a multi-valued tag; "" for none when `keepEmpty`).
    static func values(of tag: MPDTag, in item: MediaItem, keepEmpty: Bool) -> [String] {
        guard let value = tag.valueWithFallback(in: item) else { return keepEmpty ? [""] : [] }
        if tag.rawKey != nil || tag.property?.spec.type == .text {
            return value.components(separatedBy: "; ").filter { !$0.isEmpty }
        }
        return [value]
    }

    /// `list TAG [FILTER] [group TAG]…`: the distinct values, sorted, under their group values.
    static func list(_ c: CommandContext, _ out: inout Response) throws {
        let typeName = c.arguments[0]
        var rest = c.arguments.dropFirst()
        // The old form `list album ARTIST`.
        if typeName.lowercased() == "album", rest.count == 1, let artist = rest.first, !artist.hasPrefix("(") {
            rest = ["artist", artist]
        }
        let q = try QueryArguments(rest)
        let predicate = q.filter.isEmpty ? MediaPredicate.all : try FilterCompiler(mode: .exact, uris: c.core.uris).compile(q.filter)
        let isFile = typeName.lowercased() == "file"
        guard isFile || MPDTag.named(typeName) != nil else { throw MPDError.badArgument("Unknown tag type: \(typeName)") }
        let groupTags = try q.groups.map { name -> MPDTag in
            guard let tag = MPDTag.named(name) else { throw MPDError.badArgument("Unknown tag type: \(name)") }
            return tag
        }
        if isFile {
            // MPD lists files in database order, not sorted.
            for song in try query({ try browser(c).find(predicate, sort: nil, window: nil) }) {
                out.field("file", c.core.uris.uri(of: song.path) ?? "")
            }
            return
        }
        var rows = Set<[String]>()
        try query {
            try c.core.store.forEachItem(MediaQuery(filter: predicate)) { item in
                let own: [String] = isFile ? [c.core.uris.uri(of: item.path) ?? ""]
                    : values(of: MPDTag.named(typeName)!, in: item, keepEmpty: true)
                guard !own.isEmpty else { return }
                var prefixes: [[String]] = [[]]
                for tag in groupTags {
                    let vs = values(of: tag, in: item, keepEmpty: true)
                    prefixes = prefixes.flatMap { p in vs.map { p + [$0] } }
                }
                for p in prefixes { for v in own { rows.insert(p + [v]) } }
            }
        }
        let sorted = rows.sorted { a, b in
            for (x, y) in zip(a, b) where x != y { return LibraryBrowser.byteOrder(x, y) }
            return a.count < b.count
        }
        let name = isFile ? "file" : MPDTag.named(typeName)!.name
        var previous: [String]? = nil
        for row in sorted {
            for level in groupTags.indices where previous == nil || previous![...level] != row[...level] {
                out.field(groupTags[level].name, row[level])
            }
            out.field(name, row.last!)
            previous = row
        }
    }

    // MARK: Update

    /// `update [URI]` and `rescan [URI]`: the scanner on every root or one directory; answers the job id.
    /// (mlib's scan already rereads every changed file, so `rescan` is `update`.)
    static func update(_ c: CommandContext, _ out: inout Response) throws {
        var directories: [MediaPath] = []
        if let uri = c.arguments.first, !LibraryURIs.normalized(uri).isEmpty {
            guard let path = c.core.uris.path(of: uri) else { throw MPDError.badArgument("Malformed path") }
            directories = [path]
        }
        out.field("updating_db", c.core.startUpdate(directories))
    }

    // MARK: Cover art

    /// `albumart URI OFFSET`: the cover file beside the song (cover/folder/front .jpg/.png), as MPD's.
    static func albumart(_ c: CommandContext, _ out: inout Response) throws {
        let offset = try Arguments.unsigned(c.arguments[1])
        guard let song = try browser(c).song(c.arguments[0]) else { throw MPDError(.noExist, "No file exists") }
        let directory = song.path.directory.string
        for name in ["cover", "folder", "front", "Cover", "Folder", "Front"] {
            for ext in ["jpg", "png", "jpeg", "webp"] {
                let file = directory + "/" + name + "." + ext
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                return chunk(Array(data), offset: offset, limit: c.session.binaryLimit, type: nil, &out)
            }
        }
        throw MPDError(.noExist, "No file exists")
    }

    /// `readpicture URI OFFSET`: the picture embedded in the file (attached picture stream, via FFmpeg).
    static func readpicture(_ c: CommandContext, _ out: inout Response) throws {
        let offset = try Arguments.unsigned(c.arguments[1])
        guard let song = try browser(c).song(c.arguments[0]) else { throw MPDError(.noExist, "No file exists") }
        guard let picture = EmbeddedPicture.read(song.path) else { return }   // MPD: OK with nothing
        chunk(picture.data, offset: offset, limit: c.session.binaryLimit, type: picture.mimeType, &out)
    }

    private static func chunk(_ data: [UInt8], offset: Int, limit: Int, type: String?, _ out: inout Response) {
        out.field("size", data.count)
        if let type { out.field("type", type) }
        let start = min(offset, data.count)
        out.binary(Array(data[start..<min(data.count, start + limit)]))
    }
}
