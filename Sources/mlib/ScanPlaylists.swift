import Library

/// The playlist mirroring that follows `mlib scan` and each `mlib watch` scan (done by `Library.scan`),
/// reported on standard error.
enum ScanPlaylists {
    /// Prints each failure and each mirror removed (its file is gone) as one line on standard error;
    /// returns how many playlist files were mirrored and how many failed.
    static func report(_ report: PlaylistMirror.Report) -> (synced: Int, failed: Int) {
        for (file, message) in report.failures {
            printError(file.map { "\($0): playlist not imported (\(message))" } ?? message)
        }
        for name in report.removed { printError("playlist \"\(name)\" removed: its file is gone") }
        return (report.synced, report.failures.count)
    }
}
