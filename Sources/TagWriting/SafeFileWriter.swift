import Glibc
import MediaModel

/// Puts a rendered tag edit on disk so that the file is always wholly its old bytes or wholly its new ones.
///
/// - Patches (the new tag fits in the old one's space): the old bytes of the ranges go to the undo journal
///   (fsynced) first, then the new bytes are written in place and fsynced, then the journal entry goes.
///   A crash in between leaves an entry the next mlib command uses to write the old bytes back.
/// - New content (another length): a copy beside the file (same directory, hidden temporary name) gets the
///   new bytes, the file's mode, owner and access time, is fsynced and renamed over the file. A crash leaves
///   the original untouched and a `pending` entry that makes the next mlib command remove the copy.
/// Both refuse a read-only file and one that changed since it was read (device, inode, size, mtime).
/// Files are written in groups (`Group`), each group's fsyncs paid once.
struct SafeFileWriter {
    let journal: TagJournal
    /// The check's read after a write makes the content identity too (`TagWriter.readsForRefresh`).
    var readsForRefresh = false

    enum Method: String, Sendable { case unchanged, inPlace = "in place", rewritten }

    /// Writes `rendering` over `path`, which was read as `original`. Returns the method and the bytes written.
    /// (A group of one: see `Group` for the order of writes and fsyncs.)
    func write(_ rendering: TagFile.Rendering, to path: MediaPath, original: FileIdentity) throws -> (Method, Int) {
        let group = Group(writer: self, paths: [path])
        group.add(0, rendering, to: path, original: original)
        switch group.commit()[0] {
        case .success(let result)?: return result
        case .failure(let error)?: throw error
        case nil: return (.unchanged, 0)
        }
    }
}
