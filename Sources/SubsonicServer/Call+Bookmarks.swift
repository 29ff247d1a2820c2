import Foundation
import Library
import MediaIndex
import MediaModel

// Bookmarks (issue 41): a position per user and song, kept by the store (`BookmarkStore`), the same ones
// `mlib play` resumes from. `savePlayQueue`'s position is the play queue's own, apart from these.
extension Call {
    func bookmarks() async throws -> Node {
        let catalog = server.catalog
        let marks = try await marks()
        let name = user.name
        let found = try await server.offLoop { [store = server.library.store] in try store.bookmarks(user: name) }
        var node = Node("bookmarks")
        node.add(list: "bookmark", found.compactMap { bookmark in
            guard let item = catalog.itemByID[bookmark.itemID] else { return nil }   // not in this view (hidden, another host's)
            var b = Node("bookmark")
            b.set("position", bookmark.positionMs)
            b.set("username", name)
            b.set("comment", bookmark.comment)
            b.set("created", Self.iso(Date(timeIntervalSince1970: bookmark.created)))
            b.set("changed", Self.iso(Date(timeIntervalSince1970: bookmark.changed)))
            b.add(songNode(item, catalog, marks, name: "entry"))
            return b
        })
        return node
    }

    func createBookmark() async throws -> [Node] {
        let catalog = server.catalog
        let text = try parameters.required("id")
        guard let item = catalog.item(id: text) else { throw SubsonicError.notFound("Song \(text)") }
        let id = catalog.view.ids[Int(item)]
        guard parameters["position"] != nil else { throw SubsonicError.missing("position") }
        let position = Int64(try parameters.int("position", 0, in: 0...Int(StoredBounds.durations.upperBound) * 1000))
        let comment = parameters["comment"], name = user.name
        try await server.offLoop { [store = server.library.store] in
            try store.setBookmark(ofItem: id, user: name, positionMs: position, comment: comment)
        }
        return []
    }

    func deleteBookmark() async throws -> [Node] {
        let catalog = server.catalog
        let text = try parameters.required("id")
        guard let item = catalog.item(id: text) else { throw SubsonicError.notFound("Song \(text)") }
        let id = catalog.view.ids[Int(item)], name = user.name
        try await server.offLoop { [store = server.library.store] in _ = try store.deleteBookmark(ofItem: id, user: name) }
        return []
    }
}
