import Foundation
import MediaModel

extension LibrarySnapshot {
    /// Whether applying `changes` would leave every value this snapshot holds as it is: each upserted item
    /// already here under its path and id, with the same duration, modification time, slot values and
    /// filter properties, and no removed id here. A change log hands out writes, not differences: the same
    /// rating set again, or (on PostgreSQL, whose token is the snapshot's xmin) rows written before the view
    /// was built handed out once more. Calling those a change would wake every watcher for nothing (an MPD
    /// client's `idle database` reloads its whole library).
    func isUnchanged(by changes: ViewChanges) -> Bool {
        if !changes.removed.isEmpty {
            let held = Set(ids)
            if changes.removed.contains(where: held.contains) { return false }
        }
        return changes.upserted.allSatisfy(holds)
    }

    /// Whether `item` is here as `SnapshotColumns.append` would store it.
    private func holds(_ item: MediaItem) -> Bool {
        guard let row = self.item(path: item.path), ids[Int(row)] == item.persistentID else { return false }
        let r = Int(row)
        guard same(durations[r], item.playbackDuration), same(modified[r], item[.modificationDate]?.real ?? .nan) else { return false }
        for (s, slot) in schema.slots.enumerated() where value(row, slot: s) != slot.value(item) { return false }
        for (p, property) in schema.properties.enumerated() {
            let cell = propertyCells[r, p]
            guard (cell == 0 ? nil : propertyValues[p][Int(cell)]) == item[property] else { return false }
        }
        return true
    }

    private func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
}
