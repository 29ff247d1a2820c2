import Foundation
import Synchronization

/// What each user's clients said they are playing (`scrobble` with `submission=false`), for
/// `getNowPlaying`: one entry per user and client, the latest; an entry goes once its song would have
/// ended (its duration and a minute after it started).
final class NowPlayingBoard: Sendable {
    struct Entry: Sendable {
        var user: String
        var client: String
        var item: Int64
        var started: Date
        var duration: Double
    }

    private let entries = Mutex<[String: Entry]>([:])

    func start(_ entry: Entry) {
        entries.withLock { $0[entry.user + "\u{1F}" + entry.client] = entry }
    }

    /// The entries still playing at `now`, the latest first.
    func playing(at now: Date = Date()) -> [Entry] {
        entries.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.started) <= $0.value.duration + 60 }
            return entries.values.sorted { ($0.started, $0.user) > ($1.started, $1.user) }
        }
    }
}
