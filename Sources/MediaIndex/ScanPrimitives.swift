import Foundation
import MediaModel

// The vocabulary of the store's scanning primitives. The policy that uses them (what is a move, what may be
// removed, what keeps an item's identity) lives in MediaScanner, so that every store inherits it.

/// What the scanner remembers of a file to tell, without reading it, whether it changed.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var inode: Int64
    public init(size: Int64, mtimeNanoseconds: Int64, inode: Int64) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
    }
}

/// The index's view of one directory: its items and its recorded failures, by path.
public struct DirectoryState: Sendable {
    public struct Item: Sendable {
        public var id: Int64
        public var stamp: FileStamp
        public var fingerprint: Int64?
        /// Hidden by an earlier partial scan that could not find it (see `SQLiteIndex.hideItems`).
        public var missing = false
        /// The generation that added it: it cannot have moved to a row older than itself.
        public var addedGeneration: Int64 = 0
        /// The reader version (`MediaProbe.readerVersion`) that read it; 0 for an mlib that did not record it.
        public var readerVersion = 0
            package init(id: Int64, stamp: FileStamp, fingerprint: Int64?, missing: Bool = false, addedGeneration: Int64 = 0,
                     readerVersion: Int = 0) {
            self.id = id
            self.stamp = stamp
            self.fingerprint = fingerprint
            self.missing = missing
            self.addedGeneration = addedGeneration
            self.readerVersion = readerVersion
        }
}
    public var items: [MediaPath: Item] = [:]
    public var failures: [MediaPath: FileStamp] = [:]
    /// Each failure's code (`ProbeError.code`): the scanner retries some at every scan, others only once
    /// the file changed.
    public var failureCodes: [MediaPath: String] = [:]
    /// The reader version that recorded each failure (0: not recorded): a newer reader may read the file.
    public var failureReaderVersions: [MediaPath: Int] = [:]
    public var isEmpty: Bool { items.isEmpty && failures.isEmpty }
    public init() {}
}

/// An indexed item that has the inode of a file the scan found at a path the index does not know: the same
/// file renamed, if its old path is gone, and its device, size and mtime are the same (see `Moves`).
public struct InodeMatch: Sendable, Hashable {
    public var id: Int64
    public var path: MediaPath
    public var stamp: FileStamp
    public var device: Int64?
    package init(id: Int64, path: MediaPath, stamp: FileStamp, device: Int64?) {
        self.id = id
        self.path = path
        self.stamp = stamp
        self.device = device
    }
}

/// An indexed file that was not found by this scan: removed, unless a new row is the same file moved.
public struct VanishedItem: Sendable, Hashable {
    public var id: Int64
    public var path: MediaPath
    public var size: Int64
    public var fingerprint: Int64?
    /// Rows added after this generation may be where it went: its root's last complete walk, or the
    /// generation that added the item, whichever is later.
    public var window: Int64
    /// Already hidden by an earlier partial scan.
    public var missing: Bool
    /// The generation of the scan that hid it (found it gone), when `missing`: a row added since may be it.
    public var hiddenAt: Int64?
    public init(id: Int64, path: MediaPath, size: Int64, fingerprint: Int64?, window: Int64 = 0, missing: Bool = false,
                hiddenAt: Int64? = nil) {
        self.id = id
        self.path = path
        self.size = size
        self.fingerprint = fingerprint
        self.window = window
        self.missing = missing
        self.hiddenAt = hiddenAt
    }
}

/// A row that a vanished item may have become, and the evidence for it.
public struct MoveCandidate: Sendable, Hashable {
    public enum Evidence: Int, Sendable, Comparable, CaseIterable {
        /// The same inode and device, birth time (where both are known), container, audio stream and duration,
        /// and the same first or last 16 KiB (not zeros): the file itself, retagged in place
        /// and renamed (its mtime changed, so the walk could not claim it). Before `content`: a copy of the
        /// file made before the retag has its old bytes, but it is the copy.
        case sameFile = 0
        /// The same size and fingerprint (head and tail bytes): the same file, copied or moved.
        case content = 1
        /// The same first or last 16 KiB (not zeros), container, audio stream and duration (within 50 ms),
        /// unique among the candidates: the same audio under new
        /// tags (tags sit at one end), retagged and renamed, in place or by a tagger that writes a new file.
        case audio = 2
        /// The same first 16 KiB of audio payload (after the head's tags; not zeros), container, audio stream
        /// and duration (within 50 ms), in the same folder, unique among the candidates: the same audio under
        /// new tags written at both ends (ID3v2 and ID3v1, an AIFF's FORM header and ID3 chunk, a remuxed
        /// Matroska file), renamed.
        case payload = 3
        /// The same MusicBrainz recording ID.
        case musicBrainz = 4
        /// The same title, artist, album, container and duration (within a second): a retag and a rename.
        case tags = 5
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }
    public var vanishedID: Int64
    public var rowID: Int64
    public var rowPath: MediaPath
    /// The generation that added the row (a row of this scan's own generation was counted as added).
    public var rowGeneration: Int64
    public var evidence: Evidence
    /// The row matches, by the same weak evidence, an item that is still there (not vanished, not hidden,
    /// not an exact copy of the vanished item): another release of the same recording. The evidence then
    /// says nothing about which of the two the row is, so it pairs nothing (issue 47; `Moves.pairs`).
    public var matchesAPresentItem: Bool
    /// For `.sameFile`: the row's or the item's birth time is not known (a row read before schema v24, a
    /// file system without one), so the inode may be a deleted file's number reused by a new file, which
    /// the birth time would have told (`Moves`: such a claim yields to another vanished item's weaker one).
    public var birthUnknown: Bool
    package init(vanishedID: Int64, rowID: Int64, rowPath: MediaPath, rowGeneration: Int64, evidence: Evidence,
                 matchesAPresentItem: Bool = false, birthUnknown: Bool = false) {
        self.vanishedID = vanishedID
        self.rowID = rowID
        self.rowPath = rowPath
        self.rowGeneration = rowGeneration
        self.evidence = evidence
        self.matchesAPresentItem = matchesAPresentItem
        self.birthUnknown = birthUnknown
    }
}

/// Hashes of a file's first and last 16 KiB apart: a retag rewrites one end and leaves the other. And the
/// hash of the first 16 KiB of its audio payload (`AudioPayload`), which a retag that rewrites both ends
/// leaves as it was; nil for a format it does not cover or a payload of zeros.
public struct EndHashes: Sendable, Hashable {
    public var head: Int64
    public var tail: Int64
    public var payload: Int64?
    public init(head: Int64, tail: Int64, payload: Int64? = nil) {
        self.head = head
        self.tail = tail
        self.payload = payload
    }
}

/// One edit from a scan. The scanner sends them in batches; each batch is one transaction.
/// `reader` is the version of the reader that read the file (`MediaProbe.readerVersion`; nil: unknown, as
/// an mlib that did not record it), stored so that a newer reader knows which files to read again.
public enum ScanChange: Sendable {
    /// A new file (or, after an interrupted scan, one already there: then it is refreshed like `update`).
    /// `hidden`: written out of every query (`missing_gen` = minus the row's generation) until the scan
    /// shows it (`ScanStore.hideItems(_:showingRowsOf:)`), in the transaction that hides the items that
    /// vanished: a file moved by a rescan is then never listed twice, by its item and by its new row, also
    /// when the scan is killed before its pairing (issue 24 case 5).
    /// `birth`: the file's birth time (nanoseconds; nil where the file system does not give it), which tells
    /// the file renamed from a new file on its reused inode (`MoveEvidenceRules`' `.sameFile`).
    case add(MediaItem, FileStamp, fingerprint: Int64, device: Int64? = nil, ends: EndHashes? = nil, reader: Int? = nil,
             hidden: Bool = false, birth: Int64? = nil)
    /// A known file that changed (possibly at a new path: a rename seen by its inode), or one an older reader
    /// read: file-derived columns are rewritten, user data is not.
    case update(id: Int64, MediaItem, FileStamp, fingerprint: Int64, device: Int64? = nil, ends: EndHashes? = nil,
                reader: Int? = nil, birth: Int64? = nil)
    /// A known file renamed and otherwise unchanged (same size, mtime and inode): only its path changes.
    case move(id: Int64, to: MediaPath)
    /// A file that could not be read. If it is indexed, its row keeps its metadata and is flagged.
    case fail(MediaPath, FileStamp, code: String, message: String, reader: Int? = nil)
    /// A failure record whose file is gone.
    case removeFailure(MediaPath)
    /// The lyrics read with the file at `path` (its `.add` or `.update` comes before, in the same batch),
    /// replacing what its item held (`id`: the item, for a known file; nil: a new row, found by its path).
    case lyrics(MediaPath, id: Int64?, [StoredLyrics])
}

/// A file a scan could not read, as recorded.
public struct ScanFailure: Sendable, Hashable {
    public var path: MediaPath
    public var code: String
    public var message: String
    public var size: Int64
    /// Set when the file is indexed: its row keeps the metadata of its last good read.
    public var itemID: Int64?
    public var seen: Date
    package init(path: MediaPath, code: String, message: String, size: Int64, itemID: Int64?, seen: Date) {
        self.path = path
        self.code = code
        self.message = message
        self.size = size
        self.itemID = itemID
        self.seen = seen
    }
}

/// A library root and the generation of its last complete walk.
public struct RootState: Sendable, Hashable {
    public var path: MediaPath
    public var completeGeneration: Int64
    /// The root's stored exclude list (`mlib root exclude`): patterns as in a .mlibignore at the root.
    public var excludes: [String] = []
    package init(path: MediaPath, completeGeneration: Int64, excludes: [String] = []) {
        self.path = path
        self.completeGeneration = completeGeneration
        self.excludes = excludes
    }
}

/// A directory under a root that is the top of another file system.
public struct MountPoint: Sendable, Hashable {
    public var path: MediaPath
    public var device: Int64
    public init(path: MediaPath, device: Int64) {
        self.path = path
        self.device = device
    }
}
