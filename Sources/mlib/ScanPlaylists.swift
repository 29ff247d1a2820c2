import Library
import MediaIndex
import MediaModel

/// The playlist mirroring that follows `mlib scan` and each `mlib watch` scan (`PlaylistMirror`, in the
/// Library module, which `mlib serve` runs too), reported on standard error.
enum ScanPlaylists {
    /// Returns how many playlist files were mirrored and how many failed; each failure and each mirror
    /// removed (its file is gone) is one line on standard error.
    static func sync(_ files: [MediaPath], into index: any LibraryStore, completeRoots: [MediaPath] = []) -> (synced: Int, failed: Int) {
        let report = PlaylistMirror.sync(files, into: index, completeRoots: completeRoots)
        for (file, message) in report.failures {
            printError(file.map { "\($0): playlist not imported (\(message))" } ?? message)
        }
        for name in report.removed { printError("playlist \"\(name)\" removed: its file is gone") }
        return (report.synced, report.failures.count)
    }
}
