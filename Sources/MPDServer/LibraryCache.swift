import Foundation
import MediaIndex
import MediaModel

/// What MPD keeps in memory and mlib would otherwise read from the store on every request: the path
/// and id of every item (the directory tree for `lsinfo` and `listall`) and the `stats` counts. Reading
/// all items costs ~70 µs each (2,000 items: 140 ms per `lsinfo ""`), so it is done once and again only
/// when the library changed: after an `update`, or when the store's totals (items, duration, size, roots)
/// differ from those it was read at — which also catches scans by `mlib scan`/`mlib watch` elsewhere,
/// except a rename that changes no total, which shows after the next update (as with MPD's database).
/// The totals are asked for at most every `checkInterval`: two queries (~0.45 ms in a release build)
/// before every database command were a quarter of an `lsinfo`, and clients send them in bursts; so a
/// scan by another process shows within that interval.
final class LibraryCache {
    struct Entry {
        var path: MediaPath
        var id: Int64
    }

    struct Stats {
        var artists = 0, albums = 0, songs = 0
        var playtime = 0.0
    }

    private struct Fingerprint: Equatable {
        var items: Int
        var duration: Double
        var size: Int64
        var roots: [MediaPath]
    }

    private var fingerprint: Fingerprint?
    private var checked: ContinuousClock.Instant?
    let checkInterval: Duration = .milliseconds(500)
    /// Every item, in byte order of path.
    private(set) var entries: [Entry] = []
    private(set) var stats = Stats()

    func invalidate() {
        fingerprint = nil
        checked = nil
    }

    /// Reads the library again if it changed since the last read (looked at every `checkInterval`).
    func refresh(from store: any LibraryStore) throws {
        let now = ContinuousClock.now
        if fingerprint != nil, let checked, now - checked < checkInterval { return }
        checked = now
        let totals = try store.statistics()
        let current = Fingerprint(items: totals.items, duration: totals.totalDuration, size: totals.totalSize,
                                  roots: try store.roots())
        guard current != fingerprint else { return }
        var entries: [Entry] = []
        var artists = Set<String>(), albums = Set<String>()
        var stats = Stats()
        try store.forEachItem(MediaQuery()) { item in
            entries.append(Entry(path: item.path, id: item.persistentID))
            stats.songs += 1
            stats.playtime += item.playbackDuration.rounded()
            if let artist = item.artist { for a in artist.components(separatedBy: "; ") { artists.insert(a) } }
            if let album = item.albumTitle { albums.insert(album) }
        }
        entries.sort { $0.path < $1.path }
        stats.artists = artists.count
        stats.albums = albums.count
        self.entries = entries
        self.stats = stats
        fingerprint = current
    }

    /// The entries under `directory` (a contiguous run in path order).
    func entries(under directory: MediaPath) -> ArraySlice<Entry> {
        let prefix = directory.bytes.last == UInt8(ascii: "/") ? directory.bytes : directory.bytes + [UInt8(ascii: "/")]
        let start = lowerBound(MediaPath(bytes: prefix))
        var end = start
        while end < entries.count, entries[end].path.bytes.starts(with: prefix) { end += 1 }
        return entries[start..<end]
    }

    private func lowerBound(_ path: MediaPath) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].path < path { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
