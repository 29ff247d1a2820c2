import Foundation
import MediaIndex
import MediaModel

extension Library {
    /// Writes what one play means, by `PlayStatisticsRule` (the one rule: a play is the item finished, or
    /// half of it or 240 s heard; a skip is leaving it before 20 s): a row of the listening history (item,
    /// `user`, when, seconds heard, `front`) and, in the same transaction, the item's play count and last
    /// played, or its skip count. Items not in the library (id 0: a file played by path) are not counted.
    /// Returns the verdict written. Every front that plays (`mlib play`, `mlib serve`) records through here.
    @discardableResult
    public func record(_ end: ItemEnd, at date: Date = Date(), front: Listen.Front = .library, user: String? = nil) throws -> PlayStatisticsRule.Verdict {
        guard end.itemID != 0 else { return .none }
        let verdict = end.verdict
        let kind: Listen.Kind
        switch verdict {
        case .played: kind = .play
        case .skipped: kind = .skip
        case .none: return verdict
        }
        try store.recordListen(Listen(itemID: end.itemID, kind: kind, date: date, heard: end.heard, front: front, user: user))
        return verdict
    }

    /// One play of item `id` that a front reports as such (a Subsonic `scrobble`: the client applied its
    /// own rule): a history row and play count + 1, last played `date`. `heard`: seconds heard, when known.
    public func recordPlay(id: Int64, at date: Date = Date(), heard: Double? = nil, front: Listen.Front = .library, user: String? = nil) throws {
        try store.recordListen(Listen(itemID: id, kind: .play, date: date, heard: heard, front: front, user: user))
    }

    /// One skip of item `id`: a history row and skip count + 1.
    public func recordSkip(id: Int64, at date: Date = Date(), heard: Double? = nil, front: Listen.Front = .library, user: String? = nil) throws {
        try store.recordListen(Listen(itemID: id, kind: .skip, date: date, heard: heard, front: front, user: user))
    }

    /// The listening history, newest first (`ListeningHistoryStore.history`).
    public func history(_ query: HistoryQuery) throws -> [HistoryEntry] {
        try store.history(query)
    }
}
