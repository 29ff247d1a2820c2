import Foundation
import Library
import MediaModel
import Playback

/// `status`, `stats`, `currentsong`, `clearerror` and the playback options.
enum StatusCommands {
    static func status(_ c: CommandContext, _ out: inout Response) throws {
        let core = c.core
        let s = core.player.status
        let order = core.player.playOrder
        out.field("volume", Int((s.volume * 100).rounded()))
        out.field("repeat", core.repeatOn ? 1 : 0)
        out.field("random", s.shuffleMode != .off ? 1 : 0)
        out.field("single", core.singleOn ? 1 : 0)
        out.field("consume", core.consumeOn ? 1 : 0)
        out.field("partition", "default")
        out.field("playlist", Int(core.queueIDs.version))
        out.field("playlistlength", core.queueIDs.count)
        out.field("mixrampdb", 0)
        out.field("state", state(s.playbackState))
        if let index = s.indexOfNowPlayingItem ?? core.currentPosition, index < core.queueIDs.count {
            out.field("song", index)
            out.field("songid", core.queueIDs.ids[index])
            if s.playbackState != .stopped {
                let elapsed = min(s.currentPlaybackTime, s.duration > 0 ? s.duration : .infinity)
                out.field("time", "\(Int(elapsed.rounded())):\(Int(s.duration.rounded()))")
                out.field("elapsed", MPDFormat.seconds(elapsed))
                if let item = s.nowPlayingItem {
                    out.field("bitrate", Int((item[.bitRate]?.integer ?? 0) / 1000))
                    out.field("duration", MPDFormat.seconds(s.duration))
                    if let format = SongWriter.audioFormat(item) { out.field("audio", format) }
                }
            }
            if let orderPosition = order.firstIndex(of: index) {
                var next: Int? = orderPosition + 1 < order.count ? order[orderPosition + 1] : nil
                if next == nil, core.repeatOn, !order.isEmpty { next = order[0] }
                if core.repeatOn && core.singleOn { next = index }
                if let next, next < core.queueIDs.count {
                    out.field("nextsong", next)
                    out.field("nextsongid", core.queueIDs.ids[next])
                }
            }
        }
        if core.crossfade > 0 { out.field("xfade", core.crossfade) }
        if let job = core.updateJob { out.field("updating_db", job) }
        // The player's error, else the library's while it cannot be read (`LiveView.lastError`).
        if let error = core.lastError ?? core.view.lastError.map({ "the library cannot be read: " + $0 }) { out.field("error", error) }
    }

    static func state(_ state: PlaybackState) -> String {
        switch state {
        case .playing, .seekingForward, .seekingBackward: "play"
        case .paused, .interrupted: "pause"
        case .stopped: "stop"
        }
    }

    /// The view's slots `stats` counts, looked up once (a tag name look-up per `stats` showed in its profile).
    private static let artistSlot = MPDTag.named("Artist")!.slot
    private static let albumSlot = MPDTag.named("Album")!.slot

    static func stats(_ c: CommandContext, _ out: inout Response) throws {
        // From the view: no store call, so a poll never waits for an update or a slow store.
        let core = c.core, view = c.view
        let uptime = Int(Date().timeIntervalSince(core.started))
        let playtime = Int(core.playTime)
        let updated = Int(core.databaseUpdated.timeIntervalSince1970)
        let answer = core.statsAnswer
        // The same view, second, play time and update give the same bytes: written once, copied after.
        if answer.view !== view || answer.uptime != uptime || answer.playtime != playtime || answer.updated != updated {
            var fresh = Response()
            fresh.field("uptime", uptime)
            fresh.field("playtime", playtime)
            fresh.field("artists", view.distinct(slot: Self.artistSlot).parts)
            fresh.field("albums", view.distinct(slot: Self.albumSlot).values)
            fresh.field("songs", view.count)
            fresh.field("db_playtime", Int(view.totalRoundedDuration))
            fresh.field("db_update", updated)
            (answer.view, answer.uptime, answer.playtime, answer.updated) = (view, uptime, playtime, updated)
            answer.bytes = fresh.bytes
        }
        out.append(answer.bytes)
    }

    /// `stats`' last answer and what it was made from (`ServerCore.statsAnswer`): clients ask for it on
    /// every poll, and its seven numbers written each time were a fifth of a pipelined `stats`.
    final class StatsAnswer {
        /// Weak: an old view is not kept alive by the answer that showed it.
        weak var view: LibrarySnapshot?
        var uptime = -1
        var playtime = -1
        var updated = -1
        var bytes: [UInt8] = []
    }

    static func currentsong(_ c: CommandContext, _ out: inout Response) throws {
        guard let index = c.core.currentPosition else { return }
        QueueCommands.writeEntry(c, position: index, to: &out)
    }

    static func clearerror(_ c: CommandContext, _ out: inout Response) throws {
        c.core.lastError = nil
        c.core.emit([.player])
    }

    static func `repeat`(_ c: CommandContext, _ out: inout Response) throws {
        let on = try Arguments.bool(c.arguments[0])
        guard on != c.core.repeatOn else { return }
        c.core.repeatOn = on
        applyRepeat(c.core)
        c.core.emit([.options])
    }

    /// MPD's repeat/single pair onto MusicPlayer's modes: repeat = all, repeat+single = one; single
    /// alone = pause at the start of the next song (MPD 0.23 does that; after the last one it stops).
    static func applyRepeat(_ core: ServerCore) {
        core.player.repeatMode = core.repeatOn ? (core.singleOn ? .one : .all) : .none
        core.player.pausesBetweenItems = core.singleOn
    }

    /// random = MusicPlayer's shuffle (songs, or albums when the server was started so).
    static func random(_ c: CommandContext, _ out: inout Response) throws {
        let on = try Arguments.bool(c.arguments[0])
        guard on != (c.core.player.shuffleMode != .off) else { return }
        c.core.player.shuffleMode = on ? c.core.configuration.randomMode : .off
        c.core.emit([.options])
    }

    static func single(_ c: CommandContext, _ out: inout Response) throws {
        switch c.arguments[0] {
        case "oneshot": throw MPDError.badArgument("mlib does not support single oneshot")
        default:
            let on = try Arguments.bool(c.arguments[0])
            guard on != c.core.singleOn else { return }
            c.core.singleOn = on
        }
        applyRepeat(c.core)
        c.core.emit([.options])
    }

    static func consume(_ c: CommandContext, _ out: inout Response) throws {
        switch c.arguments[0] {
        case "oneshot": throw MPDError.badArgument("mlib does not support consume oneshot")
        default:
            let on = try Arguments.bool(c.arguments[0])
            guard on != c.core.consumeOn else { return }
            c.core.consumeOn = on
        }
        c.core.emit([.options])
    }

    /// Accepted and shown; the player always plays gaplessly without a crossfade.
    static func crossfade(_ c: CommandContext, _ out: inout Response) throws {
        let seconds = try Arguments.unsigned(c.arguments[0])
        guard seconds != c.core.crossfade else { return }
        c.core.crossfade = seconds
        c.core.emit([.options])
    }

    static func setvol(_ c: CommandContext, _ out: inout Response) throws {
        let v = try Arguments.int(c.arguments[0])
        guard (0...100).contains(v) else { throw MPDError.badArgument("Invalid volume value") }
        c.core.player.volume = Float(v) / 100
    }

    /// `getvol` (mpd 0.23): the volume alone, as `status` shows it.
    static func getvol(_ c: CommandContext, _ out: inout Response) throws {
        out.field("volume", Int((c.core.player.volume * 100).rounded()))
    }

    static func volume(_ c: CommandContext, _ out: inout Response) throws {
        let change = try Arguments.int(c.arguments[0])
        guard (-100...100).contains(change) else { throw MPDError.badArgument("Invalid volume value") }
        let now = Int((c.core.player.volume * 100).rounded())
        c.core.player.volume = Float(min(100, max(0, now + change))) / 100
    }

    static func replayGainMode(_ c: CommandContext, _ out: inout Response) throws {
        guard let mode = ReplayGainMode(rawValue: c.arguments[0]) else { throw MPDError.badArgument("Unrecognized replay gain mode") }
        guard mode != c.core.player.replayGainMode else { return }
        c.core.player.replayGainMode = mode
        c.core.emit([.options])
    }

    static func replayGainStatus(_ c: CommandContext, _ out: inout Response) throws {
        out.field("replay_gain_mode", c.core.player.replayGainMode.rawValue)
    }
}
