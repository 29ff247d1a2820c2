import Foundation
import Library
import MediaModel

extension ViewSchema {
    /// What the API server keeps of each item in its view (`Catalog.Slot` numbers the slots, from
    /// `Catalog.slotBase` in a view shared with the MPD server, whose slots come first).
    static let subsonic = ViewSchema(slots: [
        .init("title", multiValued: false, reading: [.title]) { $0.title },
        .init("artist", multiValued: false, reading: [.artist]) { $0.artist },
        .init("albumArtist", multiValued: false, reading: [.albumArtist, .artist]) { $0.albumArtist ?? $0.artist },
        .init("album", multiValued: false, reading: [.albumTitle]) { $0.albumTitle },
        .init("genre", multiValued: true, reading: [.genre]) { $0.genre },
        .init("year", multiValued: false, reading: [.year]) { $0[.year]?.integer.map { String($0) } },
        .init("track", multiValued: false, reading: [.albumTrackNumber]) { $0[.albumTrackNumber]?.integer.map { String($0) } },
        .init("disc", multiValued: false, reading: [.discNumber]) { $0[.discNumber]?.integer.map { String($0) } },
        .init("bitRate", multiValued: false, reading: [.bitRate]) { $0[.bitRate]?.integer.map { String($0 / 1000) } },
        .init("size", multiValued: false, reading: [.fileSize]) { String($0.fileSize) },
        .init("sampleRate", multiValued: false, reading: [.sampleRate]) { $0[.sampleRate]?.integer.map { String($0) } },
        .init("channels", multiValued: false, reading: [.channels]) { $0[.channels]?.integer.map { String($0) } },
        .init("bitDepth", multiValued: false, reading: [.bitDepth]) { $0[.bitDepth]?.integer.map { String($0) } },
        .init("added", multiValued: false, reading: [.dateAdded, .modificationDate]) { ($0[.dateAdded]?.real ?? $0[.modificationDate]?.real).map { String(Int64($0)) } },
        .init("playCount", multiValued: false, reading: [.playCount]) { $0.playCount > 0 ? String($0.playCount) : nil },
        .init("rating", multiValued: false, reading: [.rating]) { $0.userRating.map { String($0) } },
        .init("lastPlayed", multiValued: false, reading: [.lastPlayedDate]) { $0[.lastPlayedDate]?.real.map { String(Int64($0)) } },
        .init("video", multiValued: false, reading: [.mediaType]) { $0.mediaType.rawValue & 0xff00 != 0 ? "1" : nil },
        // The web app picks Opus for what a browser cannot play: ALAC and AAC share the .m4a suffix.
        .init("codec", multiValued: false, reading: [.audioCodec]) { $0[.audioCodec]?.text },
    ], properties: [])
}

/// The library as Subsonic sees it, derived once per view snapshot: albums (by album artist and album
/// title), artists (by album artist), genres, music folders (the roots) and the folder tree's ids.
///
/// Ids are stable across rescans and moves: a song is its item id; an album `al-…` and an artist `ar-…`
/// are a 64-bit FNV-1a hash of their key (names, not rows); a folder `fo-…` is the hash of its path.
final class Catalog: Sendable {
    enum Slot {
        static let title = 0, artist = 1, albumArtist = 2, album = 3, genre = 4, year = 5, track = 6, disc = 7
        static let bitRate = 8, size = 9, sampleRate = 10, channels = 11, bitDepth = 12, added = 13
        static let playCount = 14, rating = 15, lastPlayed = 16, video = 17, codec = 18
    }

    struct Album: Sendable {
        var id: String
        var name: String
        var artist: String
        var artistID: String
        /// In disc, track, path order.
        var items: [Int32]
        var duration: Double
        var year: Int?
        var genre: String?
        var created: Int64
    }

    struct Artist: Sendable {
        var id: String
        var name: String
        /// Album numbers, by year then name.
        var albums: [Int]
    }

    struct Genre: Sendable {
        var name: String
        var items: [Int32]
        var albumCount: Int
    }

    static let unknownAlbum = "[Unknown Album]"
    static let unknownArtist = "[Unknown Artist]"

    let view: LibrarySnapshot
    /// Where `ViewSchema.subsonic`'s slots begin in the view (0 in a view of the API server's own; after
    /// the MPD server's slots in a view they share): `Slot` numbers are relative to it.
    let slotBase: Int
    /// By name (case-insensitively), as `alphabeticalByName` lists them.
    let albums: [Album]
    let albumByID: [String: Int]
    let albumOfItem: [Int32]
    /// By name, case-insensitively.
    let artists: [Artist]
    let artistByID: [String: Int]
    let genres: [Genre]
    let itemByID: [Int64: Int32]
    let directoryByID: [String: Int32]
    /// `getIndexes`' `lastModified` (ms since 1970): when what the API lists last changed. The first
    /// catalog of a run says the newest file modification time among its items, so that a restart alone
    /// does not send every client to read the library again; one built for a view that changed while
    /// serving (a rescan, a removal, a play) says the moment it was built, if later.
    let lastModified: Int64
    /// Per item its title, artist and album, per album its name and artist, per artist its name: folded
    /// (`sortKey`) once per snapshot, so that a search folds only its own words.
    let songSearchText: SearchTexts
    let albumSearchText: SearchTexts
    let artistSearchText: SearchTexts
    /// Similar artists and songs over this view (`Recommendations`), by album artist.
    let recommendations: Recommendations
    /// Whether the albums, artists, genres, ids and search texts were taken from the previous catalog
    /// (the view was patched and no slot they derive from changed) rather than derived again.
    let reused: Bool

    /// The slots the groupings (albums, artists, genres, similar artists) derive from: a view patched in
    /// none of these keeps them as they were. A title or a (track) artist changes only the songs' search
    /// texts; a track or disc number, only its album's order.
    static let groupedBy = [Slot.albumArtist, Slot.album, Slot.genre, Slot.year, Slot.added]

    /// The catalog of `view`. Following `previous`, of the view `view` was patched from, with none of
    /// `groupedBy`'s slots or the durations changed: `previous`'s derivations, kept, with the changed songs'
    /// search texts and albums' order redone (a play or a rating recorded by the MPD front costs no rebuild:
    /// issue 44). Otherwise derived whole.
    convenience init(_ view: LibrarySnapshot, following previous: Catalog? = nil) {
        if let previous, let lineage = view.lineage, lineage.follows(previous.view), !lineage.durationsChanged,
           !lineage.changedAny(of: Self.groupedBy.map { previous.slotBase + $0 }) {
            // The newest modification among the changed items only: the others' is in the previous value.
            let newest = lineage.items.lazy.map { view.modified[Int($0)] }.filter { $0.isFinite }.max() ?? 0
            let lastModified = max(previous.lastModified, Int64((max(newest, Date().timeIntervalSince1970) * 1000).rounded(.down)))
            self.init(view, reusing: previous, lineage: lineage, lastModified: lastModified)
            ViewLog.write("catalog kept: \(lineage.items.count) items changed")
        } else {
            let started = ContinuousClock.now
            let newest = view.modified.lazy.filter { $0.isFinite }.max() ?? 0
            let changed = previous == nil ? newest : max(newest, Date().timeIntervalSince1970)
            self.init(view, lastModified: Int64((changed * 1000).rounded(.down)))
            ViewLog.write("catalog derived: \(view.count) items in " + ViewLog.milliseconds(since: started))
        }
    }

    private init(_ view: LibrarySnapshot, reusing previous: Catalog, lineage: Lineage, lastModified: Int64) {
        self.view = view
        self.lastModified = lastModified
        let base = previous.slotBase
        slotBase = base
        var albums = previous.albums
        if lineage.changedAny(of: [base + Slot.track, base + Slot.disc]) {
            for album in Set(lineage.items.map { previous.albumOfItem[Int($0)] }) {
                albums[Int(album)].items = Self.songOrder(albums[Int(album)].items, view, base)
            }
        }
        self.albums = albums
        albumByID = previous.albumByID
        albumOfItem = previous.albumOfItem
        artists = previous.artists
        artistByID = previous.artistByID
        genres = previous.genres
        itemByID = previous.itemByID
        directoryByID = previous.directoryByID
        songSearchText = lineage.changedAny(of: [base + Slot.title, base + Slot.artist])
            ? previous.songSearchText.replacing(Dictionary(lineage.items.map { (Int($0), Self.searchText($0, view, base)) },
                                                           uniquingKeysWith: { a, _ in a }))
            : previous.songSearchText
        albumSearchText = previous.albumSearchText
        artistSearchText = previous.artistSearchText
        recommendations = previous.recommendations
        reused = true
    }

    /// An album's songs by disc, track, then path (items are numbered in path order).
    private static func songOrder(_ items: [Int32], _ view: LibrarySnapshot, _ base: Int) -> [Int32] {
        items.sorted {
            let (da, db) = (Int(view.value($0, slot: base + Slot.disc) ?? "") ?? 0, Int(view.value($1, slot: base + Slot.disc) ?? "") ?? 0)
            if da != db { return da < db }
            let (ta, tb) = (Int(view.value($0, slot: base + Slot.track) ?? "") ?? 0, Int(view.value($1, slot: base + Slot.track) ?? "") ?? 0)
            return ta != tb ? ta < tb : $0 < $1
        }
    }

    /// A song's title (else its file name), artist and album, folded.
    private static func searchText(_ item: Int32, _ view: LibrarySnapshot, _ base: Int) -> String {
        sortKey([view.value(item, slot: base + Slot.title) ?? view.paths[Int(item)].lastComponent.string,
                 view.value(item, slot: base + Slot.artist) ?? "", view.value(item, slot: base + Slot.album) ?? ""].joined(separator: "\u{1F}"))
    }

    private init(_ view: LibrarySnapshot, lastModified: Int64) {
        self.view = view
        self.lastModified = lastModified
        reused = false
        // SubsonicServer.init refuses a view without these slots.
        let base = view.schema.slotOffset(of: .subsonic) ?? 0
        slotBase = base
        var albumIndex: [String: Int] = [:]
        var albums: [Album] = []
        var albumOfItem = [Int32](repeating: 0, count: view.count)
        var itemByID: [Int64: Int32] = [:]
        itemByID.reserveCapacity(view.count)
        for item in 0..<Int32(view.count) {
            itemByID[view.ids[Int(item)]] = item
            let artist = view.value(item, slot: base + Slot.albumArtist) ?? Self.unknownArtist
            let name = view.value(item, slot: base + Slot.album) ?? Self.unknownAlbum
            let id = "al-" + Self.hash(artist + "\u{1F}" + name)
            let index: Int
            if let known = albumIndex[id] {
                index = known
            } else {
                index = albums.count
                albumIndex[id] = index
                albums.append(Album(id: id, name: name, artist: artist, artistID: "ar-" + Self.hash(artist), items: [],
                                    duration: 0, year: nil, genre: nil, created: Int64.max))
            }
            albums[index].items.append(item)
            albums[index].duration += view.durations[Int(item)]
            if albums[index].year == nil { albums[index].year = view.value(item, slot: base + Slot.year).flatMap { Int($0) } }
            if albums[index].genre == nil { albums[index].genre = view.value(item, slot: base + Slot.genre) }
            albums[index].created = min(albums[index].created, view.value(item, slot: base + Slot.added).flatMap { Int64($0) } ?? 0)
            albumOfItem[Int(item)] = Int32(index)
        }
        // Albums by name; each album's songs by disc, track, then path (items are numbered in path order).
        // Sort keys folded once (case and accents aside): Foundation's localized comparison costs microseconds
        // a call on Linux, too much for a sort of 100,000 names.
        let albumKeys = albums.map { Self.sortKey($0.name) }
        let order = albums.indices.sorted { (albumKeys[$0], albums[$0].id) < (albumKeys[$1], albums[$1].id) }
        var renumber = [Int](repeating: 0, count: albums.count)
        for (new, old) in order.enumerated() { renumber[old] = new }
        albums = order.map { albums[$0] }
        for i in albums.indices { albums[i].items = Self.songOrder(albums[i].items, view, base) }
        self.albumOfItem = albumOfItem.map { Int32(renumber[Int($0)]) }
        self.albums = albums
        albumByID = Dictionary(uniqueKeysWithValues: albums.enumerated().map { ($1.id, $0) })

        var artistIndex: [String: Int] = [:]
        var artists: [Artist] = []
        for (number, album) in albums.enumerated() {
            if let known = artistIndex[album.artistID] {
                artists[known].albums.append(number)
            } else {
                artistIndex[album.artistID] = artists.count
                artists.append(Artist(id: album.artistID, name: album.artist, albums: [number]))
            }
        }
        artists = artists.map { (Self.sortKey($0.name), $0) }.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }.map(\.1)
        for i in artists.indices {
            artists[i].albums.sort { (albums[$0].year ?? 0, $0) < (albums[$1].year ?? 0, $1) }
        }
        self.artists = artists
        artistByID = Dictionary(uniqueKeysWithValues: artists.enumerated().map { ($1.id, $0) })

        var genreItems: [String: [Int32]] = [:]
        for item in 0..<Int32(view.count) {
            let cell = view.cell(item, slot: base + Slot.genre)
            guard cell != 0 else { continue }
            for part in view.parts(cell, slot: base + Slot.genre) { genreItems[view.string(part, slot: base + Slot.genre), default: []].append(item) }
        }
        let albumOf = self.albumOfItem
        genres = genreItems.map { name, items in
            Genre(name: name, items: items, albumCount: Set(items.map { albumOf[Int($0)] }).count)
        }.sorted { (Self.sortKey($0.name), $0.name) < (Self.sortKey($1.name), $1.name) }
        self.itemByID = itemByID
        songSearchText = SearchTexts((0..<Int32(view.count)).lazy.map { Self.searchText($0, view, base) })
        albumSearchText = SearchTexts(albums.lazy.map { Self.sortKey($0.name + "\u{1F}" + $0.artist) })
        artistSearchText = SearchTexts(artists.lazy.map { Self.sortKey($0.name) })
        recommendations = Recommendations(snapshot: view, slots: .init(artist: base + Slot.albumArtist, genre: base + Slot.genre,
                                                                       year: base + Slot.year),
                                          itemNumber: { [itemByID] in itemByID[$0] })
        directoryByID = Dictionary(view.directories.indices.map { ("fo-" + Self.hash(view.directories[$0].path.bytes), Int32($0)) },
                                   uniquingKeysWith: { a, _ in a })
    }

    /// A name as lists order and searches match it: case and accents aside, folded as the CLI's and the
    /// MPD server's `[cd]` comparisons fold (`TextFolding`: "gudnadottir" is "Guðnadóttir").
    static func sortKey(_ name: String) -> String { TextFolding.folded(name) }

    // MARK: Ids

    static func hash(_ text: String) -> String { hash(Array(text.utf8)) }

    /// 64-bit FNV-1a, as 16 hex digits: stable across runs and machines (Swift's Hasher is seeded per process).
    static func hash(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    func folderID(_ directory: Int32) -> String { "fo-" + Self.hash(view.directories[Int(directory)].path.bytes) }

    /// The number of the artist (album artist) of album `number`.
    func artistOfAlbum(_ number: Int) -> Int { artistByID[albums[number].artistID] ?? 0 }

    func item(id text: String) -> Int32? { Int64(text).flatMap { itemByID[$0] } }

    /// An item's printed value in one of `Slot`'s slots.
    func value(_ item: Int32, _ slot: Int) -> String? { view.value(item, slot: slotBase + slot) }

    /// Per value number of `slot`, whether its folded text passes `test` (number 0, no value, is ""): each
    /// distinct value folded once, where a pass over the songs folded every song's (`getTopSongs` took
    /// 416 ms p95 at 100,000 songs). `item(_:_:in:)` reads it.
    func valueTable(_ slot: Int, _ test: (String) -> Bool) -> [Bool] {
        view.slotValues[slotBase + slot].map { test(Self.sortKey($0)) }
    }

    func item(_ item: Int32, _ slot: Int, in table: [Bool]) -> Bool { table[Int(view.cell(item, slot: slotBase + slot))] }

    func int(_ item: Int32, _ slot: Int) -> Int? { value(item, slot).flatMap { Int($0) } }
}
