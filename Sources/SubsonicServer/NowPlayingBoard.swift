import Foundation
import Synchronization

/// What each user's clients play, for `getNowPlaying`: one entry per user and client, the latest, from
/// `scrobble submission=false` (a song started) or OpenSubsonic's `reportPlayback` (a timeline: state,
/// position, rate, and the time heard so far). An entry goes once its song would have ended (its duration
/// and a minute after the last report), or at `stopped`.
final class NowPlayingBoard: Sendable {
    enum State: String, Sendable, CaseIterable { case starting, playing, paused, stopped }

    struct Entry: Sendable {
        var user: String
        var client: String
        var item: Int64
        var duration: Double
        /// When the client last said something about this song.
        var reported: Date
        /// nil for a `scrobble submission=false`, which says nothing of the timeline.
        var state: State?
        var reportedPosition: Double = 0
        var rate: Double = 1
        /// Seconds heard at normal speed so far (`reportPlayback` only).
        var heard: Double = 0

        /// Where playback is at `now`: the last position, moved on by the time since while playing.
        func position(at now: Date) -> Double {
            guard state == .playing || state == .starting else { return reportedPosition }
            return min(reportedPosition + now.timeIntervalSince(reported) * rate, max(duration, reportedPosition))
        }
    }

    private let entries = Mutex<[String: Entry]>([:])

    private static func key(_ user: String, _ client: String) -> String { user + "\u{1F}" + client }

    /// A song started (`scrobble submission=false`).
    func start(user: String, client: String, item: Int64, duration: Double, at now: Date = Date()) {
        entries.withLock { $0[Self.key(user, client)] = Entry(user: user, client: client, item: item, duration: duration, reported: now) }
    }

    /// One `reportPlayback`. Returns the song's entry when this report ends it (`stopped`): its position
    /// and the time heard, for the play statistics.
    func report(user: String, client: String, item: Int64, duration: Double, state: State, position: Double, rate: Double,
                at now: Date = Date()) -> Entry? {
        entries.withLock { entries in
            let key = Self.key(user, client)
            var entry = entries[key].flatMap { $0.item == item && $0.state != nil ? $0 : nil }
                ?? Entry(user: user, client: client, item: item, duration: duration, reported: now, state: .starting, reportedPosition: position)
            if entry.state == .playing || entry.state == .starting {
                // Heard since the last report: the wall-clock time, but no more than the position moved
                // (a seek forward is not heard) and never negative (a seek back).
                let moved = (position - entry.reportedPosition) / max(entry.rate, 0.01)
                entry.heard += max(0, min(now.timeIntervalSince(entry.reported), moved))
            }
            entry.state = state
            entry.reportedPosition = position
            entry.rate = rate
            entry.reported = now
            if state == .stopped {
                entries[key] = nil
                return entry
            }
            entries[key] = entry
            return nil
        }
    }

    /// The entries still playing at `now`, the latest first.
    func playing(at now: Date = Date()) -> [Entry] {
        entries.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.reported) <= max(0, $0.value.duration - $0.value.reportedPosition) + 60 }
            return entries.values.sorted { ($0.reported, $0.user) > ($1.reported, $1.user) }
        }
    }
}
