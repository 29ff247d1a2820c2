import Foundation
import Library
import MediaIndex
import MediaModel

/// One object of the ContentDirectory: a container (with its child count) or an item listed in a container.
enum TreeObject: Sendable {
    case container(Container)
    /// An item of the view (`item`) listed in container `parentID`: its id is `parentID$i<persistentID>`
    /// (`ObjectID.item`), made only when asked for: a page writes it straight from its parts.
    case item(parentID: String, persistentID: Int64, item: Int32)

    struct Container: Sendable {
        var id: String
        var parentID: String
        var title: String
        var upnpClass: String
        var childCount: Int
        /// An item whose art stands for the container (an album's first track).
        var artItem: Int32? = nil
        var artist: String? = nil
    }

    var id: String {
        switch self {
        case .container(let c): c.id
        case .item(let parentID, let persistentID, _): ObjectID.item(in: parentID, id: persistentID)
        }
    }
}

/// Resolves object ids against a `MediaTree` (and the library's playlists, read when asked for).
struct TreeNodes {
    let tree: MediaTree
    let playlists: () throws -> [StoredPlaylist]
    let playlistItems: (StoredPlaylist) throws -> [Int64]

    static let folder = "object.container.storageFolder"

    private func container(_ id: String, _ parent: String, _ title: String, _ count: Int, _ upnpClass: String = folder) -> TreeObject {
        .container(.init(id: id, parentID: parent, title: title, upnpClass: upnpClass, childCount: count))
    }

    /// The object `id` names, or nil (UPnP error 701).
    func object(_ id: String) throws -> TreeObject? {
        if let (containerID, itemID) = ObjectID.item(id) {
            // Only the item's own spelling of its id (`i42`, not `i042`), and only where it is listed.
            guard let item = tree.itemByID[itemID], id == ObjectID.item(in: containerID, id: itemID),
                  try children(of: containerID)?.lists(item: item) == true else { return nil }
            return .item(parentID: containerID, persistentID: itemID, item: item)
        }
        if id == ObjectID.root { return container("0", "-1", "root", 3) }
        // Folders are flat by key under `3` and `2$folders`: their parent is the folder above on disk.
        let parts = ObjectID.parts(id, omittingEmpty: true)
        if parts.count == 2, parts[0] == ObjectID.folders, let d = tree.directoryByKey[parts[1]] {
            let parent = tree.parentDirectory[Int(d)]
            return folder(d, parent: parent < 0 ? ObjectID.folders : ObjectID.child(ObjectID.folders, tree.directoryKey(parent)))
        }
        if parts.count == 3, parts[0] == ObjectID.video, parts[1] == "folders", let d = tree.directoryByKey[parts[2]], tree.videoCount(under: d) > 0 {
            let parent = tree.parentDirectory[Int(d)]
            return videoFolder(d, in: parent < 0 ? "2$folders" : ObjectID.child("2$folders", tree.directoryKey(parent)))
        }
        guard let dollar = id.lastIndex(of: "$") else {
            return try children(of: ObjectID.root)?.all.first { $0.id == id }
        }
        return try children(of: String(id[..<dollar]))?.all.first { $0.id == id }
    }

    /// The children of container `id` in their default order (made as a page needs them), or nil when
    /// `id` is no container.
    func children(of id: String) throws -> TreeChildren? {
        let parts = ObjectID.parts(id)
        switch parts.first {
        case ObjectID.root? where parts.count == 1:
            return TreeChildren([container(ObjectID.music, id, "Music", 8), container(ObjectID.video, id, "Video", 3),
                                 container(ObjectID.folders, id, "Folders", tree.view.rootDirectories.count)])
        case ObjectID.music?: return try music(parts, id)
        case ObjectID.video?: return video(parts, id)
        case ObjectID.folders?: return folders(parts, id)
        default: return nil
        }
    }

    private func items(_ items: [Int32], in id: String) -> TreeChildren.Segment {
        .items(items, container: id, ids: tree.view.ids)
    }

    /// `groups`' containers, made as a page needs them.
    private func groups<T>(_ groups: [T], _ make: @escaping (T) -> TreeObject) -> TreeChildren {
        TreeChildren([.made(count: groups.count) { make(groups[$0]) }])
    }

    private func albumContainer(_ key: String, in parent: String, items: [Int32]? = nil) -> TreeObject? {
        guard let index = tree.albumByKey[key] else { return nil }
        let album = tree.albums[index]
        let listed = items ?? album.items
        return .container(.init(id: ObjectID.child(parent, key), parentID: parent, title: album.title,
                                upnpClass: "object.container.album.musicAlbum", childCount: listed.count, artItem: listed.first,
                                artist: listed.first.flatMap { tree.value($0, MediaTree.Slot.albumArtist) }))
    }

    private func music(_ parts: [String], _ id: String) throws -> TreeChildren? {
        if parts.count == 1 {
            let playlists = try self.playlists()
            return TreeChildren([container(id + "$artists", id, "Artists", tree.artists.count),
                    container(id + "$albumartists", id, "Album Artists", tree.albumArtists.count),
                    container(id + "$albums", id, "Albums", tree.albums.count),
                    container(id + "$genres", id, "Genres", tree.genres.count),
                    container(id + "$years", id, "Years", tree.years.count),
                    container(id + "$all", id, "All Tracks", tree.audio.count),
                    container(id + "$recent", id, "Recently Added", tree.recentAudio.count),
                    container(id + "$playlists", id, "Playlists", playlists.count)])
        }
        let kind = parts[1]
        let tree = self.tree
        switch (kind, parts.count) {
        case ("all", 2): return TreeChildren([items(tree.audio, in: id)])
        case ("recent", 2): return TreeChildren([items(tree.recentAudio, in: id)])
        case ("artists", 2):
            return groups(tree.artists) { container(ObjectID.child(id, $0.key), id, $0.title, tree.artistAlbums[$0.key]?.count ?? 0, "object.container.person.musicArtist") }
        case ("artists", 3):
            guard let albums = tree.artistAlbums[parts[2]] else { return nil }
            return TreeChildren(albums.compactMap { albumContainer($0, in: id, items: tree.artistAlbumItems[parts[2] + "$" + $0]) })
        case ("artists", 4):
            guard let listed = tree.artistAlbumItems[parts[2] + "$" + parts[3]] else { return nil }
            return TreeChildren([items(listed, in: id)])
        case ("albumartists", 2):
            return groups(tree.albumArtists) { container(ObjectID.child(id, $0.key), id, $0.title, tree.albumArtistAlbums[$0.key]?.count ?? 0, "object.container.person.musicArtist") }
        case ("albumartists", 3):
            guard let albums = tree.albumArtistAlbums[parts[2]] else { return nil }
            return TreeChildren(albums.compactMap { albumContainer($0, in: id) })
        case ("albumartists", 4), ("albums", 3):
            guard tree.albumArtistAlbums[parts[2]]?.contains(parts[parts.count - 1]) ?? (kind == "albums"),
                  let index = tree.albumByKey[parts[parts.count - 1]] else { return nil }
            return TreeChildren([items(tree.albums[index].items, in: id)])
        case ("albums", 2): return groups(tree.albums) { albumContainer($0.key, in: id)! }
        case ("genres", 2):
            return groups(tree.genres) { container(ObjectID.child(id, $0.key), id, $0.title, $0.items.count, "object.container.genre.musicGenre") }
        case ("genres", 3):
            guard let index = tree.genreByKey[parts[2]] else { return nil }
            return TreeChildren([items(tree.genres[index].items, in: id)])
        case ("years", 2): return groups(tree.years) { container(ObjectID.child(id, $0.key), id, $0.title, $0.items.count) }
        case ("years", 3):
            guard let index = tree.yearByKey[parts[2]] else { return nil }
            return TreeChildren([items(tree.years[index].items, in: id)])
        case ("playlists", 2):
            return TreeChildren(try playlists().map { container(ObjectID.child(id, String($0.id)), id, $0.name, try entries($0).count, "object.container.playlistContainer") })
        case ("playlists", 3):
            guard let playlist = try playlists().first(where: { String($0.id) == parts[2] }) else { return nil }
            return TreeChildren([items(try entries(playlist), in: id)])
        default: return nil
        }
    }

    /// A playlist's items in the view, each once: an entry listed twice would be two objects with one id
    /// (object ids must be unique), and an item of another host is not served here.
    private func entries(_ playlist: StoredPlaylist) throws -> [Int32] {
        var seen = Set<Int64>()
        return try playlistItems(playlist).filter { seen.insert($0).inserted }.compactMap { tree.itemByID[$0] }
    }

    private func video(_ parts: [String], _ id: String) -> TreeChildren? {
        if parts.count == 1 {
            return TreeChildren([container(id + "$all", id, "All Videos", tree.videos.count),
                                 container(id + "$folders", id, "Folders", videoDirectories(tree.view.rootDirectories).count),
                                 container(id + "$recent", id, "Recently Added", tree.recentVideos.count)])
        }
        switch (parts[1], parts.count) {
        case ("all", 2): return TreeChildren([items(tree.videos, in: id)])
        case ("recent", 2): return TreeChildren([items(tree.recentVideos, in: id)])
        case ("folders", 2): return TreeChildren(videoDirectories(tree.view.rootDirectories).map { videoFolder($0, in: id) })
        case ("folders", 3):
            guard let d = tree.directoryByKey[parts[2]], tree.videoCount(under: d) > 0 else { return nil }
            let node = tree.view.directories[Int(d)]
            return TreeChildren([.objects(videoDirectories(node.children).map { videoFolder($0, in: id) }),
                                 items(node.items.filter { tree.value($0, MediaTree.Slot.video) != nil }, in: id)])
        default: return nil
        }
    }

    private func videoDirectories(_ directories: [Int32]) -> [Int32] { directories.filter { tree.videoCount(under: $0) > 0 } }

    /// Video folders are all children of `2$folders` by key (a folder's id does not grow with its depth).
    private func videoFolder(_ d: Int32, in parent: String) -> TreeObject {
        let node = tree.view.directories[Int(d)]
        let count = videoDirectories(node.children).count + node.items.filter { tree.value($0, MediaTree.Slot.video) != nil }.count
        return container(ObjectID.child("2$folders", tree.directoryKey(d)), parent, tree.directoryTitle(d), count)
    }

    private func folder(_ d: Int32, parent: String) -> TreeObject {
        let node = tree.view.directories[Int(d)]
        return container(ObjectID.child(ObjectID.folders, tree.directoryKey(d)), parent, tree.directoryTitle(d), node.children.count + node.items.count)
    }

    private func folders(_ parts: [String], _ id: String) -> TreeChildren? {
        if parts.count == 1 { return TreeChildren(tree.view.rootDirectories.map { folder($0, parent: id) }) }
        guard parts.count == 2, let d = tree.directoryByKey[parts[1]] else { return nil }
        let node = tree.view.directories[Int(d)]
        let children = node.children
        return TreeChildren([.made(count: children.count) { folder(children[$0], parent: id) }, items(node.items, in: id)])
    }
}
