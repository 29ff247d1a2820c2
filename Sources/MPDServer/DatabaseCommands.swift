import Foundation
import Library
import MediaIndex
import MediaModel
import Playback

/// The database commands over the mlib index: browsing (`lsinfo`, `listall`, `listallinfo`), queries
/// (`find`, `search`, `count`, `list` with `group`), adding from queries (`findadd`, `searchadd`),
/// `update`/`rescan` (the scanner), and cover art (`albumart`, `readpicture`).
enum DatabaseCommands {
    // MARK: Browsing (from the view, on the loop)

    static func lsinfo(_ c: CommandContext, _ out: inout Response) throws {
        let uri = c.arguments.first ?? ""
        let browser = c.core.browser()
        let view = browser.view
        let normalized = LibraryURIs.normalized(uri)
        let entry = browser.entry(normalized)
        if case .song(let song) = entry { return c.songs.write(song, of: view, to: &out) }
        let songs = c.songs
        if case .directory(let d) = entry {
            // The common case, written straight from the tree: no listing of joined URIs is made first
            // (at 100,000 songs this answer took 2.5x mpd's time, most of it building strings).
            for song in view.directories[Int(d)].items { songs.write(song, of: view, to: &out) }
            for child in view.directories[Int(d)].children {
                // Each field read in place: a copy of the whole `Directory` retained and released its arrays.
                out.field("directory", parent: normalized, name: view.directories[Int(child)].uriName)
                if let modified = view.directories[Int(child)].modified { out.timestamp("Last-Modified", seconds: modified) }
            }
        } else {
            let listing = try browser.listing(uri)
            for song in listing.songs { songs.write(song, of: view, to: &out) }
            for (child, directory) in listing.directories {
                out.field("directory", child)
                if let modified = view.directories[Int(directory)].modified { out.timestamp("Last-Modified", seconds: modified) }
            }
        }
        if normalized.isEmpty {
            // MPD lists the stored playlists at the top too (for old clients), as `listplaylists` does.
            try StoredPlaylistCommands.topPlaylists(c, &out)
        }
    }

    static func listall(_ c: CommandContext, _ out: inout Response) throws { try walk(c, info: false, &out) }
    static func listallinfo(_ c: CommandContext, _ out: inout Response) throws { try walk(c, info: true, &out) }

    /// The tree below a directory: each directory, then its songs, then its subdirectories, recursively.
    private static func walk(_ c: CommandContext, info: Bool, _ out: inout Response) throws {
        let uri = c.arguments.first ?? ""
        let browser = c.core.browser()
        let view = browser.view
        let songs = c.songs
        if let song = browser.song(uri) {
            return info ? songs.write(song, of: view, to: &out) : out.field("file", c.core.uris.uri(of: view.paths[Int(song)]) ?? uri)
        }
        let top = try browser.listing(uri)
        let normalized = LibraryURIs.normalized(uri)
        if !normalized.isEmpty {
            out.field("directory", normalized)
            if info, let path = c.core.uris.path(of: normalized), let d = view.directory(path: path),
               let modified = view.directories[Int(d)].modified { out.timestamp("Last-Modified", seconds: modified) }
        }
        // The first slice now; a walk longer than a slice goes on in later turns of the loop.
        let walk = LibraryWalk(browser: browser, songs: songs, uris: c.core.uris, info: info, top: top,
                               lines: info ? c.core.songLines(for: view) : nil)
        let core = c.core
        if !walk.step(&out, slice: LibraryWalk.slice(whileWaiting: core.waitingForATurn)) {
            c.continueLater { out in walk.step(&out, slice: LibraryWalk.slice(whileWaiting: core.waitingForATurn)) }
        }
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

    static func find(_ c: CommandContext, _ out: inout Response) throws { try write(c, .exact, &out) }
    static func search(_ c: CommandContext, _ out: inout Response) throws { try write(c, .search, &out) }

    private static func write(_ c: CommandContext, _ mode: FilterCompiler.Mode, _ out: inout Response) throws {
        let q = try QueryArguments(c.arguments[...])
        let filter = try FilterCompiler(mode: mode, uris: c.core.uris).compile(q.filter)
        let songs = c.songs
        let browser = c.core.browser()
        guard let sort = q.sort else {
            for song in try browser.find(filter, window: q.window) { songs.write(song, of: browser.view, to: &out) }
            return
        }
        var found = try sorted(browser.find(filter, window: nil), by: sort, in: browser.view)[...]
        if let window = q.window { found = found[min(window.lowerBound, found.count)..<min(window.upperBound, found.count)] }
        for song in found { songs.write(song, of: browser.view, to: &out) }
    }

    /// `items` (in database order) sorted as mpd 0.23 sorts `find … sort TAG` (`DatabaseVisitorHelper`): a
    /// stable sort by the tag's first value with its fallbacks (`Tag::GetSortValue`: ArtistSort, then
    /// Artist…), compared as bytes (`strcmp`), Track and Disc as numbers (`strtol`); `-TAG` descending,
    /// equal values still in database order; `Last-Modified` by time.
    static func sorted(_ items: [Int32], by sort: String, in view: LibrarySnapshot) throws -> [Int32] {
        let descending = sort.hasPrefix("-")
        let name = descending ? String(sort.dropFirst()) : sort
        func stable<Key>(_ key: (Int32) -> Key, _ less: (Key, Key) -> Bool) -> [Int32] {
            let keyed = items.enumerated().map { (position: $0.offset, item: $0.element, key: key($0.element)) }
            return keyed.sorted { a, b in
                if less(a.key, b.key) { return !descending }
                if less(b.key, a.key) { return descending }
                return a.position < b.position
            }.map(\.item)
        }
        if name.lowercased() == "last-modified" {
            return stable({ view.modified[Int($0)].isNaN ? 0 : view.modified[Int($0)] }, <)
        }
        guard let tag = MPDTag.named(name) else { throw MPDError.badArgument("Unknown sort tag") }
        let slots = TagSlots(tag)
        func firstValue(_ item: Int32) -> String {
            var first: String?
            slots.forEachValue(item, in: view) { position, value in
                if first == nil { first = slots.string(position, value, in: view) }
            }
            return first ?? ""
        }
        if tag.property == .albumTrackNumber || tag.property == .discNumber {
            return stable({ Int(firstValue($0).prefix { $0.isASCII && $0.isNumber }) ?? 0 }, <)
        }
        return stable(firstValue, LibraryBrowser.byteOrder)
    }

    static func findadd(_ c: CommandContext, _ out: inout Response) throws { try addMatches(c, .exact) }
    static func searchadd(_ c: CommandContext, _ out: inout Response) throws { try addMatches(c, .search) }

    private static func addMatches(_ c: CommandContext, _ mode: FilterCompiler.Mode) throws {
        let q = try QueryArguments(c.arguments[...])
        let filter = try FilterCompiler(mode: mode, uris: c.core.uris).compile(q.filter)
        let browser = c.core.browser()
        let ids = try browser.find(filter, window: q.window).map { browser.view.ids[Int($0)] }
        let store = c.core.store, position = q.position
        // The queue holds whole items (the player reads their paths and gains): read off the loop.
        c.offLoop {
            let items = try store.items(ids: ids)
            return { c, _ in
                let at = try position.map(QueueCommands.position(c))
                // mpd adds the matches one at a time, the queue version rising once per song (`add
                // DIRECTORY` raises it once): so does this, for `plchanges` and clients that compare versions.
                for (k, item) in items.enumerated() {
                    _ = try c.core.insert([item], at: at.map { $0 + k })
                    c.core.commitQueue()
                }
            }
        }
    }

    /// The view's items matching a filter (every item for none), in path order.
    private static func matching(_ c: CommandContext, _ filter: [String], _ view: LibrarySnapshot) throws -> [Int32]? {
        guard !filter.isEmpty else { return nil }
        let matches = try FilterCompiler(mode: .exact, uris: c.core.uris).compile(filter).test(in: view)
        return (0..<Int32(view.count)).filter(matches)
    }

    /// `count FILTER [group TAG]`: songs and whole seconds of playtime, per group value if asked.
    static func count(_ c: CommandContext, _ out: inout Response) throws {
        let q = try QueryArguments(c.arguments[...])
        let view = c.view
        let items = try matching(c, q.filter, view)
        guard let groupName = q.groups.first else {
            var seconds = 0.0
            if let items { for i in items { seconds += view.durations[Int(i)] } } else { seconds = view.totalDuration }
            out.field("songs", items?.count ?? view.count)
            out.field("playtime", Int(seconds))
            return
        }
        guard let tag = MPDTag.named(groupName) else { throw MPDError.badArgument("Unknown tag type: \(groupName)") }
        // Counted by value number (an array per slot), then merged by text: a value and its fallback's
        // can be the same text.
        let slots = TagSlots(tag)
        var songs = slots.tables(view, 0), seconds = slots.tables(view, 0.0)
        func add(_ i: Int32) {
            let duration = view.durations[Int(i)]
            slots.forEachValue(i, in: view) { position, value in
                songs[position][Int(value)] += 1
                seconds[position][Int(value)] += duration
            }
        }
        if let items { items.forEach(add) } else { for i in 0..<Int32(view.count) { add(i) } }
        var named: [String: (songs: Int, seconds: Double)] = [:]
        for position in songs.indices {
            for value in songs[position].indices where songs[position][value] > 0 {
                let name = slots.string(position, UInt32(value), in: view)
                named[name, default: (0, 0)].songs += songs[position][value]
                named[name, default: (0, 0)].seconds += seconds[position][value]
            }
        }
        for name in named.keys.sorted(by: LibraryBrowser.byteOrder) {
            out.field(tag.name, name)
            out.field("songs", named[name]!.songs)
            out.field("playtime", Int(named[name]!.seconds))
        }
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
        let isFile = typeName.lowercased() == "file"
        guard isFile || MPDTag.named(typeName) != nil else { throw MPDError.badArgument("Unknown tag type: \(typeName)") }
        let groupTags = try q.groups.map { name -> MPDTag in
            guard let tag = MPDTag.named(name) else { throw MPDError.badArgument("Unknown tag type: \(name)") }
            return tag
        }
        // As mpd: a tag grouped twice, or by itself, is refused.
        if let listed = MPDTag.named(typeName),
           Set(groupTags.map(\.name) + [listed.name]).count != groupTags.count + 1 { throw MPDError.badArgument("Conflicting group") }
        let browser = c.core.browser()
        let view = browser.view
        if isFile {
            // MPD lists files in database order, not sorted.
            let filter = q.filter.isEmpty ? MPDFilter.predicate(.all) : try FilterCompiler(mode: .exact, uris: c.core.uris).compile(q.filter)
            for song in try browser.find(filter, window: nil) { out.field("file", c.core.uris.uri(of: view.paths[Int(song)]) ?? "") }
            return
        }
        let tag = MPDTag.named(typeName)!
        let items = try matching(c, q.filter, view)
        if groupTags.isEmpty {
            // The values seen, marked by value number (an array per slot).
            let slots = TagSlots(tag)
            var seen = slots.tables(view, false)
            func add(_ i: Int32) { slots.forEachValue(i, in: view) { seen[$0][Int($1)] = true } }
            if let items { items.forEach(add) } else { for i in 0..<Int32(view.count) { add(i) } }
            var texts = Set<String>()
            for position in seen.indices {
                for value in seen[position].indices where seen[position][value] {
                    texts.insert(slots.string(position, UInt32(value), in: view))
                }
            }
            var sorted = texts.sorted(by: LibraryBrowser.byteOrder)[...]
            if let window = q.window { sorted = sorted[min(window.lowerBound, sorted.count)..<min(window.upperBound, sorted.count)] }
            for text in sorted { out.field(tag.name, text) }
            return
        }
        GroupedTagList(tag: tag, groups: groupTags).write(items, of: view, window: q.window, to: &out)
    }

    // MARK: Update

    /// `update [URI]` and `rescan [URI]`: the scanner on every root or one directory; answers the job id.
    /// While an update runs, the next ones wait in a queue of 32, as mpd's (`ServerCore.startUpdate`).
    /// (mlib's scan already rereads every changed file, so `rescan` is `update`.)
    static func update(_ c: CommandContext, _ out: inout Response) throws {
        var directories: [MediaPath] = []
        if let uri = c.arguments.first, !LibraryURIs.normalized(uri).isEmpty {
            guard let path = c.core.uris.path(of: uri) else { throw MPDError.malformedPath }
            directories = [path]
        }
        out.field("updating_db", try c.core.startUpdate(directories))
    }

    // MARK: Cover art

    /// `albumart URI OFFSET`: the cover file beside the song, by the library's one cover look-up
    /// (`CoverLookup`: its names, containment at open time, a size cap, a cache: each chunk of a client's
    /// loop is then a cache hit, not a read of the whole file), off the loop.
    static func albumart(_ c: CommandContext, _ out: inout Response) throws {
        let offset = try Arguments.unsigned(c.arguments[1])
        let browser = c.core.browser()
        guard let song = browser.song(c.arguments[0]) else { throw MPDError(.noExist, "No file exists") }
        let directory = browser.view.paths[Int(song)].directory, roots = browser.view.roots
        let covers = c.core.library.covers, limit = c.session.binaryLimit
        c.offLoop {
            let picture = covers.folderCover(in: directory, roots: roots)
            return { _, out in
                guard let picture else { throw MPDError(.noExist, "No file exists") }
                chunk(picture.bytes, offset: offset, limit: limit, type: nil, &out)
            }
        }
    }

    /// `readpicture URI OFFSET`: the picture embedded in the file (attached picture stream, via FFmpeg),
    /// read through the same look-up (the song opened by the containment rule).
    static func readpicture(_ c: CommandContext, _ out: inout Response) throws {
        let offset = try Arguments.unsigned(c.arguments[1])
        let browser = c.core.browser()
        guard let song = browser.song(c.arguments[0]) else { throw MPDError.noSuchSong }   // as mpd 0.23 (its albumart says "No file exists")
        let path = browser.view.paths[Int(song)], roots = browser.view.roots, limit = c.session.binaryLimit
        let covers = c.core.library.covers
        c.offLoop {
            let picture = covers.embeddedPicture(of: path, roots: roots)
            return { _, out in
                guard let picture else { return }   // MPD: OK with nothing
                chunk(picture.bytes, offset: offset, limit: limit, type: picture.mimeType, &out)
            }
        }
    }

    private static func chunk(_ data: [UInt8], offset: Int, limit: Int, type: String?, _ out: inout Response) {
        out.field("size", data.count)
        if let type { out.field("type", type) }
        let start = min(offset, data.count)
        out.binary(Array(data[start..<min(data.count, start + limit)]))
    }
}
