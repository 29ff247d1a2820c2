import Foundation
import MediaIndex
import MediaModel

extension Library {
    /// Writes what one play means for the item's statistics, by `PlayStatisticsRule` (the one rule: a play
    /// is the item finished, or half of it or 240 s heard; a skip is leaving it before 20 s): play count and
    /// last played, or skip count. Items not in the library (id 0: a file played by path) are not counted.
    /// Returns the verdict written. Every front that plays (`mlib play`, `mlib serve`) records through here.
    @discardableResult
    public func record(_ end: ItemEnd, at date: Date = Date()) throws -> PlayStatisticsRule.Verdict {
        guard end.itemID != 0 else { return .none }
        let verdict = end.verdict
        switch verdict {
        case .played: try recordPlay(id: end.itemID, at: date)
        case .skipped: try recordSkip(id: end.itemID)
        case .none: break
        }
        return verdict
    }

    /// One play of item `id`: play count + 1, last played `date`.
    public func recordPlay(id: Int64, at date: Date = Date()) throws {
        try store.recordPlay(id: id, at: date)
    }

    /// One skip of item `id`: skip count + 1.
    public func recordSkip(id: Int64) throws {
        try store.recordSkip(id: id)
    }
}
