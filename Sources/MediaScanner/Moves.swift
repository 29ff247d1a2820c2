#if canImport(Glibc)
import Glibc
#endif
import MediaIndex
import MediaModel

/// What keeps an item's identity: the one place that decides, over the store's primitives, whether a file
/// the scan found at an unknown path is an indexed item that moved, and whether an indexed item the scan
/// did not find may be removed. Every store, `mlib scan` and a subtree scan go through it.
///
/// Evidence, strongest first:
/// 1. **A rename**, at once, while walking: a new path with the inode, device, size and mtime of an item
///    whose old path no longer exists is that item renamed (`rename(2)` keeps all four). The row's path
///    changes; no new row is made, so nothing can attach to one. This tells byte-identical copies apart.
/// At the end, for items that vanished, among the rows added since the item's root was last walked
/// completely (ties go to the same file name, then the same folder name, then the oldest row):
/// 2. **The same file, retagged**: the same inode and device, the same birth time where both are known
///    (`FileBirth`: a new file on a deleted file's reused inode has its own), the same container, audio
///    stream and duration, and one unchanged end that is not zeros: retagged in place and renamed. Before
///    the content, so that a backup copy of the old bytes does not take the item. Without a birth time to
///    compare, it yields to another vanished item's same audio on that row: neither (`withoutReusedInodeDoubts`).
/// 3. **The content** (size and fingerprint): the same bytes at both ends are the item copied and then
///    deleted (another disk, another root, a sync tool).
/// 4. **The same audio**: one end of the file unchanged (tags sit at the other), the same container and
///    duration: the file retagged and renamed in one go by a tagger writing a new file. (The inode alone
///    is never trusted: file systems hand a deleted file's inode number to the next new file.)
/// 5. **The same audio payload**: the first 16 KiB of the audio itself (`AudioPayload`, after the head's
///    tags, from its first non-zero byte), the same container, stream and duration, in the same folder: a
///    retag that rewrote both ends (ID3v2 and ID3v1, an AIFF, a remuxed Matroska file) and a rename.
/// 6. **What the tags say**: the same MusicBrainz recording ID, or the same title, artist, album, container
///    and duration: a file rewritten by a tagger (new inode, new fingerprint) and renamed.
/// Evidence is never weaker than it claims (`MoveEvidenceRules` holds the rules and their order as data): no
/// end of zeros counts; 4 to 6 never pair a row whose exact bytes an older item has (a copy of that one,
/// wherever it lies), nor a row they would pair as well with an item that is still there (another release of
/// the same recording: `MoveCandidate.matchesAPresentItem`), nor a row added while another item had its audio
/// (`possible_moves`, recorded by each scan for its new rows, and `possible_moves_by_content`, the same by the
/// row's bytes, which outlives the row when its root is forgotten and added back: that item may since have
/// left the library), and
/// only when unique (`pairs`); such an item is named as a possible move, and recorded against the rows that
/// made it one (`ScanStore.recordUndecidedMoves`), so that it stays one once the other claims have left. One exception to the order: a copy of the item's bytes and its audio under new
/// tags, both new in this scan, are a copy made before a retag by a tagger that writes a new file, and the
/// retagged file wins (`preferringRetaggedOriginals`), or neither when that file is not that clear (its audio
/// also another item's still there, or several such files: a possible move). Each kind is asked for the items still vanished after the
/// stronger ones were folded, so a row folded into one item may then be folded into another (a chain of
/// moves across partial scans).
/// A row paired by 2–6 is folded into the item: the item keeps its id and takes the row's path and file
/// data; whatever the user did with the row meanwhile is carried over.
/// Only then is a vanished item removed, never one below a directory the walk could not see (see
/// `ScanRun.finishTarget`), and only by a scan that walked every root: it may have moved to a root that
/// was not walked. A partial scan hides it instead (out of every query, kept with its id and user data),
/// and the scan that finds it again, by path, inode, content or tags, brings it back.
final class Moves {
    /// Items not found by this scan so far, by id.
    private(set) var vanished: [Int64: VanishedItem] = [:]
    /// Items renamed by inode during this scan: never vanished, never claimed twice.
    private var claimed: Set<Int64> = []
    /// Items hidden by earlier partial scans and not seen by this one: paired if a row is them, else left
    /// as they are (they may lie where this scan did not look, or where the walk could not see).
    private var pairOnly: Set<Int64> = []
    /// Items that weak evidence could pair with more than one row, or whose row more than one item could
    /// be: not paired (`pairs`); those no other evidence paired are named in the scan's summary.
    private var ambiguous: [Int64: MediaPath] = [:]
    private var folded: Set<Int64> = []
    /// Items with a copy of their bytes and a retagged file that another release's audio makes doubtful, both
    /// new: a copy before a retag or a move beside another release's copy (`preferringRetaggedOriginals`).
    /// Paired with nothing; named as possible moves.
    private var undecided: Set<Int64> = []
    /// Rows several vanished items claimed by evidence weaker than the content (the same audio of two
    /// releases, both gone), or the same file and another item's weaker evidence while the birth time could
    /// not tell them apart (`withoutReusedInodeDoubts`): only the content pairs them now. A weaker kind asked
    /// later must not pick one of those items by what only it has (seed 12: the same audio payload "in the
    /// same folder" gave the deleted release's item the other release's retagged file, written there).
    private var contestedRows: Set<Int64> = []
    /// The rows weak evidence paired with an item it then left unpaired (`ambiguous`, `undecided`): recorded
    /// for those still unpaired at the end (`ScanStore.recordUndecidedMoves`).
    private var doubtful: [(row: Int64, item: Int64)] = []
    /// The vanished items left unpaired because the evidence for them was not unique, by path.
    var unpairedAmbiguous: [MediaPath] { ambiguous.filter { !folded.contains($0.key) }.map(\.value).sorted() }

    /// Adds the hidden items this scan did not come across, to be paired only, and notes for every hidden item
    /// (found gone again by this scan or not) the scan that hid it (`hiddenAt`): the rows that scan added
    /// cast doubt on a copy found later (`preferringRetaggedOriginals`; seed 10).
    func noteHidden(_ items: [VanishedItem]) {
        for item in items where !claimed.contains(item.id) {
            let hiddenAt = item.hiddenAt.flatMap { $0 > 0 ? $0 : nil }
            if let known = vanished[item.id] {
                if known.missing { vanished[item.id]?.hiddenAt = hiddenAt }
                continue
            }
            vanished[item.id] = item
            pairOnly.insert(item.id)
        }
    }

    /// The vanished items with the window in which a row casts doubt on a copy: for a hidden item, from the
    /// scan that hid it on, though that scan walked its root completely (seed 10: the retagged file a scan of
    /// one root added when it hid the item, then a copy found by a scan of every root). Those rows are not
    /// candidates themselves: they were in that scan, which left the item unpaired.
    private var doubtWindows: [VanishedItem] {
        vanished.values.map { item in
            var item = item
            if let hiddenAt = item.hiddenAt { item.window = min(item.window, hiddenAt - 1) }
            return item
        }
    }

    func isClaimed(_ id: Int64) -> Bool { claimed.contains(id) }

    /// The vanished items the pairing hides first (those not hidden already and not kept for a disk that
    /// is away): a fold shows each again, under its new path.
    var hiddenAtPairing: [Int64] { vanished.values.filter { !$0.missing && !pairOnly.contains($0.id) }.map(\.id) }

    /// Whether `id` is still unpaired (after `resolve`: neither folded nor removed).
    func isVanished(_ id: Int64) -> Bool { vanished[id] != nil }

    /// Makes the vanished items below `directory` pair-only: a row that is one of them by the evidence
    /// takes it, but none is removed or hidden (their files may be on a disk that is not mounted). Returns
    /// their ids.
    func pairOnly(under directory: MediaPath) -> [Int64] {
        let kept = vanished.values.filter { $0.path == directory || $0.path.hasPrefix(directory: directory) }.map(\.id)
        pairOnly.formUnion(kept)
        return kept
    }

    func noteVanished(_ item: VanishedItem) {
        guard !claimed.contains(item.id) else { return }
        vanished[item.id] = item
    }

    /// Drops the vanished items below `directory`: the walk could not see them, so they are kept.
    func keep(under directory: MediaPath) -> Int {
        let kept = vanished.values.filter { $0.path.hasPrefix(directory: directory) }
        for item in kept { vanished[item.id] = nil }
        return kept.count
    }

    /// The item `file` is, renamed, if inode, device, size and mtime say so (evidence 1); it is then claimed.
    func claim(_ file: DirectoryListing.File, among matches: [InodeMatch]) -> InodeMatch? {
        let candidates = matches.filter { match in
            guard !claimed.contains(match.id), match.path != file.path, match.stamp == file.stamp,
                  match.device == nil || match.device == file.device else { return false }
            return Self.isGone(match.path)
        }
        guard let match = candidates.min(by: { $0.id < $1.id }) else { return nil }
        claimed.insert(match.id)
        vanished[match.id] = nil
        return match
    }

    /// True when nothing is at `path` any more (not when it cannot be looked at).
    static func isGone(_ path: MediaPath) -> Bool {
        var st = stat()
        if path.withCString({ lstat($0, &st) }) == 0 { return false }
        return errno == ENOENT || errno == ENOTDIR
    }

    /// Pairs the vanished items with rows that may be them (evidence 2 and 3), strongest evidence first.
    func pairs(among candidates: [MoveCandidate]) -> [MoveCandidate] {
        func likeness(_ c: MoveCandidate) -> Int {
            guard let item = vanished[c.vanishedID] else { return 0 }
            return (item.path.lastComponent == c.rowPath.lastComponent ? 2 : 0)
                + (item.path.directory.lastComponent == c.rowPath.directory.lastComponent ? 1 : 0)
        }
        let ordered = candidates.sorted {
            ($0.evidence, -likeness($0), $0.vanishedID, $0.rowID) < ($1.evidence, -likeness($1), $1.vanishedID, $1.rowID)
        }
        // Weaker evidence than the content is taken only when it is unique: an item with two rows of its
        // audio (or tags), or a row that two items could be, is no move but a guess, and a wrong guess hands
        // one file's ratings and plays to another. The user data then stays on the rows it was on.
        var rowsPerItem: [Int64: Int] = [:], itemsPerRow: [Int64: Int] = [:]
        for c in candidates where c.evidence > .content {
            rowsPerItem[c.vanishedID, default: 0] += 1
            itemsPerRow[c.rowID, default: 0] += 1
        }
        var itemsTaken: Set<Int64> = [], rowsTaken: Set<Int64> = []
        var chosen: [MoveCandidate] = []
        for candidate in ordered where vanished[candidate.vanishedID] != nil {
            // Left on neither file by `preferringRetaggedOriginals`: no weaker evidence takes it either.
            if undecided.contains(candidate.vanishedID) {
                ambiguous[candidate.vanishedID] = vanished[candidate.vanishedID]?.path
                if candidate.evidence > .content { doubtful.append((candidate.rowID, candidate.vanishedID)) }
                continue
            }
            if candidate.evidence > .content && contestedRows.contains(candidate.rowID) {
                if let item = vanished[candidate.vanishedID] { ambiguous[item.id] = item.path }
                doubtful.append((candidate.rowID, candidate.vanishedID))
                continue
            }
            // The row's audio (or recording, or tags) is also an item's that is still there: it may as well be
            // a copy of that one (another release of the recording) as this item moved. The same inode does
            // not settle it (a deleted file's inode number goes to the next new file), unless the row is in
            // the item's folder: a retag in place and a rename there, not a copy of the other release made
            // elsewhere.
            if candidate.matchesAPresentItem && (candidate.evidence > .content || (candidate.evidence == .sameFile
                && vanished[candidate.vanishedID].map { $0.path.directory != candidate.rowPath.directory } ?? true)) {
                if let item = vanished[candidate.vanishedID] { ambiguous[item.id] = item.path }
                doubtful.append((candidate.rowID, candidate.vanishedID))
                continue
            }
            if candidate.evidence > .content && (rowsPerItem[candidate.vanishedID] ?? 0) + (itemsPerRow[candidate.rowID] ?? 0) > 2 {
                if let item = vanished[candidate.vanishedID] { ambiguous[item.id] = item.path }
                if (itemsPerRow[candidate.rowID] ?? 0) > 1 { contestedRows.insert(candidate.rowID) }
                doubtful.append((candidate.rowID, candidate.vanishedID))
                continue
            }
            guard !itemsTaken.contains(candidate.vanishedID), !rowsTaken.contains(candidate.rowID) else { continue }
            itemsTaken.insert(candidate.vanishedID)
            rowsTaken.insert(candidate.rowID)
            chosen.append(candidate)
        }
        return chosen
    }

    /// The content candidates, with those of an item whose file was copied and then retagged by a tagger
    /// writing a new file replaced by the retagged file (`MoveEvidenceRules.outrankSameScanCopies`). Only
    /// where nothing else is in question: the item's copies (rows with its exact bytes, new in this scan or
    /// older) are sought by no other item, and exactly one row new in this scan has its audio, sought by no
    /// other item, shared with no item still there, and no copy of any vanished item.
    /// `undecided`: items with such rows new in this scan where the retagged file is not that clear: its
    /// audio is also an item's still there (another release of the recording), there are several such rows,
    /// or the row is another vanished item's candidate too. A copy made before a retag of this item, and this
    /// item moved by a copy while another file of its audio appeared, leave the same files: neither claim is
    /// taken (their content candidates are dropped here; `Moves` names them as possible moves).
    /// `hiddenAt`: the generation that hid each item found gone by an earlier scan; a row added since then is
    /// as much a claim as one added now (seed 10: a scan of one root saw the retagged file, not the copy).
    /// `generation`: this scan's, nil when it added no row.
    static func preferringRetaggedOriginals(content: [MoveCandidate], weaker: [MoveCandidate], generation: Int64?,
                                            hiddenAt: [Int64: Int64] = [:])
        -> (content: [MoveCandidate], undecided: Set<Int64>) {
        let contentRows = Set(content.map(\.rowID))
        var itemsPerContentRow: [Int64: Set<Int64>] = [:]
        for c in content { itemsPerContentRow[c.rowID, default: []].insert(c.vanishedID) }
        // The same row may be found by the audio and by the payload: one claim.
        var itemsPerWeakRow: [Int64: Set<Int64>] = [:], weakRowsPerItem: [Int64: [Int64: MoveCandidate]] = [:]
        for w in weaker where !contentRows.contains(w.rowID) {
            itemsPerWeakRow[w.rowID, default: []].insert(w.vanishedID)
            if weakRowsPerItem[w.vanishedID]?[w.rowID] == nil { weakRowsPerItem[w.vanishedID, default: [:]][w.rowID] = w }
        }
        var replaced: [Int64: MoveCandidate] = [:], undecided: Set<Int64> = []
        for (item, rows) in weakRowsPerItem {
            // The copies may be older rows (`mlib watch` indexed the copy while the original was still there):
            // a copy found before the item vanished is all the more a copy.
            let copies = content.filter { $0.vanishedID == item }
            guard !copies.isEmpty, copies.allSatisfy({ itemsPerContentRow[$0.rowID]?.count == 1 }) else { continue }
            let fresh = rows.values.filter { $0.rowGeneration == generation || $0.rowGeneration >= hiddenAt[item] ?? .max }
            guard !fresh.isEmpty else { continue }
            if rows.count == 1, let retagged = fresh.first, !retagged.matchesAPresentItem, itemsPerWeakRow[retagged.rowID]?.count == 1 {
                replaced[item] = retagged
            } else {
                // Another release's audio, several such files, or one another item may be: any of them may be
                // the item retagged (and the copy a copy), or none (and the copy the item moved).
                undecided.insert(item)
            }
        }
        guard !replaced.isEmpty || !undecided.isEmpty else { return (content, []) }
        let kept = content.filter { replaced[$0.vanishedID] == nil && !undecided.contains($0.vanishedID) }
        return (kept + replaced.values.sorted { $0.vanishedID < $1.vanishedID }, undecided)
    }

    /// The same-file candidates, less those whose birth time could not be compared (`MoveCandidate.birthUnknown`:
    /// a row or an item read before schema v24, a file system without birth times) and whose row another
    /// vanished item claims by weaker evidence (`MoveEvidenceRules.doubtOnAReusedInode`): the row may be this
    /// item renamed, or a new file on its freed inode number that is the other item (issue 47, seed 12: the
    /// other release of the deleted file's recording, retagged by a tagger writing a new file in its folder).
    /// Neither is paired: both are possible moves, the rows recorded as doubtful for them.
    private func withoutReusedInodeDoubts(_ candidates: [MoveCandidate], in index: any ScanStore) throws -> [MoveCandidate] {
        let unproven = candidates.filter(\.birthUnknown)
        let rows = Set(unproven.map(\.rowID))
        var weaker: [MoveCandidate] = []
        for kind in MoveEvidenceRules.doubtOnAReusedInode {
            weaker += try index.moveCandidates(for: Array(vanished.values), seeking: Set(vanished.keys), evidence: kind)
                .filter { rows.contains($0.rowID) }
        }
        var doubted: Set<Int64> = []                                    // rows
        for claim in unproven {
            let others = weaker.filter { $0.rowID == claim.rowID && $0.vanishedID != claim.vanishedID }
            guard !others.isEmpty else { continue }
            doubted.insert(claim.rowID)
            for candidate in [claim] + others {
                ambiguous[candidate.vanishedID] = vanished[candidate.vanishedID]?.path
                doubtful.append((candidate.rowID, candidate.vanishedID))
            }
        }
        contestedRows.formUnion(doubted)
        return candidates.filter { !doubted.contains($0.rowID) }
    }

    /// Ends the scan's identity work: folds the moved rows into their items, then removes what is left, in
    /// batches of `batchSize` (each one transaction, so a reader never sees half a fold), stopping between
    /// batches when asked. Returns how many were folded, how many of those rows this scan had added, and how
    /// many items were removed.
    func resolve(in index: any ScanStore, generation: Int64?, everyRootWalked: Bool, weakEvidenceAcrossScans: Bool,
                 beforeRemoving: (([MediaPath]) -> Void)? = nil, batchSize: Int, shouldStop: () -> Bool) throws -> (moved: Int, movedRowsAddedNow: Int, removed: Int, stopped: Bool) {
        guard !vanished.isEmpty else { return (0, 0, 0, false) }
        var moved = 0, addedNow = 0, removed = 0
        // Hidden first, in one transaction: until its fold, a moved file's item and the row the scan added
        // for it would both be listed (`ls --count` gave 53,000-60,000 for 50,000 files during the folds,
        // and after a scan stopped between them). Each fold shows the item again (it takes the row's
        // values); what stays vanished is removed or hidden below, as it would have been.
        try index.hideItems(hiddenAtPairing)
        // Strongest evidence first, each kind sought only for the items still unpaired, and folded before
        // the next is sought: two copies of one file compete for the row with its bytes, and the loser may
        // still be the file retagged elsewhere.
        // What is still vanished is asked afresh at each kind: an item folded by stronger evidence has been
        // found, and is then a candidate for another (a move across roots seen by a partial scan adds a row,
        // retagged and renamed later: that row finds its new path by the same file, then the rated item
        // finds that row by the same audio; issue 24 lost the item when vanished rows were never candidates).
        for evidence in MoveEvidenceRules.order {
            let seeking = Set(vanished.keys)
            guard !seeking.isEmpty else { break }
            var candidates = try index.moveCandidates(for: Array(vanished.values), seeking: seeking, evidence: evidence)
            // The same bytes are the same file whenever they were indexed (a copy, then a delete a day later).
            // Weaker evidence may pair with a row an earlier scan added only when that scan could not have
            // seen the item still there (see `MediaScanner.weakEvidenceAcrossScans`).
            if evidence > .content && !weakEvidenceAcrossScans { candidates.removeAll { $0.rowGeneration != generation } }
            if evidence == .sameFile, candidates.contains(where: \.birthUnknown) {
                candidates = try withoutReusedInodeDoubts(candidates, in: index)
            }
            // Also in a scan that added no file (no generation of its own): a row an earlier scan added since the
            // item was hidden is as much a claim (watch model, seed 18: the watcher left an item on neither file,
            // then a scan of every root that added nothing gave it to the copy by its content).
            if evidence == .content, !candidates.isEmpty {
                let sought = Set(candidates.map(\.vanishedID))
                var weaker: [MoveCandidate] = []
                for kind in MoveEvidenceRules.outrankSameScanCopies where !sought.isEmpty {
                    weaker += try index.moveCandidates(for: doubtWindows, seeking: sought, evidence: kind)
                }
                let preferred = Self.preferringRetaggedOriginals(content: candidates, weaker: weaker, generation: generation,
                                                                 hiddenAt: vanished.compactMapValues { $0.hiddenAt.map { max(0, $0) } })
                candidates = preferred.content
                undecided.formUnion(preferred.undecided)
                doubtful += weaker.filter { preferred.undecided.contains($0.vanishedID) }.map { ($0.rowID, $0.vanishedID) }
                for id in preferred.undecided { ambiguous[id] = vanished[id]?.path }
            }
            let chosen = pairs(among: candidates)
            for start in stride(from: 0, to: chosen.count, by: batchSize) {
                if shouldStop() { return (moved, addedNow, removed, true) }
                let batch = chosen[start..<min(start + batchSize, chosen.count)]
                try index.fold(batch.map { (item: $0.vanishedID, row: $0.rowID) })
                for pair in batch { vanished[pair.vanishedID] = nil; folded.insert(pair.vanishedID) }
                moved += batch.count
                addedNow += batch.filter { $0.rowGeneration == generation }.count
            }
        }
        // What weak evidence left in doubt stays so (`ScanStore.recordUndecidedMoves`), before any removal below.
        try index.recordUndecidedMoves(doubtful.filter { vanished[$0.item] != nil })
        // Said before the removals commit (`MediaScanner.onPossibleMoves`): after them, a kill would leave
        // the user untold of an item that went with its ratings and plays.
        if let beforeRemoving, !unpairedAmbiguous.isEmpty { beforeRemoving(unpairedAmbiguous) }
        // Hidden ones were counted as removed by the scan that hid them.
        let gone = vanished.values.filter { !pairOnly.contains($0.id) }.sorted { $0.id < $1.id }
        for start in stride(from: 0, to: gone.count, by: batchSize) {
            if shouldStop() { return (moved, addedNow, removed, true) }
            let batch = gone[start..<min(start + batchSize, gone.count)]
            if everyRootWalked {
                try index.removeItems(batch.map(\.id))
            } else {
                try index.hideItems(batch.filter { !$0.missing }.map(\.id))
            }
            for item in batch { vanished[item.id] = nil }
            removed += batch.filter { !$0.missing }.count
        }
        return (moved, addedNow, removed, false)
    }
}
