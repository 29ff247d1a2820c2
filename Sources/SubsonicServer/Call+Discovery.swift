import Foundation
import Library
import MediaIndex
import MediaModel

// What clients show beside a song, an album or an artist — info, top songs, similar songs — answered from the library itself (tags, plays, ratings, genres), with no internet: where
// Navidrome and gonic ask Last.fm, and answer nothing offline.
extension Call {
    /// `getArtistInfo`/`getArtistInfo2`: the artist's MusicBrainz id (from their songs' tags) and
    /// `count` similar artists of the library (`Recommendations.similarArtists`). No biography or images:
    /// the library has none.
    func artistInfo(id3: Bool) async throws -> Node {
        let catalog = server.catalog, marks = try await marks()
        let id = try parameters.required("id")
        let number = try artistNumber(of: id, catalog)
        let count = try pageSize("count", 20)
        var node = Node(id3 ? "artistInfo2" : "artistInfo")
        let album = catalog.artists[number].albums.first.map { catalog.albums[$0] }
        node.set("musicBrainzId", try await tag(.musicBrainzAlbumArtistID, ofItem: album?.items.first, catalog))
        let similar = catalog.recommendations.similarArtists(to: catalog.artists[number].name).prefix(count)
            .compactMap { catalog.artistByID["ar-" + Catalog.hash($0)] }
        node.add(list: "similarArtist", similar.map { other in
            var artist = id3 ? artistNode(other, catalog, marks) : artistFolder(other, catalog, marks)
            artist.name = "similarArtist"
            return artist
        })
        return node
    }

    /// `getAlbumInfo`/`getAlbumInfo2`: the album's MusicBrainz release id, from its songs' tags.
    func albumInfo() async throws -> Node {
        let catalog = server.catalog
        let id = try parameters.required("id")
        let number: Int
        if let album = catalog.albumByID[id] { number = album }
        else if let item = catalog.item(id: id) { number = Int(catalog.albumOfItem[Int(item)]) }
        else { throw SubsonicError.notFound("Album \(id)") }
        var node = Node("albumInfo")
        node.set("musicBrainzId", try await tag(.musicBrainzAlbumID, ofItem: catalog.albums[number].items.first, catalog))
        return node
    }

    /// `getTopSongs`: the songs of the artist named `artist` (as song artist or album artist, case and
    /// accents aside), most played first, then the highest rated, then the most recently played.
    func topSongs() async throws -> Node {
        let catalog = server.catalog, marks = try await marks()
        let name = Catalog.sortKey(try parameters.required("artist"))
        let count = try pageSize("count", 50)
        typealias S = Catalog.Slot
        let artists = catalog.valueTable(S.artist) { $0 == name }, albumArtists = catalog.valueTable(S.albumArtist) { $0 == name }
        let songs = (0..<Int32(catalog.view.count)).filter { item in
            catalog.item(item, S.artist, in: artists) || catalog.item(item, S.albumArtist, in: albumArtists)
        }
        func rank(_ item: Int32) -> (Int, Int, Int) {
            let values = marks.values(item, catalog)
            return (values.playCount, values.rating ?? 0, Int(values.lastPlayed ?? 0))
        }
        let ranked = songs.map { ($0, rank($0)) }.sorted { ($0.1.0, $0.1.1, $0.1.2, $1.0) > ($1.1.0, $1.1.1, $1.1.2, $0.0) }
        var node = Node("topSongs")
        node.add(list: "song", ranked.prefix(count).map { songNode($0.0, catalog, marks) })
        return node
    }

    /// `getSimilarSongs`/`getSimilarSongs2`: for a song, album, artist or folder id (the seeds: the song, the
    /// album's songs, the artist's songs, the songs at or below the folder), `count` songs like them for this user, best first
    /// (`Recommendations.similarSongs`: sessions the user and others played them in, the seeds' artist and
    /// the artists most like them), the seeds left out: a radio of the library.
    func similarSongs(id3: Bool) async throws -> Node {
        let catalog = server.catalog, marks = try await marks()
        let id = try parameters.required("id")
        let count = try pageSize("count", 50)
        let seeds: [Int32]
        if let song = catalog.item(id: id) { seeds = [song] }
        else if let album = catalog.albumByID[id] { seeds = catalog.albums[album].items }
        else if let artist = catalog.artistByID[id] { seeds = catalog.artists[artist].albums.flatMap { catalog.albums[$0].items } }
        // A folder (what folder-mode clients such as DSub browse): the songs at or below it.
        else if let folder = catalog.directoryByID[id] { seeds = Array(catalog.view.directories[Int(folder)].subtree) }
        else { throw SubsonicError.notFound("Artist \(id)") }
        let listener: HistoryQuery.UserFilter = user.isOwner ? .ownerAccount(user.name) : .named(user.name)
        let songs = try await server.offLoop { [store = server.library.store] in
            try catalog.recommendations.similarSongs(to: seeds, history: store, user: listener, count: count)
        }
        var node = Node(id3 ? "similarSongs2" : "similarSongs")
        node.add(list: "song", songs.map { songNode($0, catalog, marks) })
        return node
    }

    /// The artist an artist, album or song id stands for (a song's: its album's artist).
    private func artistNumber(of id: String, _ catalog: Catalog) throws -> Int {
        if let artist = catalog.artistByID[id] { return artist }
        if let album = catalog.albumByID[id] { return catalog.artistOfAlbum(album) }
        if let item = catalog.item(id: id) { return catalog.artistOfAlbum(Int(catalog.albumOfItem[Int(item)])) }
        throw SubsonicError.notFound("Artist \(id)")
    }

    /// A tag of one item, read from the store (the view keeps only what lists need).
    private func tag(_ property: MediaProperty, ofItem item: Int32?, _ catalog: Catalog) async throws -> String? {
        guard let item else { return nil }
        let id = catalog.view.ids[Int(item)]
        return try await server.offLoop { [store = server.library.store] in try store.item(id: id)?[property]?.text }
    }
}
