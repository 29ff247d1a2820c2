import Foundation
import Library
import MediaIndex
import MediaModel

/// The elements every method shares: songs (`Child`), albums (`AlbumID3`), artists (`ArtistID3`).
extension Call {
    /// What the nodes need beyond the catalog: the user's values (the owner's: the view's; another user's:
    /// their own, `own`) and the user's stars.
    struct Marks {
        var stars: [UserStar.Kind: [String: Date]]
        /// A user who is not the owner: their values by item id (an item without any has none: 0 plays).
        var own: [Int64: SubsonicServer.UserData]? = nil

        func starred(_ kind: UserStar.Kind, _ key: String) -> String? { stars[kind]?[key].map(Call.iso) }

        /// The user's play count, rating and last played (seconds) of `item`.
        func values(_ item: Int32, _ catalog: Catalog) -> SubsonicServer.UserData {
            let id = catalog.view.ids[Int(item)]
            if let own { return own[id] ?? .init(playCount: 0, rating: nil, lastPlayed: nil) }
            return .init(playCount: catalog.int(item, Catalog.Slot.playCount) ?? 0, rating: catalog.int(item, Catalog.Slot.rating),
                         lastPlayed: catalog.int(item, Catalog.Slot.lastPlayed).map(Int64.init))
        }
    }

    /// The user's values and stars (read from the store the first time); `stars` false: without the stars.
    func marks(stars withStars: Bool = true) async throws -> Marks {
        let name = user.name
        let own = try await ownValues()
        let cached = server.state.withLock { $0.stars[name] }
        guard withStars else { return Marks(stars: [:], own: own) }
        if let stars = cached { return Marks(stars: stars, own: own) }
        let read = try await server.offLoop { [store = server.users.store] in try store.stars(of: name) }
        var stars: [UserStar.Kind: [String: Date]] = [:]
        for star in read { stars[star.kind, default: [:]][star.key] = star.starred }
        let copy = stars
        server.state.withLock { $0.stars[name] = copy }
        return Marks(stars: stars, own: own)
    }

    /// A user who is not the owner: their own values (read from the store the first time); nil for the owner.
    func ownValues() async throws -> [Int64: SubsonicServer.UserData]? {
        guard !user.isOwner else { return nil }
        let name = user.name
        if let cached = server.state.withLock({ $0.ownValues[name] }) { return cached }
        let read = try await server.offLoop { [store = server.library.store] in try store.userValues(of: name, ids: nil) }
        let values = read.mapValues { SubsonicServer.UserData(playCount: $0.playCount, rating: $0.rating,
                                                              lastPlayed: $0.lastPlayed.map { Int64($0.timeIntervalSince1970) }) }
        return server.state.withLock { state in
            if let cached = state.ownValues[name] { return cached }   // another request read them meanwhile
            state.ownValues[name] = values
            return values
        }
    }

    /// After this user's values of item `id` were written to the library: the owner's are the items', so
    /// the view is brought up to date (a patch of one item: issue 44) before the call returns, and the
    /// next answer shows the write; another user's kept values are changed as written.
    func changeValues(_ id: Int64, item: Int32, _ catalog: Catalog, _ change: (inout SubsonicServer.UserData) -> Void) async throws {
        guard !user.isOwner else {
            await server.view.refreshed()
            return
        }
        let marks = try await marks(stars: false)
        let name = user.name
        server.state.withLock { state in
            var data = state.ownValues[name]?[id] ?? marks.values(item, catalog)
            change(&data)
            state.ownValues[name, default: [:]][id] = data
        }
    }

    static func iso(_ date: Date) -> String { iso(seconds: Int64(date.timeIntervalSince1970.rounded(.down))) }

    /// "2024-05-01T10:30:00Z" (UTC, whole seconds): written from `gmtime_r`'s fields, since Foundation's
    /// ISO 8601 format style costs microseconds a call on Linux and a song carries one or two (a full
    /// `search3` sync formats one per song). Years outside 1600–9999 go through Foundation (whose calendar
    /// is Julian before 1582: gmtime's proleptic Gregorian year 0 is Foundation's 0000-01-03).
    static func iso(seconds: Int64) -> String {
        var time = time_t(seconds), fields = tm()
        guard gmtime_r(&time, &fields) != nil, (-300...8099).contains(fields.tm_year) else { return foundationISO(seconds) }
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int32, _ at: Int, _ digits: Int) {
            var value = value
            for i in stride(from: at + digits - 1, through: at, by: -1) { bytes[i] = UInt8(48 + value % 10); value /= 10 }
        }
        put(fields.tm_year + 1900, 0, 4); put(fields.tm_mon + 1, 5, 2); put(fields.tm_mday, 8, 2)
        put(fields.tm_hour, 11, 2); put(fields.tm_min, 14, 2); put(fields.tm_sec, 17, 2)
        bytes[4] = UInt8(ascii: "-"); bytes[7] = UInt8(ascii: "-"); bytes[10] = UInt8(ascii: "T")
        bytes[13] = UInt8(ascii: ":"); bytes[16] = UInt8(ascii: ":"); bytes[19] = UInt8(ascii: "Z")
        return String(decoding: bytes, as: UTF8.self)
    }

    static func foundationISO(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601.year().month().day().dateSeparator(.dash)
            .time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted))
            .replacingOccurrences(of: "+0000", with: "Z")
    }

    func songNode(_ item: Int32, _ catalog: Catalog, _ marks: Marks, name: String = "song") -> Node {
        let view = catalog.view
        typealias S = Catalog.Slot
        let id = view.ids[Int(item)]
        let path = view.paths[Int(item)]
        let album = catalog.albums[Int(catalog.albumOfItem[Int(item)])]
        var node = Node(name)
        node.set("id", String(id))
        if let directory = view.directory(path: path.directory) { node.set("parent", catalog.folderID(directory)) }
        node.set("isDir", false)
        node.set("title", catalog.value(item, S.title) ?? path.lastComponent.string)
        node.set("album", album.name)
        node.set("artist", catalog.value(item, S.artist) ?? Catalog.unknownArtist)
        node.set("track", catalog.int(item, S.track))
        node.set("year", catalog.int(item, S.year))
        node.set("genre", catalog.value(item, S.genre))
        node.set("coverArt", String(id))
        node.set("size", catalog.int(item, S.size))
        let suffix = path.fileExtension.lowercased()
        node.set("contentType", Self.contentType(suffix))
        node.set("suffix", suffix)
        node.set("duration", Int(view.durations[Int(item)].rounded()))
        node.set("bitRate", catalog.int(item, S.bitRate))
        node.set("bitDepth", catalog.int(item, S.bitDepth))
        node.set("samplingRate", catalog.int(item, S.sampleRate))
        node.set("channelCount", catalog.int(item, S.channels))
        node.set("path", Self.relative(path, roots: view.roots))
        let values = marks.values(item, catalog)
        node.set("playCount", values.playCount)
        if let rating = values.rating, rating > 0 { node.set("userRating", rating) }
        if let played = values.lastPlayed { node.set("played", Self.iso(seconds: played)) }
        node.set("discNumber", catalog.int(item, S.disc))
        node.set("created", Self.iso(seconds: catalog.int(item, S.added).map(Int64.init) ?? 0))
        node.set("starred", marks.starred(.song, String(id)))
        node.set("albumId", album.id)
        node.set("artistId", album.artistID)
        let video = catalog.value(item, S.video) != nil
        node.set("type", video ? "video" : "music")
        node.set("mediaType", "song")
        node.set("isVideo", video)
        // OpenSubsonic's lists beside the single strings (clients that know them show every genre).
        let artist = catalog.value(item, S.artist) ?? Catalog.unknownArtist
        node.set("displayArtist", artist)
        node.add(list: "artists", [Self.artistReference("artists", id: "ar-" + Catalog.hash(artist), name: artist)])
        node.set("displayAlbumArtist", album.artist)
        node.add(list: "albumArtists", [Self.artistReference("albumArtists", id: album.artistID, name: album.artist)])
        node.add(list: "genres", Self.genreList(catalog.value(item, S.genre)))
        return node
    }

    func albumNode(_ number: Int, _ catalog: Catalog, _ marks: Marks, name: String = "album", songs: Bool = false) -> Node {
        let album = catalog.albums[number]
        var node = Node(name)
        node.set("id", album.id)
        node.set("name", album.name)
        node.set("artist", album.artist)
        node.set("artistId", album.artistID)
        node.set("coverArt", album.id)
        node.set("songCount", album.items.count)
        node.set("duration", Int(album.duration.rounded()))
        node.set("playCount", albumPlays(album, catalog, marks))
        node.set("created", Self.iso(seconds: album.created == Int64.max ? 0 : album.created))
        node.set("starred", marks.starred(.album, album.id))
        node.set("year", album.year)
        node.set("genre", album.genre)
        node.set("displayArtist", album.artist)
        node.add(list: "artists", [Self.artistReference("artists", id: album.artistID, name: album.artist)])
        node.add(list: "genres", Self.genreList(album.genre))
        if songs { node.add(list: "song", album.items.map { songNode($0, catalog, marks) }) }
        return node
    }

    /// The plays of an album's songs, together.
    func albumPlays(_ album: Catalog.Album, _ catalog: Catalog, _ marks: Marks) -> Int {
        album.items.reduce(0) { total, item in total + marks.values(item, catalog).playCount }
    }

    func artistNode(_ number: Int, _ catalog: Catalog, _ marks: Marks, albums: Bool = false) -> Node {
        let artist = catalog.artists[number]
        var node = Node("artist")
        node.set("id", artist.id)
        node.set("name", artist.name)
        node.set("coverArt", artist.albums.first.map { catalog.albums[$0].id })
        node.set("albumCount", artist.albums.count)
        node.set("starred", marks.starred(.artist, artist.id))
        if albums { node.add(list: "album", artist.albums.map { albumNode($0, catalog, marks) }) }
        return node
    }

    /// An OpenSubsonic `ArtistID3` reference (`artists`, `albumArtists`): id and name; in XML one element
    /// per artist, named as the list.
    static func artistReference(_ element: String, id: String, name: String) -> Node {
        var node = Node(element)
        node.set("id", id)
        node.set("name", name)
        return node
    }

    /// OpenSubsonic's `genres`: one `{name}` per genre of a multi-valued tag (kept joined with "; ").
    static func genreList(_ genre: String?) -> [Node] {
        guard let genre else { return [] }
        return MediaProperty.splitValues(genre).filter { !$0.isEmpty }.map { name in
            var node = Node("genres")
            node.set("name", name)
            return node
        }
    }

    /// The path below its root (as Subsonic clients show it), or the whole path outside every root.
    static func relative(_ path: MediaPath, roots: [MediaPath]) -> String {
        for root in roots where path.hasPrefix(directory: root) {
            return String(decoding: path.bytes.dropFirst(root.bytes.count).drop { $0 == UInt8(ascii: "/") }, as: UTF8.self)
        }
        return path.string
    }

    static func contentType(_ suffix: String) -> String {
        switch suffix {
        case "mp3", "mp2": "audio/mpeg"
        case "flac": "audio/flac"
        case "ogg", "oga", "opus": "audio/ogg"
        case "m4a", "m4b", "mp4", "alac": "audio/mp4"
        case "aac": "audio/aac"
        case "wav": "audio/wav"
        case "aif", "aiff": "audio/aiff"
        case "wma": "audio/x-ms-wma"
        case "wv": "audio/x-wavpack"
        case "ape": "audio/x-ape"
        case "mpc": "audio/x-musepack"
        case "dsf", "dff": "audio/x-dsf"
        case "mka": "audio/x-matroska"
        case "mkv": "video/x-matroska"
        case "webm": "video/webm"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}
