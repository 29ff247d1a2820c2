import Foundation
import Library
import MediaIndex
import MediaModel

/// Stored playlists are the library's playlists (`PlaylistStore`): what `mlib playlist` shows, MPD
/// clients show, and the reverse. Smart playlists list their current items and cannot be edited.
/// Every store call runs off the loop (`CommandContext.offLoop`); the answer and the `stored_playlist`
/// event are written back on it.
enum StoredPlaylistCommands {
    static func listplaylists(_ c: CommandContext, _ out: inout Response) throws {
        let store = c.core.store
        c.offLoop {
            let playlists = try store.playlists()
            return { c, out in
                c.core.rememberPlaylists(playlists)
                write(playlists, to: &out)
            }
        }
    }

    /// The playlists `lsinfo ""` shows at the top: as `listplaylists`, from the core's short-lived copy
    /// when it has one.
    static func topPlaylists(_ c: CommandContext, _ out: inout Response) throws {
        guard let playlists = c.core.cachedPlaylists() else { return try listplaylists(c, &out) }
        write(playlists, to: &out)
    }

    private static func write(_ playlists: [StoredPlaylist], to out: inout Response) {
        for playlist in playlists {
            out.field("playlist", playlist.name)
            out.timestamp("Last-Modified", seconds: playlist.modified.timeIntervalSince1970)
        }
    }

    /// A smart playlist is evaluated on the connection's user's values (`password user:secret`; nil: the owner's).
    private static func items(_ library: Library, _ name: String, user: String?) throws -> [MediaItem] {
        guard let playlist = try library.store.playlist(named: name) else { throw MPDError.noSuchPlaylist }
        do { return try library.items(of: playlist, for: user) } catch let error as QueryError {
            throw MPDError(.system, "smart playlist \(name): \(error)")
        }
    }

    static func listplaylist(_ c: CommandContext, _ out: inout Response) throws {
        let library = c.core.library, arguments = c.arguments, user = c.session.user
        c.offLoop {
            let all = try items(library, arguments[0], user: user)
            return { c, out in for item in try window(arguments, all) { out.field("file", c.core.uris.uri(of: item.path) ?? item.path.string) } }
        }
    }

    static func listplaylistinfo(_ c: CommandContext, _ out: inout Response) throws {
        let library = c.core.library, arguments = c.arguments, user = c.session.user
        c.offLoop {
            let all = try items(library, arguments[0], user: user)
            return { c, out in for item in try window(arguments, all) { c.songs.write(item, to: &out) } }
        }
    }

    private static func window(_ arguments: [String], _ items: [MediaItem]) throws -> ArraySlice<MediaItem> {
        guard arguments.count > 1 else { return items[...] }
        let range = try Arguments.range(arguments[1], count: items.count)
        return items[min(range.lowerBound, items.count)..<min(range.upperBound, items.count)]
    }

    /// `load NAME [START:END] [POSITION]`
    static func load(_ c: CommandContext, _ out: inout Response) throws {
        let library = c.core.library, arguments = c.arguments, user = c.session.user
        c.offLoop {
            let all = try items(library, arguments[0], user: user)
            return { c, _ in
                var selected = all[...]
                if arguments.count > 1 {
                    let range = try Arguments.range(arguments[1], count: all.count)
                    guard range.upperBound <= all.count || arguments[1].hasSuffix(":") else { throw MPDError.badArgument("Bad range") }
                    selected = all[min(range.lowerBound, all.count)..<min(range.upperBound, all.count)]
                }
                let position = try arguments.count > 2 ? QueueCommands.position(c)(arguments[2]) : nil
                _ = try c.core.insert(Array(selected), at: position)
            }
        }
    }

    /// Runs `edit` on the store off the loop, then tells idle clients the stored playlists changed.
    private static func edit(_ c: CommandContext, _ edit: @escaping @Sendable (any LibraryStore) throws -> Void) {
        let store = c.core.store
        c.offLoop {
            try edit(store)
            return { c, _ in c.core.emit([.stored_playlist]) }
        }
    }

    /// `save NAME [create|append|replace]` (modes from MPD 0.24; 0.23 clients send only NAME).
    static func save(_ c: CommandContext, _ out: inout Response) throws {
        let name = try validName(c.arguments[0])
        let mode = c.arguments.count > 1 ? c.arguments[1] : "create"
        guard ["create", "append", "replace"].contains(mode) else { throw MPDError.badArgument("Unrecognized save mode: \(mode)") }
        let ids = c.core.player.queue.map(\.persistentID).filter { $0 != 0 }
        edit(c) { store in
            let existing = try store.playlist(named: name)
            if mode == "create" {
                guard existing == nil else { throw MPDError(.exist, "Playlist already exists") }
                _ = try store.createPlaylist(name: name, smart: nil)
                try store.setPlaylistEntries(name: name, itemIDs: ids)
                return
            }
            if let existing { try requireEditable(existing) } else { _ = try store.createPlaylist(name: name, smart: nil) }
            if mode == "append" { try store.appendToPlaylist(name: name, itemIDs: ids) } else {
                try store.setPlaylistEntries(name: name, itemIDs: ids)
            }
        }
    }

    static func rm(_ c: CommandContext, _ out: inout Response) throws {
        let name = c.arguments[0]
        edit(c) { store in
            guard try store.playlist(named: name) != nil else { throw MPDError.noSuchPlaylist }
            try store.deletePlaylist(name: name)
        }
    }

    static func rename(_ c: CommandContext, _ out: inout Response) throws {
        let from = c.arguments[0], to = c.arguments[1]
        edit(c) { store in
            guard try store.playlist(named: from) != nil else { throw MPDError.noSuchPlaylist }
            let to = try validName(to)
            guard try store.playlist(named: to) == nil else { throw MPDError(.exist, "Playlist already exists") }
            try store.renamePlaylist(from, to: to)
        }
    }

    /// `playlistadd NAME URI [POSITION]`: creates the playlist when missing, as MPD does.
    static func playlistadd(_ c: CommandContext, _ out: inout Response) throws {
        let name = try validName(c.arguments[0])
        let browser = c.core.browser()
        let ids = try browser.songs(at: c.arguments[1]).map { browser.view.ids[Int($0)] }
        guard !ids.isEmpty else { throw MPDError.noSuchDirectory }
        let position = try c.arguments.count > 2 ? Arguments.unsigned(c.arguments[2]) : nil
        append(c, ids, to: name, at: position)
    }

    /// `searchaddpl NAME FILTER [position POS]` (mpd 0.23): the songs `search` finds, appended to (or
    /// inserted into) the stored playlist, which is created when missing; no match leaves it untouched.
    static func searchaddpl(_ c: CommandContext, _ out: inout Response) throws {
        let name = try validName(c.arguments[0])
        let q = try DatabaseCommands.QueryArguments(c.arguments.dropFirst())
        let filter = try FilterCompiler(mode: .search, uris: c.core.uris).compile(q.filter)
        let browser = c.core.browser()
        let ids = try browser.find(filter, window: q.window).map { browser.view.ids[Int($0)] }
        guard !ids.isEmpty else { return }
        append(c, ids, to: name, at: try q.position.map(Arguments.unsigned))
    }

    private static func append(_ c: CommandContext, _ ids: [Int64], to name: String, at position: Int?) {
        edit(c) { store in
            if let existing = try store.playlist(named: name) { try requireEditable(existing) } else {
                _ = try store.createPlaylist(name: name, smart: nil)
            }
            if let position {
                var entries = try store.playlistItems(name: name).map(\.persistentID)
                guard position <= entries.count else { throw MPDError.badArgument("Bad position") }
                entries.insert(contentsOf: ids, at: position)
                try store.setPlaylistEntries(name: name, itemIDs: entries)
            } else {
                try store.appendToPlaylist(name: name, itemIDs: ids)
            }
        }
    }

    static func playlistclear(_ c: CommandContext, _ out: inout Response) throws {
        let name = c.arguments[0]
        edit(c) { store in
            guard let playlist = try store.playlist(named: name) else { throw MPDError.noSuchPlaylist }
            try requireEditable(playlist)
            try store.setPlaylistEntries(name: playlist.name, itemIDs: [])
        }
    }

    /// `playlistdelete NAME POS|START:END`
    static func playlistdelete(_ c: CommandContext, _ out: inout Response) throws {
        let name = c.arguments[0], rangeText = c.arguments[1]
        edit(c) { store in
            guard let playlist = try store.playlist(named: name) else { throw MPDError.noSuchPlaylist }
            try requireEditable(playlist)
            let range = try Arguments.range(rangeText, count: playlist.entryCount)
            guard range.upperBound <= playlist.entryCount else { throw MPDError.badSongIndex }
            try store.removeFromPlaylist(name: playlist.name, positions: Array(range))
        }
    }

    static func playlistmove(_ c: CommandContext, _ out: inout Response) throws {
        let name = c.arguments[0]
        let from = try Arguments.unsigned(c.arguments[1]), to = try Arguments.unsigned(c.arguments[2])
        edit(c) { store in
            guard let playlist = try store.playlist(named: name) else { throw MPDError.noSuchPlaylist }
            try requireEditable(playlist)
            var entries = try store.playlistItems(name: playlist.name).map(\.persistentID)
            guard from < entries.count, to < entries.count else { throw MPDError.badSongIndex }
            entries.insert(entries.remove(at: from), at: to)
            try store.setPlaylistEntries(name: playlist.name, itemIDs: entries)
        }
    }

    /// MPD refuses names with a slash or a line break (they are file names in its playlist directory).
    private static func validName(_ name: String) throws -> String {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\n"), !name.contains("\r") else {
            throw MPDError.badArgument("Bad playlist name")
        }
        return name
    }

    /// Smart playlists and mirrors of playlist files follow their rule or file: MPD clients read them only.
    private static func requireEditable(_ playlist: StoredPlaylist) throws {
        if playlist.isSmart { throw MPDError(.permission, "\(playlist.name) is a smart playlist: edit its rule with mlib playlist") }
        if let source = playlist.source {
            throw MPDError(.permission, "\(playlist.name) mirrors \(source): edit that file")
        }
    }
}
