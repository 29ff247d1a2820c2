import MediaModel
@testable import Playback

/// Items for state-machine tests: no files needed, only what the model reads (title, album, duration).
func testItem(_ title: String, album: String? = nil, track: Int = 0, duration: Double = 10, id: Int64 = 0) -> MediaItem {
    var item = MediaItem(path: MediaPath("/music/\(title).flac"))
    item.title = title
    item.albumTitle = album
    if track > 0 { item[.albumTrackNumber] = .integer(Int64(track)) }
    item.playbackDuration = duration
    item.persistentID = id
    return item
}

func titles(_ items: [MediaItem]) -> [String] { items.map { $0.title ?? "?" } }

extension PlayerStateMachine {
    /// A stopped machine with items a…(n) of `duration` seconds, seed fixed.
    static func with(_ names: [String], duration: Double = 10, seed: UInt64 = 42) -> PlayerStateMachine {
        var m = PlayerStateMachine(seed: seed)
        m.setQueue(names.map { testItem($0, duration: duration) })
        _ = m.drainEvents()
        return m
    }

    var nowTitle: String? { nowPlayingItem?.title }
    var orderTitles: [String] { playOrder.map { queue[$0].title ?? "?" } }

    /// Titles of the items that play (the current one, then one per item start) while the clock runs on
    /// for `seconds`, in steps of `step`.
    mutating func titlesPlayed(for seconds: Double, step: Double = 1) -> [String] {
        var started: [String] = nowTitle.map { [$0] } ?? []
        _ = drainEvents()
        let end = now + seconds
        var t = now
        while t < end {
            t = min(end, t + step)
            advanceClock(to: t)
            for case .nowPlayingItemDidChange(let item?) in drainEvents() { started.append(item.title ?? "?") }
        }
        return started
    }
}
