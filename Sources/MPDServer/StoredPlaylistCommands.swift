import Foundation
import Library
import MediaIndex
import MediaModel

/// Stored playlists are the library's playlists (`PlaylistStore`): what `mlib playlist` shows, MPD
/// clients show, and the reverse. Smart playlists list their current items and cannot be edited.
enum StoredPlaylistCommands {
    static func listplaylists(_ c: CommandContext, _ out: inout Response) throws {
        for playlist in try c.core.store.playlists() {
            out.field("playlist", playlist.name)
            out.field("Last-Modified", MPDFormat.timestamp(playlist.modified))
        }
    }

    private static func items(_ c: CommandContext, _ name: String) throws -> [MediaItem] {
        guard let playlist = try c.core.store.playlist(named: name) else { throw MPDError.noSuchPlaylist }
        do { return try PlaylistContents.items(of: playlist, in: c.core.store) } catch let error as QueryError {
            throw MPDError(.system, "smart playlist \(name): \(error)")
        }
    }

    static func listplaylist(_ c: CommandContext, _ out: inout Response) throws {
        for item in try window(c, items(c, c.arguments[0])) { out.field("file", c.core.uris.uri(of: item.path) ?? item.path.string) }
    }

    static func listplaylistinfo(_ c: CommandContext, _ out: inout Response) throws {
        for item in try window(c, items(c, c.arguments[0])) { c.songs.write(item, to: &out) }
    }

    private static func window(_ c: CommandContext, _ items: [MediaItem]) throws -> ArraySlice<MediaItem> {
        guard c.arguments.count > 1 else { return items[...] }
        let range = try Arguments.range(c.arguments[1], count: items.count)
        return items[min(range.lowerBound, items.count)..<min(range.upperBound, items.count)]
    }

    /// `load NAME [START:END] [POSITION]`
    static func load(_ c: CommandContext, _ out: inout Response) throws {
        let all = try items(c, c.arguments[0])
        var selected = all[...]
        if c.arguments.count > 1 {
            let range = try Arguments.range(c.arguments[1], count: all.count)
            guard range.upperBound <= all.count || c.arguments[1].hasSuffix(":") else { throw MPDError.badArgument("Bad range") }
            selected = all[min(range.lowerBound, all.count)..<min(range.upperBound, all.count)]
        }
        let position = try c.arguments.count > 2 ? QueueCommands.position(c)(c.arguments[2]) : nil
        _ = try c.core.insert(Array(selected), at: position)
    }

    /// `save NAME [create|append|replace]` (modes from MPD 0.24; 0.23 clients send only NAME).
    static func save(_ c: CommandContext, _ out: inout Response) throws {
        let name = try validName(c.arguments[0])
        let mode = c.arguments.count > 1 ? c.arguments[1] : "create"
        let ids = c.core.player.queue.map(\.persistentID).filter { $0 != 0 }
        let existing = try c.core.store.playlist(named: name)
        switch mode {
        case "create":
            guard existing == nil else { throw MPDError(.exist, "Playlist already exists") }
            _ = try c.core.store.createPlaylist(name: name, smart: nil)
            try c.core.store.setPlaylistEntries(name: name, itemIDs: ids)
        case "append", "replace":
            if let existing { try requireEditable(existing) } else { _ = try c.core.store.createPlaylist(name: name, smart: nil) }
            if mode == "append" { try c.core.store.appendToPlaylist(name: name, itemIDs: ids) } else {
                try c.core.store.setPlaylistEntries(name: name, itemIDs: ids)
            }
        default:
            throw MPDError.badArgument("Unrecognized save mode: \(mode)")
        }
        c.core.emit([.stored_playlist])
    }

    static func rm(_ c: CommandContext, _ out: inout Response) throws {
        guard try c.core.store.playlist(named: c.arguments[0]) != nil else { throw MPDError.noSuchPlaylist }
        try c.core.store.deletePlaylist(name: c.arguments[0])
        c.core.emit([.stored_playlist])
    }

    static func rename(_ c: CommandContext, _ out: inout Response) throws {
        guard try c.core.store.playlist(named: c.arguments[0]) != nil else { throw MPDError.noSuchPlaylist }
        let to = try validName(c.arguments[1])
        guard try c.core.store.playlist(named: to) == nil else { throw MPDError(.exist, "Playlist already exists") }
        try c.core.store.renamePlaylist(c.arguments[0], to: to)
        c.core.emit([.stored_playlist])
    }

    /// `playlistadd NAME URI [POSITION]`: creates the playlist when missing, as MPD does.
    static func playlistadd(_ c: CommandContext, _ out: inout Response) throws {
        let name = try validName(c.arguments[0])
        let browser = try c.core.browser()
        let songs = try browser.songs(at: c.arguments[1])
        guard !songs.isEmpty else { throw MPDError.noSuchDirectory }
        if let existing = try c.core.store.playlist(named: name) { try requireEditable(existing) } else {
            _ = try c.core.store.createPlaylist(name: name, smart: nil)
        }
        let ids = songs.map(\.persistentID)
        if c.arguments.count > 2 {
            let position = try Arguments.unsigned(c.arguments[2])
            var entries = try c.core.store.playlistItems(name: name).map(\.persistentID)
            guard position <= entries.count else { throw MPDError.badArgument("Bad position") }
            entries.insert(contentsOf: ids, at: position)
            try c.core.store.setPlaylistEntries(name: name, itemIDs: entries)
        } else {
            try c.core.store.appendToPlaylist(name: name, itemIDs: ids)
        }
        c.core.emit([.stored_playlist])
    }

    static func playlistclear(_ c: CommandContext, _ out: inout Response) throws {
        guard let playlist = try c.core.store.playlist(named: c.arguments[0]) else { throw MPDError.noSuchPlaylist }
        try requireEditable(playlist)
        try c.core.store.setPlaylistEntries(name: playlist.name, itemIDs: [])
        c.core.emit([.stored_playlist])
    }

    /// `playlistdelete NAME POS|START:END`
    static func playlistdelete(_ c: CommandContext, _ out: inout Response) throws {
        guard let playlist = try c.core.store.playlist(named: c.arguments[0]) else { throw MPDError.noSuchPlaylist }
        try requireEditable(playlist)
        let range = try Arguments.range(c.arguments[1], count: playlist.entryCount)
        guard range.upperBound <= playlist.entryCount else { throw MPDError.badSongIndex }
        try c.core.store.removeFromPlaylist(name: playlist.name, positions: Array(range))
        c.core.emit([.stored_playlist])
    }

    static func playlistmove(_ c: CommandContext, _ out: inout Response) throws {
        guard let playlist = try c.core.store.playlist(named: c.arguments[0]) else { throw MPDError.noSuchPlaylist }
        try requireEditable(playlist)
        var entries = try c.core.store.playlistItems(name: playlist.name).map(\.persistentID)
        let from = try Arguments.unsigned(c.arguments[1]), to = try Arguments.unsigned(c.arguments[2])
        guard from < entries.count, to < entries.count else { throw MPDError.badSongIndex }
        entries.insert(entries.remove(at: from), at: to)
        try c.core.store.setPlaylistEntries(name: playlist.name, itemIDs: entries)
        c.core.emit([.stored_playlist])
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
