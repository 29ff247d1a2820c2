import MediaIndex
import MediaModel
import MediaProbe

/// What a scan does with one file it walks, from what the index holds for its path: the one rule the scan
/// (`ScanRun.diff`) and `mlib scan --dry-run` share, so the dry run lists exactly what the scan would read.
public enum FileVerdict: String, Sendable, Codable {
    /// Not in the index at this path: read (or claimed as a move by its inode, when the scan finds one).
    case new
    /// Indexed, and its size, time or inode changed (or it was hidden by a partial scan): read again.
    case changed
    /// Indexed and unchanged, but read by an older reader (`MediaProbe.readerVersion`): read again.
    case reread
    /// A recorded failure that may pass now (permission, I/O, a link): tried again.
    case retry
    /// Nothing to do: the same bytes as indexed (or the same bytes that failed the same way).
    case unchanged

    /// The verdict for `file`, given the indexed item and the recorded failure at its path.
    static func of(_ file: DirectoryListing.File, known: DirectoryState.Item?, failure: FileStamp?,
                   failureCode: String?, failureReaderVersion: Int) -> FileVerdict {
        if let failure {
            let byOlderReader = failureReaderVersion < MediaProbe.readerVersion
            if failure == file.stamp, let failureCode, ScanRun.failuresOfContent.contains(failureCode), !byOlderReader {
                return .unchanged                      // the same bytes fail the same way: not read again
            }
            if failure != file.stamp { return known == nil ? .new : .changed }
            return byOlderReader ? .reread : .retry
        }
        guard let known else { return .new }
        // A hidden item found again is read again: the read clears its hiding.
        if known.stamp == file.stamp && !known.missing {
            return known.readerVersion >= MediaProbe.readerVersion ? .unchanged : .reread
        }
        return .changed
    }
}
