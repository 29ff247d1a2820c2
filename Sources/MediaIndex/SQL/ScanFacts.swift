import MediaModel
import Synchronization

/// What a scan asks of its store about this host before and after its walk — the roots (with their last
/// complete walk's generation and exclude lists), the mount points recorded under them, whether the host has
/// items, the items hidden by partial scans, the oldest reader that recorded one of its files — read in one
/// statement (`SQLStore.readScanFacts`). Issue 38: asked one by one they were 7 of an unchanged rescan's 16
/// round trips, 1.4 s over a 200 ms link.
package struct ScanFacts: Sendable {
    var roots: [RootState] = []
    /// The shares this host joined (PostgreSQL; `SharedRoot`).
    var shares: [SharedRoot] = []
    var mounts: [MountPoint] = []
    var hasItems = false
    var hidden: [VanishedItem] = []
    /// The lowest `reader_version` among this host's items and failures (`Int.max` when it has none).
    var oldestReader = Int.max
}

/// `ScanFacts` remembered between `SQLStore.rememberRoots(true)` and `(false)` (nested calls count), and shared
/// by a store and its scan's reader (`ScanStore.readingConnection`). Any write through the store forgets them
/// (`SQLStore.write`, the dialects' batch writes): the next question reads them again, so what is answered
/// from memory is what the database held after this process's last write. Writes by other processes are
/// not seen meanwhile: this host's rows change only by this host's scans and root commands, which take the
/// scan lock of the roots they touch.
package final class ScanFactsMemo: Sendable {
    private struct State {
        var depth = 0
        var facts: ScanFacts?
        /// Moves at every `forget`: facts read across a write are not kept.
        var epoch = 0
    }
    private let state = Mutex(State())

    package init() {}

    func remember(_ on: Bool) {
        state.withLock { s in
            s.depth = max(0, s.depth + (on ? 1 : -1))
            if s.depth == 0 { s.facts = nil; s.epoch += 1 }
        }
    }

    var isRemembering: Bool { state.withLock { $0.depth > 0 } }

    /// The facts while remembering (read by `read` when not in memory; the read is not under the lock), nil otherwise.
    func facts(_ read: () throws -> ScanFacts) throws -> ScanFacts? {
        let (remembering, known, epoch) = state.withLock { ($0.depth > 0, $0.facts, $0.epoch) }
        guard remembering else { return nil }
        if let known { return known }
        let facts = try read()
        state.withLock { if $0.depth > 0 && $0.epoch == epoch { $0.facts = facts } }
        return facts
    }

    /// A write happened: what is remembered may be stale.
    package func forget() {
        state.withLock { $0.facts = nil; $0.epoch += 1 }
    }
}
