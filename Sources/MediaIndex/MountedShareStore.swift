import MediaModel

/// A share's store (`PostgresIndex.shareStore`) as the scanner of a host that mounts the share elsewhere
/// than where its rows are stored (`SharedRoot.isRelocated`): every path the scanner gives is turned into
/// the stored one, every stored path it is given back into this host's (`SharedRoot.local`/`stored`). The
/// scanner's rules (moves keep ids, an unmounted root removes nothing) then hold for the share's one set of
/// rows whichever host scans, at whatever mount point.
public struct MountedShareStore: ScanStore {
    public let base: any ScanStore
    public let share: SharedRoot

    public init(_ base: any ScanStore, share: SharedRoot) {
        self.base = base
        self.share = share
    }

    private func stored(_ path: MediaPath) -> MediaPath { share.stored(path) }
    private func local(_ path: MediaPath) -> MediaPath { share.local(path) }

    public func readingConnection() throws -> any ScanStore { MountedShareStore(try base.readingConnection(), share: share) }

    public func rootStates() throws -> [RootState] {
        try base.rootStates().map { var root = $0; root.path = local(root.path); return root }
    }
    public func itemCount(under root: MediaPath) throws -> Int { try base.itemCount(under: stored(root)) }
    public func itemCount(under root: MediaPath, readBefore readerVersion: Int) throws -> Int {
        try base.itemCount(under: stored(root), readBefore: readerVersion)
    }
    public func isEmpty() throws -> Bool { try base.isEmpty() }

    public func directoryState(_ directory: MediaPath) throws -> DirectoryState {
        let found = try base.directoryState(stored(directory))
        var state = DirectoryState()
        state.items = Dictionary(found.items.map { (local($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        state.failures = Dictionary(found.failures.map { (local($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        state.failureCodes = Dictionary(found.failureCodes.map { (local($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        state.failureReaderVersions = Dictionary(found.failureReaderVersions.map { (local($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        return state
    }

    public func indexedDirectories(under root: MediaPath) throws -> [MediaPath] {
        try base.indexedDirectories(under: stored(root)).map(local)
    }

    public func items(withInodes inodes: [Int64]) throws -> [Int64: [InodeMatch]] {
        try base.items(withInodes: inodes).mapValues { $0.map { var m = $0; m.path = local(m.path); return m } }
    }

    public func mounts(under root: MediaPath) throws -> [MountPoint] {
        try base.mounts(under: stored(root)).map { MountPoint(path: local($0.path), device: $0.device) }
    }

    public func lyricsSidecars(under root: MediaPath) throws -> [Int64: [SidecarStamp]] {
        try base.lyricsSidecars(under: stored(root))
    }

    public func hiddenItems() throws -> [VanishedItem] {
        try base.hiddenItems().map { var item = $0; item.path = local(item.path); return item }
    }

    public func currentGeneration() throws -> Int64 { try base.currentGeneration() }
    public func newGeneration() throws -> Int64 { try base.newGeneration() }

    public func apply(_ changes: [ScanChange], generation: Int64?) throws {
        try base.apply(changes.map(storing), generation: generation)
    }

    /// A change as the share's rows hold it.
    private func storing(_ change: ScanChange) -> ScanChange {
        switch change {
        case let .add(item, stamp, fingerprint, device, ends, reader, hidden, birth):
            var item = item
            item.path = stored(item.path)
            return .add(item, stamp, fingerprint: fingerprint, device: device, ends: ends, reader: reader, hidden: hidden, birth: birth)
        case let .update(id, item, stamp, fingerprint, device, ends, reader, birth):
            var item = item
            item.path = stored(item.path)
            return .update(id: id, item, stamp, fingerprint: fingerprint, device: device, ends: ends, reader: reader, birth: birth)
        case let .move(id, to):
            return .move(id: id, to: stored(to))
        case let .fail(path, stamp, code, message, reader):
            return .fail(stored(path), stamp, code: code, message: message, reader: reader)
        case let .removeFailure(path):
            return .removeFailure(stored(path))
        case let .lyrics(path, id, lyrics):
            return .lyrics(stored(path), id: id, lyrics)
        }
    }

    public func moveCandidates(for vanished: [VanishedItem], seeking: Set<Int64>?, evidence: MoveCandidate.Evidence) throws -> [MoveCandidate] {
        let asStored = vanished.map { var item = $0; item.path = stored(item.path); return item }
        return try base.moveCandidates(for: asStored, seeking: seeking, evidence: evidence).map {
            var candidate = $0
            candidate.rowPath = local(candidate.rowPath)
            return candidate
        }
    }

    public func fold(_ pairs: [(item: Int64, row: Int64)]) throws { try base.fold(pairs) }
    public func recordUndecidedMoves(_ pairs: [(row: Int64, item: Int64)]) throws { try base.recordUndecidedMoves(pairs) }
    public func recordPossibleMoves(generation: Int64, vanished: [Int64], isGone: (MediaPath) -> Bool) throws {
        try base.recordPossibleMoves(generation: generation, vanished: vanished, isGone: { isGone(local($0)) })
    }
    public func removeItems(_ ids: [Int64]) throws { try base.removeItems(ids) }
    public func hideItems(_ ids: [Int64]) throws { try base.hideItems(ids) }
    public func hideItems(_ ids: [Int64], showingRowsOf generation: Int64?) throws { try base.hideItems(ids, showingRowsOf: generation) }

    public func completeWalk(of root: MediaPath, generation: Int64, mounts: [MountPoint]) throws {
        try base.completeWalk(of: stored(root), generation: generation,
                              mounts: mounts.map { MountPoint(path: stored($0.path), device: $0.device) })
    }
}
