import Library
import MediaIndex
import MediaModel

/// `sticker` on songs, mapped to mlib's user data: `rating` (0–5, the rating `mlib ls rating:5` reads:
/// the user's, else the file's tag rating; `set` sets the user's, `delete` clears it and the tag's shows
/// again), and `playCount`, `skipCount`, `lastPlayed` (read-only, kept by the player).
/// Other sticker names are refused: mlib has no free-form sticker store. A connection logged in as a
/// user of the library (`password user:secret`) reads and writes that user's values.
enum StickerCommands {
    static let names = ["rating", "playCount", "skipCount", "lastPlayed"]

    /// The song is found in the view; its user data is read and written in the store, off the loop.
    static func sticker(_ c: CommandContext, _ out: inout Response) throws {
        let a = c.arguments
        guard a.count >= 3 else { throw MPDError.badArgument("bad request") }
        guard a[1] == "song" else { throw MPDError.badArgument("unknown sticker domain") }
        let browser = c.core.browser()
        let store = c.core.store, library = c.core.library, user = c.session.user
        func song() throws -> Int64 {
            guard let song = browser.song(a[2]) else { throw MPDError(.noExist, "No such song") }
            return browser.view.ids[Int(song)]
        }
        @Sendable func read(_ id: Int64) throws -> MediaItem {
            guard let item = try store.item(id: id) else { throw MPDError(.noExist, "No such song") }
            return try own([item], user, library)[0]
        }
        switch (a[0], a.count) {
        case ("get", 4):
            let id = try song()
            c.offLoop {
                guard let value = value(a[3], of: try read(id)) else { throw MPDError(.noExist, "no such sticker") }
                return { _, out in out.field("sticker", "\(a[3])=\(value)") }
            }
        case ("list", 3):
            let id = try song()
            c.offLoop {
                let item = try read(id)
                return { _, out in for name in names { if let value = value(name, of: item) { out.field("sticker", "\(name)=\(value)") } } }
            }
        case ("set", 5):
            let id = try song()
            guard a[3] == "rating" else { throw MPDError.badArgument("mlib stores only the rating sticker (0-5)") }
            guard let rating = Int(a[4]), (0...5).contains(rating) else { throw MPDError.badArgument("rating must be 0-5") }
            c.offLoop {
                try library.setRating(id: id, rating, user: user)
                return { c, _ in c.core.emit([.sticker]) }
            }
        case ("delete", 3), ("delete", 4):
            let id = try song()
            guard a.count == 3 || a[3] == "rating" else { throw MPDError.badArgument("only the rating sticker can be deleted") }
            c.offLoop {
                try library.setRating(id: id, nil, user: user)
                return { c, _ in c.core.emit([.sticker]) }
            }
        case ("find", 4), ("find", 6):
            // `sticker find song DIR NAME [= VALUE]`: songs under DIR with the sticker (equal to VALUE).
            guard names.contains(a[3]) else { return }
            let ids = try browser.songs(at: a[2]).map { browser.view.ids[Int($0)] }
            let uris = c.core.uris
            c.offLoop {
                let items = try own(try store.items(ids: ids), user, library)
                return { _, out in
                    for item in items {
                        guard let v = value(a[3], of: item), a.count == 4 || (a[4] == "=" && v == a[5]) else { continue }
                        out.field("file", uris.uri(of: item.path) ?? "")
                        out.field("sticker", "\(a[3])=\(v)")
                    }
                }
            }
        default:
            throw MPDError.badArgument("bad request")
        }
    }

    /// `items` with `user`'s values in place of the items' own (the owner's: unchanged).
    @Sendable private static func own(_ items: [MediaItem], _ user: String?, _ library: Library) throws -> [MediaItem] {
        guard let user else { return items }
        let values = try library.userValues(of: user, ids: items.map(\.id))
        return items.map { item in
            var item = item
            let mine = values[item.id] ?? UserItemValues()
            for property in UserDataEdits.editable { item[property] = mine[property] }
            return item
        }
    }

    private static func value(_ name: String, of item: MediaItem) -> String? {
        switch name {
        case "rating": return item[.rating]?.integer.map(String.init)
        case "playCount": return item.playCount > 0 ? String(item.playCount) : nil
        case "skipCount": return item[.skipCount]?.integer.flatMap { $0 > 0 ? String($0) : nil }
        case "lastPlayed": return item[.lastPlayedDate]?.real.map { String(Int($0)) }
        default: return nil
        }
    }
}
