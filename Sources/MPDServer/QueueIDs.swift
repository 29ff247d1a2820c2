/// What MPD keeps beside each queue entry and `MusicPlayer` does not: a song id that stays with the entry
/// while it moves, and the queue version at which the entry last changed (for `plchanges`). Kept in step
/// with the player's queue by the commands, which are the only thing that edits that queue.
struct QueueIDs {
    private(set) var ids: [Int] = []
    private(set) var versions: [UInt32] = []
    /// The queue version (`status` `playlist:`); raised once by every command that changes the queue.
    private(set) var version: UInt32 = 1
    private var nextID = 1
    private var changed = false

    var count: Int { ids.count }

    private var pendingVersion: UInt32 { version &+ 1 }

    func position(ofID id: Int) -> Int? { ids.firstIndex(of: id) }

    /// New entries at `position`; returns their ids.
    mutating func insert(count: Int, at position: Int) -> [Int] {
        let new = (0..<count).map { nextID + $0 }
        nextID += count
        ids.insert(contentsOf: new, at: position)
        versions.insert(contentsOf: Array(repeating: pendingVersion, count: count), at: position)
        touch(from: position + count, to: ids.count)
        changed = true
        return new
    }

    mutating func remove(at position: Int) {
        ids.remove(at: position)
        versions.remove(at: position)
        touch(from: position, to: ids.count)
        changed = true
    }

    mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        ids.insert(ids.remove(at: from), at: to)
        versions.insert(versions.remove(at: from), at: to)
        touch(from: min(from, to), to: max(from, to) + 1)
        changed = true
    }

    mutating func removeAll() {
        ids.removeAll()
        versions.removeAll()
        changed = true
    }

    /// Marks the entry changed without moving it (`prio`, a tag update).
    mutating func touch(position: Int) {
        touch(from: position, to: position + 1)
        changed = true
    }

    /// Raises the version at the end of the command without marking an entry: MPD's `prio` does so even
    /// when no priority changed (its queue version goes up, `plchanges` lists nothing).
    mutating func markChanged() { changed = true }

    /// Ends a command: the version goes up once if anything changed. Returns whether it did.
    @discardableResult
    mutating func commit() -> Bool {
        guard changed else { return false }
        changed = false
        version = pendingVersion
        return true
    }

    /// Positions changed after `since` (for `plchanges`), in queue order.
    func positions(changedSince since: UInt32) -> [Int] {
        // A version from the future (a restarted server) means everything changed, as MPD treats it.
        if since > version { return Array(ids.indices) }
        return ids.indices.filter { versions[$0] > since }
    }

    private mutating func touch(from start: Int, to end: Int) {
        guard start < end else { return }
        for i in start..<end { versions[i] = pendingVersion }
    }
}
