import MediaIndex
import MediaModel

/// Items a scan could not decide about, for the user to settle (`mlib resolve`): an item hidden because its
/// file is gone from where a partial scan looked (`hideItems`), with the files added since that any rule of
/// `MoveEvidenceRules` pairs with it, weak ones and ones another item's audio casts doubt on included (the
/// scan names such an item "a possible move"). The user knows which file is it: `resolve` folds the item
/// into that file as a scan's move would (the item keeps its id, rating, plays and playlist entries and
/// takes the file's path; what was done with the file's own item meanwhile is carried over), and `drop`
/// lets the item go. A scan of every root removes what is still hidden and unpaired; before that, nothing
/// here is lost.
public enum PossibleMoves {
    /// A hidden item and the files that may be it, strongest evidence first.
    public struct Entry: Sendable, Encodable, Equatable {
        public var id: Int64
        public var path: MediaPath
        public var candidates: [Candidate]
    }

    public struct Candidate: Sendable, Encodable, Equatable {
        public var id: Int64
        public var path: MediaPath
        /// The strongest rule that pairs it with the item ("content", "audio"…).
        public var evidence: String
        /// Another item (still there, or there when the file was added) has the same audio: the file may as
        /// well be a copy of that one.
        public var doubtful: Bool
    }

    public static func list(_ index: any LibraryStore) throws -> [Entry] {
        let hidden = try index.hiddenItems()
        var found: [Int64: [Int64: Candidate]] = [:]
        for evidence in MoveEvidenceRules.order {
            for candidate in try index.moveCandidates(for: hidden, seeking: nil, evidence: evidence)
            where found[candidate.vanishedID]?[candidate.rowID] == nil {
                found[candidate.vanishedID, default: [:]][candidate.rowID] = Candidate(
                    id: candidate.rowID, path: candidate.rowPath, evidence: "\(evidence)", doubtful: candidate.matchesAPresentItem)
            }
        }
        return hidden.sorted { $0.path < $1.path }.map { item in
            Entry(id: item.id, path: item.path, candidates: (found[item.id] ?? [:]).values.sorted {
                (MoveCandidate.Evidence(named: $0.evidence) ?? .tags, $0.path) < (MoveCandidate.Evidence(named: $1.evidence) ?? .tags, $1.path)
            })
        }
    }

    /// The hidden item at `path` (its old path) or with id `id`.
    public static func hiddenItem(_ index: any LibraryStore, _ reference: String) throws -> VanishedItem {
        let hidden = try index.hiddenItems()
        if let item = hidden.first(where: { $0.path == MediaPath(reference) }) ?? Int64(reference).flatMap({ id in hidden.first { $0.id == id } }) {
            return item
        }
        throw IndexError.invalidArgument(database: index.libraryName,
                                         reason: "no possible move \(reference) (the old path or id of an item a partial scan hid: mlib resolve lists them)")
    }

    /// The item hidden at `old` takes the file at `new` (an indexed file shown now): its id and user data
    /// follow the file, and the file's own item is folded into it.
    public static func resolve(_ index: any LibraryStore, old: String, new: MediaPath) throws {
        let item = try hiddenItem(index, old)
        guard let row = try index.item(path: new) else {
            throw IndexError.invalidArgument(database: index.libraryName, reason: "\(new.string) is not in the library (scan it first)")
        }
        try index.fold([(item: item.id, row: row.persistentID)])
    }

    /// The item hidden at `old` goes, with its user data: its file is gone for good.
    public static func drop(_ index: any LibraryStore, old: String) throws {
        try index.removeItems([try hiddenItem(index, old).id])
    }
}

extension MoveCandidate.Evidence {
    init?(named name: String) {
        guard let evidence = Self.allCases.first(where: { "\($0)" == name }) else { return nil }
        self = evidence
    }
}
