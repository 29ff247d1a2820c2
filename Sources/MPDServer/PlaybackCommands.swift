import Playback

/// `play`, `playid`, `pause`, `stop`, `next`, `previous`, `seek`, `seekid`, `seekcur`, mapped onto
/// MusicPlayer's transport (MPMusicPlayerController semantics) where MPD's differ at the ends of the queue.
enum PlaybackCommands {
    static func play(_ c: CommandContext, _ out: inout Response) throws {
        let player = c.core.player
        c.core.playerUser = c.session.user
        if let argument = c.arguments.first, let position = Int(argument), position >= 0 {
            guard position < c.core.queueIDs.count else { throw MPDError.badSongIndex }
            start(c.core, at: position)
        } else if let argument = c.arguments.first, Int(argument) == nil {
            throw MPDError.badArgument("Integer expected: \(argument)")
        } else if player.playbackState == .stopped, let position = c.core.currentPosition {
            start(c.core, at: position)
        } else {
            guard !player.queue.isEmpty else { return }
            player.play()
        }
    }

    static func playid(_ c: CommandContext, _ out: inout Response) throws {
        c.core.playerUser = c.session.user
        guard let argument = c.arguments.first, let id = Int(argument), id >= 0 else {
            if let argument = c.arguments.first, Int(argument) == nil { throw MPDError.badArgument("Integer expected: \(argument)") }
            if c.core.player.playbackState == .stopped, let position = c.core.currentPosition {
                start(c.core, at: position)
            } else if !c.core.player.queue.isEmpty {
                c.core.player.play()
            }
            return
        }
        guard let position = c.core.queueIDs.position(ofID: id) else { throw MPDError.noSuchSong }
        start(c.core, at: position)
    }

    /// Plays the entry at `position` from its start (MusicPlayer keeps a playing state across the jump).
    private static func start(_ core: ServerCore, at position: Int) {
        if core.player.indexOfNowPlayingItem == position && core.player.playbackState != .stopped {
            core.player.currentPlaybackTime = 0
        } else {
            core.player.setNowPlayingItem(at: position)
            reapplyPriorities(core, playing: position)
        }
        if !core.outputEnabled { return }
        core.player.play()
    }

    /// `play N` in random mode swaps song N into the current place of the play order (as mpd's does), which
    /// sent a prioritised song waiting there behind the others: it played next in 0 of 5 trials, where mpd
    /// plays it next every time. Each priority is given to the player again (through 0, as it ignores an
    /// unchanged one), which puts its song right after the current one, among the higher priorities.
    private static func reapplyPriorities(_ core: ServerCore, playing position: Int) {
        guard core.player.shuffleMode == .songs, !core.priorities.isEmpty else { return }
        for (id, priority) in core.priorities.sorted(by: { $0.value < $1.value }) {
            guard let other = core.queueIDs.position(ofID: id), other != position else { continue }
            core.player.setPriority(0, forItemAt: other)
            core.player.setPriority(priority, forItemAt: other)
        }
    }

    static func pause(_ c: CommandContext, _ out: inout Response) throws {
        let player = c.core.player
        let pausing: Bool
        if let argument = c.arguments.first { pausing = try Arguments.bool(argument) } else {
            pausing = player.playbackState.isAdvancing
        }
        if pausing { player.pause() } else if player.playbackState == .paused || player.playbackState == .interrupted {
            player.play()
        }
    }

    /// MPD keeps the current song across `stop`; MusicPlayer does not, so the core remembers it.
    static func stop(_ c: CommandContext, _ out: inout Response) throws {
        if let position = c.core.currentPosition { c.core.stoppedSongID = c.core.queueIDs.ids[position] }
        c.core.player.stop()
    }

    /// At the last song MPD stops (unless repeat); MusicPlayer would go back to the first and pause.
    static func next(_ c: CommandContext, _ out: inout Response) throws {
        let player = c.core.player
        guard player.playbackState != .stopped, let number = player.status.playOrderNumber else {
            throw MPDError(.playerSync, "Not playing")
        }
        if number >= player.playOrder.count && !c.core.repeatOn {
            player.stop()
        } else {
            let paused = player.playbackState == .paused
            player.skipToNextItem()
            // mpd plays the next song even when paused.
            if paused { player.play() }
        }
    }

    /// At the first song MPD plays it again from its start (unless repeat, which wraps).
    static func previous(_ c: CommandContext, _ out: inout Response) throws {
        let player = c.core.player
        guard player.playbackState != .stopped, let number = player.status.playOrderNumber else {
            throw MPDError(.playerSync, "Not playing")
        }
        let paused = player.playbackState == .paused
        if number == 1 && !c.core.repeatOn {
            player.currentPlaybackTime = 0
        } else {
            player.skipToPreviousItem()
        }
        // mpd plays the previous song (or this one again) even when paused.
        if paused { player.play() }
    }

    static func seek(_ c: CommandContext, _ out: inout Response) throws {
        let position = try Arguments.unsigned(c.arguments[0])
        guard position < c.core.queueIDs.count else { throw MPDError.badSongIndex }
        try seek(c.core, position: position, to: Arguments.seconds(c.arguments[1]))
    }

    static func seekid(_ c: CommandContext, _ out: inout Response) throws {
        let id = try Arguments.unsigned(c.arguments[0])
        guard let position = c.core.queueIDs.position(ofID: id) else { throw MPDError.noSuchSong }
        try seek(c.core, position: position, to: Arguments.seconds(c.arguments[1]))
    }

    /// `seekcur TIME`, or `+TIME`/`-TIME` relative to where playback is.
    static func seekcur(_ c: CommandContext, _ out: inout Response) throws {
        let player = c.core.player
        guard let position = player.indexOfNowPlayingItem, player.playbackState != .stopped else {
            throw MPDError(.playerSync, "Not playing")
        }
        let text = c.arguments[0]
        var target = try Arguments.seconds(text)
        if text.hasPrefix("+") || text.hasPrefix("-") { target += player.currentPlaybackTime }
        try seek(c.core, position: position, to: max(0, target))
    }

    private static func seek(_ core: ServerCore, position: Int, to seconds: Double) throws {
        guard seconds >= 0 else { throw MPDError.badArgument("Negative seek position") }
        let player = core.player
        if player.indexOfNowPlayingItem != position || player.playbackState == .stopped {
            player.setNowPlayingItem(at: position)
        }
        player.currentPlaybackTime = seconds
        if player.playbackState == .stopped, core.outputEnabled { player.play() }
    }
}
