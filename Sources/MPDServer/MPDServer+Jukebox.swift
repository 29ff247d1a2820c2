import MediaModel
import Playback

/// The Subsonic API's jukebox on this server's player and queue (`Jukebox`): one queue for MPD clients and
/// jukebox clients. Commands run on the server's loop like an MPD command — the queue's ids and version
/// kept in step, `playlist`/`player` idlers woken — and items are read on the store thread first.
extension MPDServer: Jukebox {
    public func jukebox(_ command: JukeboxCommand, user: String?) async throws -> JukeboxState {
        let core = self.core
        var items: [MediaItem] = []
        if case .set(let ids) = command { items = try await core.jukeboxItems(ids) }
        if case .add(let ids) = command { items = try await core.jukeboxItems(ids) }
        return try await core.loop.submit { [items] in try core.jukebox(command, items: items, user: user) }.get()
    }

    /// The changes MPD's `idle player`, `idle playlist` and `idle mixer` hear (`ServerCore.emit`).
    public func observeChanges(_ handler: @escaping @Sendable () -> Void) {
        let core = self.core
        core.loop.execute { core.changeObservers.append(handler) }
    }
}

extension ServerCore {
    /// The items of `ids`, in that order (an id twice is queued twice); refused when one is no item.
    func jukeboxItems(_ ids: [Int64]) async throws -> [MediaItem] {
        let store = self.store
        let found = try await offLoop { try store.items(ids: ids) }.get()
        let byID = Dictionary(found.map { ($0.persistentID, $0) }, uniquingKeysWith: { a, _ in a })
        let missing = ids.filter { byID[$0] == nil }
        guard missing.isEmpty else { throw JukeboxError.unknownItems(missing) }
        return ids.compactMap { byID[$0] }
    }

    /// On the loop. `stop` pauses (the current song and position stay, `start` goes on from there), as
    /// Subsonic's jukebox does; `set` replaces the queue and stops.
    func jukebox(_ command: JukeboxCommand, items: [MediaItem], user: String?) throws -> JukeboxState {
        switch command {
        case .status:
            break
        case .set:
            player.stop()
            stoppedSongID = nil
            clearQueue()
            _ = try insert(items, at: nil)
        case .add:
            _ = try insert(items, at: nil)
        case .start:
            playerUser = user
            if player.playbackState == .stopped, let position = currentPosition ?? (queueIDs.count > 0 ? 0 : nil) {
                player.setNowPlayingItem(at: position)
            }
            if outputEnabled, queueIDs.count > 0 { player.play() }
        case .stop:
            if player.playbackState.isAdvancing { player.pause() }
        case .skip(let index, let offset):
            guard index >= 0, index < queueIDs.count else { throw JukeboxError.badIndex(index) }
            playerUser = user
            player.setNowPlayingItem(at: index)
            if outputEnabled { player.play() }
            if offset > 0 { player.currentPlaybackTime = offset }
        case .clear:
            player.stop()
            stoppedSongID = nil
            clearQueue()
        case .remove(let index):
            guard index >= 0, index < queueIDs.count else { throw JukeboxError.badIndex(index) }
            removeEntry(at: index)
        case .shuffle:
            // The queue's own order, shuffled (not random mode): what a jukebox client then lists.
            for index in stride(from: queueIDs.count - 1, to: 0, by: -1) {
                let other = Int.random(in: 0...index)
                if other != index {
                    moveEntry(from: other, to: index)
                    moveEntry(from: index - 1, to: other)
                }
            }
        case .setGain(let gain):
            player.volume = min(max(gain, 0), 1)
        }
        commitQueue()
        return JukeboxState(entries: player.queue.map(\.persistentID), currentIndex: currentPosition ?? -1,
                            playing: player.playbackState.isAdvancing, gain: player.volume, position: player.currentPlaybackTime)
    }
}
