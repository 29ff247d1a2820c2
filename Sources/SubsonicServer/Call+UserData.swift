import Foundation
import Library
import MediaIndex
import MediaModel

// What users change: plays, stars, ratings, playlists, their play queue; scans; the user itself.
extension Call {
    /// Each `id` played (`submission` true, the default) is one play of the user's in the listening history
    /// (front `subsonic`, time heard unknown) and the user's play count (the owner's: the item's), through `Library`;
    /// `submission=false` says what the client is playing now (`getNowPlaying`) and counts nothing.
    func scrobble() async throws -> [Node] {
        let catalog = server.catalog
        let ids = parameters.all("id")
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        let items = try ids.map { id in
            guard let item = catalog.item(id: id) else { throw SubsonicError.notFound("Song \(id)") }
            return item
        }
        let times = try parameters.dates(milliseconds: "time")
        guard try parameters.bool("submission", true) else {
            for item in items {
                server.nowPlaying.start(user: user.name, client: parameters["c"] ?? "", item: catalog.view.ids[Int(item)],
                                        duration: catalog.view.durations[Int(item)])
            }
            return []
        }
        let name = user.name
        for (n, item) in items.enumerated() {
            let id = catalog.view.ids[Int(item)]
            let date = times.indices.contains(n) ? times[n] : Date()
            try await server.offLoop { [library = server.library] in try library.recordPlay(id: id, at: date, front: .subsonic, user: name) }
            try await changeValues(id, item: item, catalog) { data in
                data.playCount += 1
                data.lastPlayed = Int64(date.timeIntervalSince1970)
            }
        }
        return []
    }

    /// `star`/`unstar`: songs by `id`, albums by `albumId`, artists by `artistId` (several of each allowed).
    func star(_ on: Bool) async throws -> [Node] {
        let catalog = server.catalog
        var marks: [(UserStar.Kind, String)] = []
        for id in parameters.all("id") {
            if catalog.item(id: id) != nil { marks.append((.song, id)) }
            else if catalog.albumByID[id] != nil { marks.append((.album, id)) }
            else if catalog.artistByID[id] != nil { marks.append((.artist, id)) }
            else { throw SubsonicError.notFound("Item \(id)") }
        }
        for id in parameters.all("albumId") {
            guard catalog.albumByID[id] != nil else { throw SubsonicError.notFound("Album \(id)") }
            marks.append((.album, id))
        }
        for id in parameters.all("artistId") {
            guard catalog.artistByID[id] != nil else { throw SubsonicError.notFound("Artist \(id)") }
            marks.append((.artist, id))
        }
        guard !marks.isEmpty else { throw SubsonicError.missing("id, albumId or artistId") }
        _ = try await self.marks()   // the user's stars are loaded before they are changed
        let name = user.name, now = Date(), list = marks
        try await server.offLoop { [store = server.users.store] in
            if on {
                try store.star(list.map { UserStar(kind: $0.0, key: $0.1, starred: now) }, for: name)
            } else {
                try store.unstar(list.map { (kind: $0.0, key: $0.1) }, for: name)
            }
        }
        server.state.withLock { state in
            for (kind, key) in list {
                if on {
                    if state.stars[name]?[kind]?[key] == nil { state.stars[name, default: [:]][kind, default: [:]][key] = now }
                } else {
                    state.stars[name]?[kind]?[key] = nil
                }
            }
        }
        return []
    }

    func starred2() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var node = Node("starred2")
        node.add(list: "artist", starredKeys(.artist, marks).compactMap { catalog.artistByID[$0] }.map { artistNode($0, catalog, marks) })
        node.add(list: "album", starredKeys(.album, marks).compactMap { catalog.albumByID[$0] }.map { albumNode($0, catalog, marks) })
        node.add(list: "song", starredKeys(.song, marks).compactMap { catalog.item(id: $0) }.map { songNode($0, catalog, marks) })
        return node
    }

    /// A song's rating, 1–5; 0 clears it: the user's own (the owner's is the item's, as `mlib set rating` writes).
    func setRating() async throws -> [Node] {
        let catalog = server.catalog
        let id = try parameters.required("id")
        guard parameters["rating"] != nil else { throw SubsonicError.missing("rating") }
        let rating = try parameters.int("rating", 0, in: 0...5)
        guard let item = catalog.item(id: id) else { throw SubsonicError.notFound("Song \(id)") }
        let itemID = catalog.view.ids[Int(item)]
        let name = user.name
        try await server.offLoop { [library = server.library] in try library.setRating(id: itemID, rating == 0 ? nil : rating, user: name) }
        try await changeValues(itemID, item: item, catalog) { $0.rating = rating == 0 ? nil : rating }
        return []
    }

    // MARK: Playlists
    //
    // Rights as Navidrome's (`StoredPlaylist.isVisible(to:admin:)`, `isChangeable(by:admin:)`): a user sees
    // their own playlists and the public ones, an admin every one; another user's private playlist answers
    // error 70 as an id never made (its existence is not told); a visible playlist the user may not change
    // answers error 50. The library's own playlists (no owner) are public and only admins change them.

    /// A stored playlist's node; its entries by `Library`'s one evaluator (a smart playlist is evaluated now,
    /// on this user's values).
    private func playlistNode(_ playlist: StoredPlaylist, _ catalog: Catalog, _ marks: Marks, entries: Bool) async throws -> Node {
        // A smart playlist's rule reads this user's ratings and plays.
        let name = user.name
        let items = try await server.offLoop { [library = server.library] in try library.items(of: playlist, for: name).map(\.id) }
        let members = items.compactMap { catalog.itemByID[$0] }
        var node = Node("playlist")
        node.set("id", String(playlist.id))
        node.set("name", playlist.name)
        if let rule = playlist.smart { node.set("comment", "smart playlist: \(rule.predicate)") }
        // The library's own playlists have no owner to name.
        if let owner = playlist.owner { node.set("owner", owner) }
        node.set("public", playlist.isPublic)
        node.set("songCount", members.count)
        node.set("duration", Int(members.reduce(0) { $0 + catalog.view.durations[Int($1)] }.rounded()))
        node.set("created", Self.iso(playlist.created))
        node.set("changed", Self.iso(playlist.modified))
        node.set("readonly", !(playlist.hasEditableEntries && playlist.isChangeable(by: user.name, admin: user.isAdmin)))
        if entries { node.add(list: "entry", members.map { songNode($0, catalog, marks, name: "entry") }) }
        return node
    }

    /// The playlists this user sees, by name.
    func visiblePlaylists() async throws -> [StoredPlaylist] {
        let (name, admin) = (user.name, user.isAdmin)
        return try await server.offLoop { [store = server.library.store] in
            try store.playlists().filter { $0.isVisible(to: name, admin: admin) }
        }
    }

    /// The playlist `id` if this user sees it; error 70 otherwise, the same as for an id never made.
    func storedPlaylist(_ id: String) async throws -> StoredPlaylist {
        guard let playlist = try await visiblePlaylists().first(where: { String($0.id) == id }) else {
            throw SubsonicError.notFound("Playlist \(id)")
        }
        return playlist
    }

    /// The playlist `id` if this user may change it (its owner, or an admin): error 70 when they do not see
    /// it, 50 when they see it read-only; with `entries`, 50 too for a smart playlist or a file's mirror.
    private func changeablePlaylist(_ id: String, entries: Bool) async throws -> StoredPlaylist {
        let playlist = try await storedPlaylist(id)
        guard playlist.isChangeable(by: user.name, admin: user.isAdmin) else {
            throw SubsonicError.notAuthorized("changing another user's playlist")
        }
        if entries && !playlist.hasEditableEntries { throw SubsonicError.notAuthorized("editing a read-only playlist") }
        return playlist
    }

    /// Names are unique in the library (the CLI and MPD name playlists): a name in use, whoever's, is
    /// refused with error 0, which says that the name is taken, not whose nor what it holds.
    private func freeName<T: Sendable>(_ name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        do { return try await server.offLoop(work) } catch IndexError.playlistExists(_, _) {
            throw SubsonicError.generic("A playlist named \"\(name)\" exists already; choose another name")
        }
    }

    func playlists() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        var nodes: [Node] = []
        for playlist in try await visiblePlaylists() { nodes.append(try await playlistNode(playlist, catalog, marks, entries: false)) }
        var node = Node("playlists")
        node.add(list: "playlist", nodes)
        return node
    }

    func playlist() async throws -> Node {
        let playlist = try await storedPlaylist(try parameters.required("id"))
        return try await playlistNode(playlist, server.catalog, try await marks(), entries: true)
    }

    private func songIDs(_ name: String, _ catalog: Catalog) throws -> [Int64] {
        try parameters.all(name).map { id in
            guard let item = catalog.item(id: id) else { throw SubsonicError.notFound("Song \(id)") }
            return catalog.view.ids[Int(item)]
        }
    }

    /// `name` makes a playlist of this user's, private; `playlistId` replaces the entries of one they may
    /// change. Either way with `songId`s.
    func createPlaylist() async throws -> [Node] {
        let catalog = server.catalog
        let ids = try songIDs("songId", catalog)
        let store = server.library.store
        let playlist: StoredPlaylist
        if let existing = parameters["playlistId"] {
            let old = try await changeablePlaylist(existing, entries: true)
            try await server.offLoop { try store.setPlaylistEntries(name: old.name, itemIDs: ids) }
            playlist = old
        } else {
            let name = try parameters.required("name"), owner = user.name
            playlist = try await freeName(name) {
                let made = try store.createPlaylist(name: name, smart: nil, owner: owner, isPublic: false)
                if !ids.isEmpty { try store.appendToPlaylist(name: name, itemIDs: ids) }
                return made
            }
        }
        let fresh = try await storedPlaylist(String(playlist.id))
        return [try await playlistNode(fresh, catalog, try await marks(), entries: true)]
    }

    /// Renames (`name`), removes entries by position (`songIndexToRemove`), appends songs (`songIdToAdd`) and
    /// makes it public or private (`public`), in one call; the parameters and rights are checked first.
    func updatePlaylist() async throws -> [Node] {
        let catalog = server.catalog
        let add = try songIDs("songIdToAdd", catalog)
        let remove = try parameters.all("songIndexToRemove").map { try Parameters.int("songIndexToRemove", $0, in: 0...Int(Int32.max)) }
        let newName = parameters["name"]
        let visibility = try parameters["public"].map { _ in try parameters.bool("public", false) }
        let old = try await changeablePlaylist(try parameters.required("playlistId"), entries: !add.isEmpty || !remove.isEmpty)
        // The rename first: a name in use refuses the call before anything else changed.
        try await freeName(newName ?? old.name) { [store = server.library.store] in
            var name = old.name
            if let newName, newName != name { try store.renamePlaylist(name, to: newName); name = newName }
            if !remove.isEmpty { try store.removeFromPlaylist(name: name, positions: remove) }
            if !add.isEmpty { try store.appendToPlaylist(name: name, itemIDs: add) }
            if let visibility, visibility != old.isPublic { try store.setPlaylistPublic(name: name, visibility) }
        }
        return []
    }

    func deletePlaylist() async throws -> [Node] {
        let old = try await changeablePlaylist(try parameters.required("id"), entries: false)
        try await server.offLoop { [store = server.library.store] in try store.deletePlaylist(name: old.name) }
        return []
    }

    // MARK: Scans, users, play queues
    //
    // One saved queue per user (`SavedPlayQueue`), written and read by id (`savePlayQueue`) or by index
    // (`savePlayQueueByIndex`, OpenSubsonic's `indexBasedQueue`): a client of either kind resumes the other's.

    /// Starts `Library.scan` of every root (one at a time; a second call while one runs only reports it).
    /// Admins only, as in Navidrome: a scan is the whole machine's disk and CPU.
    func startScan() throws -> Node {
        guard user.isAdmin else { throw SubsonicError.notAuthorized("scans (admins only)") }
        server.startScan()
        return scanStatus()
    }

    /// Error 0 with the reason while the library cannot be read (its database restarting or cut off): a
    /// client's ping says so instead of answering from a view that has stopped moving.
    func libraryReachable() throws {
        if let error = server.view.lastError { throw SubsonicError.generic("the library cannot be read: \(error)") }
    }

    /// Scanning while a scan runs, and while the library still loads (no catalog yet: the count is 0).
    func scanStatus() -> Node {
        let (scanning, count, loaded) = server.state.withLock { ($0.scanning, $0.scanCount, $0.catalog != nil) }
        guard loaded else {
            var node = Node("scanStatus")
            node.set("scanning", true)
            node.set("count", 0)
            return node
        }
        var node = Node("scanStatus")
        node.set("scanning", scanning)
        node.set("count", scanning ? count : server.view.snapshot.count)
        return node
    }

    func playQueue() async throws -> [Node] {
        let catalog = server.catalog
        let marks = try await marks()
        let name = user.name
        guard let queue = try await server.offLoop({ [store = server.users.store] in try store.playQueue(of: name) }) else { return [] }
        var node = Node("playQueue")
        node.set("current", queue.current.map { String($0) })
        node.set("position", queue.position)
        node.set("username", name)
        node.set("changed", Self.iso(queue.changed))
        node.set("changedBy", queue.changedBy)
        node.add(list: "entry", queue.itemIDs.compactMap { catalog.itemByID[$0] }.map { songNode($0, catalog, marks, name: "entry") })
        return [node]
    }

    /// `getPlayQueueByIndex` (OpenSubsonic's `indexBasedQueue`): the queue `savePlayQueue` or
    /// `savePlayQueueByIndex` saved (one per user, shared by both), the current entry by its index. Entries
    /// no longer in the library are left out and the index counts the others; when the current one is gone,
    /// the entry that followed it is current, from its start.
    func playQueueByIndex() async throws -> [Node] {
        let catalog = server.catalog
        let marks = try await marks()
        let name = user.name
        guard let queue = try await server.offLoop({ [store = server.users.store] in try store.playQueue(of: name) }) else { return [] }
        let stored = queue.resolvedCurrentIndex
        var entries: [Int32] = [], current: Int?, before = 0
        for (n, id) in queue.itemIDs.enumerated() {
            guard let item = catalog.itemByID[id] else { continue }
            if n == stored { current = entries.count }
            if let stored, n < stored { before += 1 }
            entries.append(item)
        }
        var position = queue.position
        if current == nil, !entries.isEmpty {
            current = min(before, entries.count - 1)
            position = 0
        }
        var node = Node("playQueueByIndex")
        node.set("currentIndex", current)
        node.set("position", position)
        node.set("username", name)
        node.set("changed", Self.iso(queue.changed))
        node.set("changedBy", queue.changedBy)
        node.add(list: "entry", entries.map { songNode($0, catalog, marks, name: "entry") })
        return [node]
    }

    /// `savePlayQueueByIndex`: the songs (`id`, in order, repeats allowed), the current one by its 0-based
    /// `currentIndex` (required with songs; outside the queue, or given with none, is error 10 as the spec
    /// asks), the position in it; no songs clears the queue. The same queue `getPlayQueue` answers.
    func savePlayQueueByIndex() async throws -> [Node] {
        let catalog = server.catalog
        let ids = try songIDs("id", catalog)
        var index: Int?
        if let text = parameters["currentIndex"] {
            guard let n = Int(text.trimmingCharacters(in: .whitespaces)), ids.indices.contains(n) else {
                throw SubsonicError(10, "currentIndex \(text) is not an index of the \(ids.count) songs given")
            }
            index = n
        } else if !ids.isEmpty {
            throw SubsonicError.missing("currentIndex")
        }
        let queue = SavedPlayQueue(itemIDs: ids, current: index.map { ids[$0] }, currentIndex: index,
                                   position: Int64(try parameters.int("position", 0, in: 0...Int(StoredBounds.durations.upperBound) * 1000)),
                                   changed: Date(), changedBy: parameters["c"] ?? "")
        let name = user.name
        try await server.offLoop { [store = server.users.store] in try store.savePlayQueue(queue, for: name) }
        return []
    }

    func savePlayQueue() async throws -> [Node] {
        let catalog = server.catalog
        let ids = try songIDs("id", catalog)
        let current = try parameters["current"].map { text -> Int64 in
            guard let item = catalog.item(id: text) else { throw SubsonicError.notFound("Song \(text)") }
            return catalog.view.ids[Int(item)]
        }
        let queue = SavedPlayQueue(itemIDs: ids, current: current, position: Int64(try parameters.int("position", 0, in: 0...Int(StoredBounds.durations.upperBound) * 1000)),
                                   changed: Date(), changedBy: parameters["c"] ?? "")
        let name = user.name
        try await server.offLoop { [store = server.users.store] in try store.savePlayQueue(queue, for: name) }
        return []
    }
}
