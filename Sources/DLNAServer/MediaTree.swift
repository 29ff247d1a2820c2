import Foundation
import Library
import MediaModel
import Synchronization

/// The ContentDirectory's tree over one view snapshot, derived once per snapshot on the view's queue:
/// albums (by album artist and album title), artists, album artists, genres, years, the newest items,
/// videos, and the folders by their paths' hashes. `ObjectID` names its nodes; `children`/`entry` resolve them.
final class MediaTree: Sendable {
    enum Slot {
        static let title = 0, artist = 1, albumArtist = 2, album = 3, genre = 4, date = 5, track = 6, disc = 7
        static let size = 8, bitRate = 9, sampleRate = 10, channels = 11, bitDepth = 12, resolution = 13
        static let added = 14, video = 15, container = 16, audioCodec = 17, videoCodec = 18, art = 19, fileExtension = 20
    }

    struct Group: Sendable {
        var key: String
        var title: String
        var items: [Int32]
    }

    /// How many items "Recently Added" lists (minidlna's is 50 too).
    static let recentCount = 50
    static let unknownArtist = "[Unknown Artist]"
    static let unknownAlbum = "[Unknown Album]"

    let view: LibrarySnapshot
    let base: Int
    /// The snapshot's number, for `UpdateID` and `SystemUpdateID`.
    let updateID: UInt32
    let albums: [Group]
    let albumByKey: [String: Int]
    /// Artist key → its albums' keys (by title), and (artist key, album key) → its items there.
    let artists: [Group]
    let artistByKey: [String: Int]
    let artistAlbums: [String: [String]]
    let artistAlbumItems: [String: [Int32]]
    let albumArtists: [Group]
    let albumArtistByKey: [String: Int]
    let albumArtistAlbums: [String: [String]]
    let genres: [Group]
    let genreByKey: [String: Int]
    let years: [Group]
    let yearByKey: [String: Int]
    let audio: [Int32]
    let videos: [Int32]
    let recentAudio: [Int32]
    let recentVideos: [Int32]
    let itemByID: [Int64: Int32]
    let directoryByKey: [String: Int32]
    /// Each directory's parent in the tree (-1 for a root).
    let parentDirectory: [Int32]
    /// Whether a folder has a cover file, looked up once per folder and tree (the tree is new after a scan).
    private let folderCovers = Mutex<[MediaPath: Bool]>([:])
    /// Audio items' DIDL-Lite bodies as written for this tree (`DIDLWriter`).
    let itemBodies: ItemBodies
    /// Prefix sums of the video flag over path order: videos under a directory are a difference.
    let videoPrefix: [Int32]

    init(_ view: LibrarySnapshot, base: Int, updateID: UInt32) {
        self.view = view
        self.base = base
        self.updateID = updateID
        itemBodies = ItemBodies(items: view.count)
        func value(_ item: Int32, _ slot: Int) -> String? { view.value(item, slot: base + slot) }
        var itemByID: [Int64: Int32] = [:]
        itemByID.reserveCapacity(view.count)
        var albums: [Group] = [], albumByKey: [String: Int] = [:]
        var artists: [Group] = [], artistByKey: [String: Int] = [:]
        var albumArtists: [Group] = [], albumArtistByKey: [String: Int] = [:]
        var genres: [Group] = [], genreByKey: [String: Int] = [:]
        var years: [Group] = [], yearByKey: [String: Int] = [:]
        var artistAlbums: [String: Set<String>] = [:], albumArtistAlbums: [String: Set<String>] = [:]
        var artistAlbumItems: [String: [Int32]] = [:]
        var audio: [Int32] = [], videos: [Int32] = []
        var videoPrefix = [Int32](repeating: 0, count: view.count + 1)
        func add(_ item: Int32, key: String, title: String, to groups: inout [Group], _ index: inout [String: Int]) {
            if let i = index[key] { groups[i].items.append(item) } else {
                index[key] = groups.count
                groups.append(Group(key: key, title: title, items: [item]))
            }
        }
        for item in 0..<Int32(view.count) {
            itemByID[view.ids[Int(item)]] = item
            let isVideo = value(item, Slot.video) != nil
            videoPrefix[Int(item) + 1] = videoPrefix[Int(item)] + (isVideo ? 1 : 0)
            if isVideo { videos.append(item); continue }
            audio.append(item)
            let artist = value(item, Slot.artist) ?? Self.unknownArtist
            let albumArtist = value(item, Slot.albumArtist) ?? Self.unknownArtist
            let album = value(item, Slot.album) ?? Self.unknownAlbum
            let albumKey = ObjectID.hash(albumArtist + "\u{1F}" + album)
            add(item, key: albumKey, title: album, to: &albums, &albumByKey)
            let artistKey = ObjectID.hash(artist)
            add(item, key: artistKey, title: artist, to: &artists, &artistByKey)
            artistAlbums[artistKey, default: []].insert(albumKey)
            artistAlbumItems[artistKey + "$" + albumKey, default: []].append(item)
            let albumArtistKey = ObjectID.hash(albumArtist)
            add(item, key: albumArtistKey, title: albumArtist, to: &albumArtists, &albumArtistByKey)
            albumArtistAlbums[albumArtistKey, default: []].insert(albumKey)
            let genreCell = view.cell(item, slot: base + Slot.genre)
            if genreCell != 0 {
                for part in view.parts(genreCell, slot: base + Slot.genre) {
                    let name = view.string(part, slot: base + Slot.genre)
                    add(item, key: ObjectID.hash(name), title: name, to: &genres, &genreByKey)
                }
            }
            if let date = value(item, Slot.date) {
                let year = String(date.prefix(4))
                add(item, key: year, title: year, to: &years, &yearByKey)
            }
        }
        // Albums' tracks by disc, track, path; everything else by title (case-insensitively).
        func number(_ item: Int32, _ slot: Int) -> Int { value(item, slot).flatMap { Int($0) } ?? Int.max }
        let byDiscAndTrack: (Int32, Int32) -> Bool = { a, b in
            let x = (number(a, Slot.disc), number(a, Slot.track)), y = (number(b, Slot.disc), number(b, Slot.track))
            return x != y ? x < y : a < b
        }
        for i in albums.indices { albums[i].items.sort(by: byDiscAndTrack) }
        for key in artistAlbumItems.keys { artistAlbumItems[key]!.sort(by: byDiscAndTrack) }
        func sortedByTitle(_ groups: inout [Group], _ index: inout [String: Int]) {
            groups.sort { $0.title.localizedCaseInsensitiveCompare($1.title) == .orderedAscending }
            index = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1.key, $0) })
        }
        sortedByTitle(&albums, &albumByKey)
        sortedByTitle(&artists, &artistByKey)
        sortedByTitle(&albumArtists, &albumArtistByKey)
        sortedByTitle(&genres, &genreByKey)
        years.sort { $0.key < $1.key }
        yearByKey = Dictionary(uniqueKeysWithValues: years.enumerated().map { ($1.key, $0) })
        let albumOrder = albumByKey
        self.artistAlbums = artistAlbums.mapValues { $0.sorted { albumOrder[$0]! < albumOrder[$1]! } }
        self.albumArtistAlbums = albumArtistAlbums.mapValues { $0.sorted { albumOrder[$0]! < albumOrder[$1]! } }
        func newest(_ items: [Int32]) -> [Int32] {
            let added = items.map { (item: $0, at: value($0, Slot.added).flatMap { Int64($0) } ?? 0) }
            return added.sorted { $0.at != $1.at ? $0.at > $1.at : $0.item < $1.item }.prefix(Self.recentCount).map(\.item)
        }
        recentAudio = newest(audio)
        recentVideos = newest(videos)
        self.albums = albums; self.albumByKey = albumByKey
        self.artists = artists; self.artistByKey = artistByKey
        self.albumArtists = albumArtists; self.albumArtistByKey = albumArtistByKey
        self.genres = genres; self.genreByKey = genreByKey
        self.years = years; self.yearByKey = yearByKey
        self.artistAlbumItems = artistAlbumItems
        self.audio = audio
        self.videos = videos
        self.itemByID = itemByID
        self.videoPrefix = videoPrefix
        var directoryByKey: [String: Int32] = [:]
        for d in view.directories.indices { directoryByKey[ObjectID.hash(view.directories[d].path.string)] = Int32(d) }
        self.directoryByKey = directoryByKey
        var parents = [Int32](repeating: -1, count: view.directories.count)
        for d in view.directories.indices { for child in view.directories[d].children { parents[Int(child)] = Int32(d) } }
        parentDirectory = parents
    }

    func value(_ item: Int32, _ slot: Int) -> String? { view.value(item, slot: base + slot) }

    /// Whether an item has art to offer: an embedded picture, or its folder's cover (`CoverLookup`, as the
    /// API's getCoverArt finds them).
    /// Without `covers`, only what is known without reading the disk: `NeedsDisk` when the folder's cover
    /// was not looked up yet.
    func hasArt(_ item: Int32, covers: CoverLookup?) throws(NeedsDisk) -> Bool {
        if value(item, Slot.art) != nil { return true }
        let folder = view.paths[Int(item)].directory
        if let known = folderCovers.withLock({ $0[folder] }) { return known }
        guard let covers else { throw NeedsDisk() }
        let found = covers.hasFolderCover(in: folder, roots: view.roots)
        folderCovers.withLock { $0[folder] = found }
        return found
    }

    /// An item's title: its tag, else its file name without the extension.
    func title(_ item: Int32) -> String {
        if let title = value(item, Slot.title), !title.isEmpty { return title }
        let name = view.paths[Int(item)].lastComponent.string
        return name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    func videoCount(under directory: Int32) -> Int {
        let range = view.directories[Int(directory)].subtree
        return Int(videoPrefix[Int(range.upperBound)] - videoPrefix[Int(range.lowerBound)])
    }

    func directoryKey(_ directory: Int32) -> String { ObjectID.hash(view.directories[Int(directory)].path.string) }

    /// A folder's name: its last component, or a root's whole path.
    func directoryTitle(_ directory: Int32) -> String {
        let node = view.directories[Int(directory)]
        return node.name.isEmpty ? node.path.string : node.name
    }
}
