import Foundation
import Library
import MediaIndex
import MediaModel

// The calls of clients that browse by folder (DSub's default mode, Subsonic before 1.8): albums and artists
// as directories (`Child` with `isDir`, `Artist`), which `getMusicDirectory` opens like the disk's folders.
extension Call {
    func albumList() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var node = Node("albumList")
        node.add(list: "album", try albumListPage(catalog, marks).map { albumChild($0, catalog, marks) })
        return node
    }

    func search2() async throws -> Node {
        let catalog = server.catalog, marks = try await marks()
        return try searchResult("searchResult2", catalog, marks, artist: { artistFolder($0, catalog, marks) },
                                album: { albumChild($0, catalog, marks) })
    }

    func starred() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var node = Node("starred")
        node.add(list: "artist", starredKeys(.artist, marks).compactMap { catalog.artistByID[$0] }.map { artistFolder($0, catalog, marks) })
        node.add(list: "album", starredKeys(.album, marks).compactMap { catalog.albumByID[$0] }.map { albumChild($0, catalog, marks) })
        node.add(list: "song", starredKeys(.song, marks).compactMap { catalog.item(id: $0) }.map { songNode($0, catalog, marks) })
        return node
    }

    /// The user's stars of one kind, newest first.
    func starredKeys(_ kind: UserStar.Kind, _ marks: Marks) -> [String] {
        (marks.stars[kind] ?? [:]).sorted { ($0.value, $0.key) > ($1.value, $1.key) }.map(\.key)
    }

    /// Subsonic's first search (deprecated since API 1.4, still sent by old clients): songs whose title,
    /// artist and album contain the words of `title`, `artist` and `album`, and whose three together
    /// contain those of `any`; `newerThan` (ms) keeps the songs added since. Folded as `search3` folds.
    func search() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        typealias S = Catalog.Slot
        func words(_ name: String) -> [SearchTexts.Word] {
            Catalog.sortKey(parameters[name] ?? "").split(whereSeparator: { $0.isWhitespace }).map(SearchTexts.Word.init)
        }
        let fields: [(words: [SearchTexts.Word], slot: Int?)] = [(words("title"), S.title), (words("artist"), S.artist),
                                                        (words("album"), S.album), (words("any"), nil)]
        let newerThan = try parameters["newerThan"].map { text -> Int64 in
            guard let ms = Int64(text) else { throw SubsonicError.generic("newerThan is not a number: \(text)") }
            return ms / 1000
        }
        let count = try pageSize("count", 20), offset = try offset("offset")
        // Per field with a slot: which of its values hold every word (each distinct value folded once).
        let tables = fields.map { field in
            field.slot.flatMap { slot in field.words.isEmpty ? nil : catalog.valueTable(slot) { text in field.words.allSatisfy { $0.occurs(in: text) } } }
        }
        let hits = (0..<Int32(catalog.view.count)).filter { item in
            if let newerThan, (catalog.int(item, S.added).map(Int64.init) ?? 0) <= newerThan { return false }
            return zip(fields, tables).allSatisfy { field, table in
                guard !field.words.isEmpty else { return true }
                guard let slot = field.slot, let table else { return catalog.songSearchText.entry(Int(item), containsAll: field.words) }
                return catalog.item(item, slot, in: table)
            }
        }
        var node = Node("searchResult")
        node.set("offset", offset)
        node.set("totalHits", hits.count)
        node.add(list: "match", hits.dropFirst(offset).prefix(count).map { songNode($0, catalog, marks, name: "child") })
        return node
    }

    /// An album as a folder-mode list shows it: the album's own element (`albumNode`: its `name` and
    /// `songCount` are what clients that read the list as albums need, py-opensonic among them) made a
    /// `Child` directory, whose id `getMusicDirectory` opens.
    func albumChild(_ number: Int, _ catalog: Catalog, _ marks: Marks, name: String = "album") -> Node {
        let album = catalog.albums[number]
        var node = albumNode(number, catalog, marks, name: name)
        node.set("parent", album.artistID)
        node.set("isDir", true)
        node.set("title", album.name)
        node.set("album", album.name)
        node.set("mediaType", "album")
        return node
    }

    /// An artist as `getIndexes`, `search2` and `getStarred` list it (`Artist`): id and name.
    func artistFolder(_ number: Int, _ catalog: Catalog, _ marks: Marks) -> Node {
        let artist = catalog.artists[number]
        var node = Node("artist")
        node.set("id", artist.id)
        node.set("name", artist.name)
        node.set("starred", marks.starred(.artist, artist.id))
        return node
    }

    /// `getMusicDirectory` of an album id: its songs.
    func albumDirectory(_ number: Int, _ catalog: Catalog, _ marks: Marks) -> Node {
        let album = catalog.albums[number]
        var node = Node("directory")
        node.set("id", album.id)
        node.set("parent", album.artistID)
        node.set("name", album.name)
        node.set("starred", marks.starred(.album, album.id))
        node.set("playCount", albumPlays(album, catalog, marks))
        node.add(list: "child", album.items.map { songNode($0, catalog, marks, name: "child") })
        return node
    }

    /// `getMusicDirectory` of an artist id: their albums, as directories.
    func artistDirectory(_ number: Int, _ catalog: Catalog, _ marks: Marks) -> Node {
        let artist = catalog.artists[number]
        var node = Node("directory")
        node.set("id", artist.id)
        node.set("name", artist.name)
        node.set("starred", marks.starred(.artist, artist.id))
        node.add(list: "child", artist.albums.map { albumChild($0, catalog, marks, name: "child") })
        return node
    }
}
