import Foundation
import Library
import MediaIndex
import MediaModel

// Browsing and lists, answered from the view's catalog.
extension Call {
    func license() -> Node {
        var node = Node("license")
        node.set("valid", true)
        return node
    }

    /// The OpenSubsonic extensions this server implements, each as its spec page describes it: form POSTs,
    /// `apiKey` with `tokenInfo`, `stream`'s `timeOffset` when transcoding, `reportPlayback`, the
    /// index-based play queue (`getPlayQueueByIndex`/`savePlayQueueByIndex`).
    static let implementedExtensions: [(name: String, versions: [Int])] = [
        ("formPost", [1]), ("apiKeyAuthentication", [1]), ("transcodeOffset", [1]), ("playbackReport", [1]),
        ("songLyrics", [1]), ("indexBasedQueue", [1]),
    ]

    func extensions() -> [Node] {
        var list = Node("")   // no name: its list goes directly into the envelope
        list.add(list: "openSubsonicExtensions", Self.implementedExtensions.map { name, versions in
            var node = Node("openSubsonicExtensions")
            node.set("name", name)
            node.set(ints: versions, key: "versions")
            return node
        })
        return [list]
    }

    /// The user the request's credentials name (`apiKeyAuthentication`'s `tokenInfo`).
    func tokenInfo() -> Node {
        var node = Node("tokenInfo")
        node.set("username", user.name)
        return node
    }

    func musicFolders() -> Node {
        let view = server.view.snapshot
        var node = Node("musicFolders")
        node.add(list: "musicFolder", view.roots.enumerated().map { number, root in
            var folder = Node("musicFolder")
            folder.set("id", number)
            folder.set("name", root.lastComponent.string)
            return folder
        })
        return node
    }

    /// The roots' top directories by first letter, as DSub and other folder browsers start.
    func indexes() async throws -> Node {
        let catalog = server.catalog
        let view = catalog.view
        var roots = view.rootDirectories
        if let folder = parameters["musicFolderId"] {
            guard let n = Int(folder), view.rootDirectories.indices.contains(n) else { throw SubsonicError.notFound("Music folder \(folder)") }
            roots = [view.rootDirectories[n]]
        }
        var byLetter: [String: [Node]] = [:]
        var children: [Node] = []
        let marks = try await marks()
        for root in roots {
            for child in view.directories[Int(root)].children {
                let directory = view.directories[Int(child)]
                var artist = Node("artist")
                artist.set("id", catalog.folderID(child))
                artist.set("name", directory.name)
                byLetter[Self.indexLetter(directory.name), default: []].append(artist)
            }
            children += view.directories[Int(root)].items.map { songNode($0, catalog, marks, name: "child") }
        }
        var node = Node("indexes")
        node.set("ignoredArticles", "")
        node.set("lastModified", catalog.lastModified)
        node.add(list: "index", byLetter.keys.sorted().map { letter in
            var index = Node("index")
            index.set("name", letter)
            index.add(list: "artist", byLetter[letter]!)
            return index
        })
        if !children.isEmpty { node.add(list: "child", children) }
        return node
    }

    static func indexLetter(_ name: String) -> String {
        guard let first = TextFolding.folded(name).first, first.isLetter else { return "#" }
        return String(first).uppercased()
    }

    func musicDirectory() async throws -> Node {
        let catalog = server.catalog
        let view = catalog.view
        let id = try parameters.required("id")
        let marks = try await marks()
        // The albums and artists of `getAlbumList`, `search2` and `getStarred` open as folders too.
        if let number = catalog.albumByID[id] { return albumDirectory(number, catalog, marks) }
        if let number = catalog.artistByID[id] { return artistDirectory(number, catalog, marks) }
        guard let directory = catalog.directoryByID[id] else { throw SubsonicError.notFound("Directory \(id)") }
        let d = view.directories[Int(directory)]
        var node = Node("directory")
        node.set("id", id)
        if !view.rootDirectories.contains(directory), let parent = view.directory(path: d.path.directory) {
            node.set("parent", catalog.folderID(parent))
        }
        node.set("name", d.name.isEmpty ? d.path.lastComponent.string : d.name)
        var children = d.children.map { child in
            var entry = Node("child")
            entry.set("id", catalog.folderID(child))
            entry.set("parent", id)
            entry.set("isDir", true)
            entry.set("title", view.directories[Int(child)].name)
            return entry
        }
        children += d.items.map { songNode($0, catalog, marks, name: "child") }
        node.add(list: "child", children)
        return node
    }

    func artists() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var byLetter: [String: [Int]] = [:]
        for number in catalog.artists.indices { byLetter[Self.indexLetter(catalog.artists[number].name), default: []].append(number) }
        var node = Node("artists")
        node.set("ignoredArticles", "")
        node.add(list: "index", byLetter.keys.sorted().map { letter in
            var index = Node("index")
            index.set("name", letter)
            index.add(list: "artist", byLetter[letter]!.map { artistNode($0, catalog, marks) })
            return index
        })
        return node
    }

    func artist() async throws -> Node {
        let catalog = server.catalog
        let id = try parameters.required("id")
        guard let number = catalog.artistByID[id] else { throw SubsonicError.notFound("Artist \(id)") }
        return artistNode(number, catalog, try await marks(), albums: true)
    }

    func album() async throws -> Node {
        let catalog = server.catalog
        let id = try parameters.required("id")
        guard let number = catalog.albumByID[id] else { throw SubsonicError.notFound("Album \(id)") }
        return albumNode(number, catalog, try await marks(), songs: true)
    }

    func song() async throws -> Node {
        let catalog = server.catalog
        let id = try parameters.required("id")
        guard let item = catalog.item(id: id) else { throw SubsonicError.notFound("Song \(id)") }
        return songNode(item, catalog, try await marks())
    }

    /// Page sizes are bounded as Subsonic's are (500 at most); negative ones are errors.
    func pageSize(_ name: String, _ fallback: Int) throws -> Int { try parameters.size(name, fallback) }
    func offset(_ name: String) throws -> Int { try parameters.offset(name) }

    static let albumListTypes: Set<String> = ["alphabeticalByName", "alphabeticalByArtist", "newest", "random", "frequent",
                                              "recent", "highest", "starred", "byYear", "byGenre"]

    func albumList2() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var node = Node("albumList2")
        node.add(list: "album", try albumListPage(catalog, marks).map { albumNode($0, catalog, marks) })
        return node
    }

    /// The album numbers of `getAlbumList`/`getAlbumList2`'s page: `type`'s order and filter, `size` and `offset`.
    func albumListPage(_ catalog: Catalog, _ marks: Marks) throws -> ArraySlice<Int> {
        let type = try parameters.choice("type", Self.albumListTypes)
        let size = try pageSize("size", 10), offset = try offset("offset")
        var numbers = Array(catalog.albums.indices)
        func total(_ number: Int, _ value: (Int32) -> Int) -> Int { catalog.albums[number].items.reduce(0) { $0 + value($1) } }
        func plays(_ item: Int32) -> Int { marks.values(item, catalog).playCount }
        func rating(_ item: Int32) -> Int { marks.values(item, catalog).rating ?? 0 }
        func lastPlayed(_ item: Int32) -> Int { Int(marks.values(item, catalog).lastPlayed ?? 0) }
        switch type {
        case "alphabeticalByName": break
        case "alphabeticalByArtist":
            numbers.sort { (catalog.albums[$0].artist.lowercased(), $0) < (catalog.albums[$1].artist.lowercased(), $1) }
        case "newest":
            numbers.sort { (catalog.albums[$0].created, $1) > (catalog.albums[$1].created, $0) }
        case "random":
            numbers.shuffle()
        case "frequent":
            let counts = numbers.map { total($0, plays) }
            numbers = numbers.filter { counts[$0] > 0 }.sorted { (counts[$0], $1) > (counts[$1], $0) }
        case "recent":
            let latest = numbers.map { n in catalog.albums[n].items.map(lastPlayed).max() ?? 0 }
            numbers = numbers.filter { latest[$0] > 0 }.sorted { (latest[$0], $1) > (latest[$1], $0) }
        case "highest":
            let ratings = numbers.map { n -> Double in
                let rated = catalog.albums[n].items.map(rating).filter { $0 > 0 }
                return rated.isEmpty ? 0 : Double(rated.reduce(0, +)) / Double(rated.count)
            }
            numbers = numbers.filter { ratings[$0] > 0 }.sorted { (ratings[$0], $1) > (ratings[$1], $0) }
        case "starred":
            let starred = marks.stars[.album] ?? [:]
            numbers = numbers.filter { starred[catalog.albums[$0].id] != nil }
        case "byYear":
            guard let from = try parameters.year("fromYear"), let to = try parameters.year("toYear") else {
                throw SubsonicError.missing("fromYear and toYear")
            }
            numbers = numbers.filter { n in catalog.albums[n].year.map { min(from, to)...max(from, to) ~= $0 } ?? false }
            numbers.sort { (catalog.albums[$0].year!, $0) < (catalog.albums[$1].year!, $1) }
            if from > to { numbers.reverse() }
        case "byGenre":
            let genre = try parameters.required("genre")
            let members = Set((catalog.genres.first { $0.name == genre }?.items ?? []).map { catalog.albumOfItem[Int($0)] })
            numbers = numbers.filter { members.contains(Int32($0)) }
        default:
            throw SubsonicError.generic("unknown album list type \(type)")
        }
        return numbers.dropFirst(offset).prefix(size)
    }

    func randomSongs() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        let size = try pageSize("size", 10)
        let from = try parameters.year("fromYear") ?? Int.min, to = try parameters.year("toYear") ?? Int.max
        var candidates: [Int32]
        if let genre = parameters["genre"] {
            candidates = catalog.genres.first { $0.name == genre }?.items ?? []
        } else {
            candidates = Array(0..<Int32(catalog.view.count))
        }
        if parameters["fromYear"] != nil || parameters["toYear"] != nil {
            candidates = candidates.filter { item in catalog.int(item, Catalog.Slot.year).map { from...max(from, to) ~= $0 } ?? false }
        }
        var node = Node("randomSongs")
        node.add(list: "song", candidates.shuffled().prefix(size).map { songNode($0, catalog, marks) })
        return node
    }

    /// `getVideos`: every video item of the library (a video stream, the `video` slot), in path order.
    func videos() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var node = Node("videos")
        node.add(list: "video", (0..<Int32(catalog.view.count)).filter { catalog.value($0, Catalog.Slot.video) != nil }
            .map { songNode($0, catalog, marks, name: "video") })
        return node
    }

    func genres() -> Node {
        let catalog = server.catalog
        var node = Node("genres")
        node.add(list: "genre", catalog.genres.map { genre in
            var g = Node("genre")
            g.set("value", genre.name)
            g.set("songCount", genre.items.count)
            g.set("albumCount", genre.albumCount)
            return g
        })
        return node
    }

    func songsByGenre() async throws -> Node {
        let catalog = server.catalog
        let genre = try parameters.required("genre")
        let count = try pageSize("count", 10), offset = try offset("offset")
        let marks = try await marks()
        var node = Node("songsByGenre")
        let items = catalog.genres.first { $0.name == genre }?.items ?? []
        node.add(list: "song", items.dropFirst(offset).prefix(count).map { songNode($0, catalog, marks) })
        return node
    }

    /// Words match (case and accents aside) anywhere in the name, the title, artist or album; every word
    /// must match. An empty query (or `""`, as Symfonium sends it) matches everything, in a stable order,
    /// so that clients page through the whole library.
    func search3() async throws -> Node {
        let catalog = server.catalog, marks = try await marks()
        return try searchResult("searchResult3", catalog, marks, artist: { artistNode($0, catalog, marks) },
                                album: { albumNode($0, catalog, marks) })
    }

    /// `search3`'s answer, or `search2`'s with its own artist and album elements.
    func searchResult(_ name: String, _ catalog: Catalog, _ marks: Marks, artist: (Int) -> Node, album: (Int) -> Node) throws -> Node {
        var query = parameters["query"] ?? ""
        if query == "\"\"" { query = "" }
        let words = Catalog.sortKey(query).split(whereSeparator: { $0.isWhitespace }).map(SearchTexts.Word.init)
        var node = Node(name)
        let artistCount = try pageSize("artistCount", 20), albumCount = try pageSize("albumCount", 20), songCount = try pageSize("songCount", 20)
        if artistCount > 0 {
            let found = catalog.artistSearchText.entries(containingAll: words, skipping: try offset("artistOffset"))
            node.add(list: "artist", found.prefix(artistCount).map(artist))
        }
        if albumCount > 0 {
            let found = catalog.albumSearchText.entries(containingAll: words, skipping: try offset("albumOffset"))
            node.add(list: "album", found.prefix(albumCount).map(album))
        }
        if songCount > 0 {
            let found = catalog.songSearchText.entries(containingAll: words, skipping: try offset("songOffset"))
            node.add(list: "song", found.prefix(songCount).map { songNode(Int32($0), catalog, marks) })
        }
        return node
    }
}

extension Node {
    mutating func set(ints: [Int], key: String) { set(key, ints: ints) }
}
