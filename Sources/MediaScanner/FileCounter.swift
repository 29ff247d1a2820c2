import Foundation
import MediaModel
import Synchronization

/// Counts, on a thread of its own, the files a scan of `roots` will find (the same walker and exclude
/// lists), so a first scan, for which the index holds no estimate, shows an ETA once the count is in.
/// Only made when someone watches the progress; reading directories is cheap beside probing the files.
final class FileCounter: Sendable {
    private let state = Mutex<(count: Int, done: Bool, cancelled: Bool)>((0, false, false))

    init(roots: [MediaPath], libraryRoots: [MediaPath], excludes: [String], rootExcludes: [MediaPath: [String]]) {
        let thread = Thread { [self] in
            let walker = TreeWalker(libraryRoots: libraryRoots, excludes: excludes, rootExcludes: rootExcludes)
            for root in roots {
                walker.start(root)
                while let listing = walker.next() {
                    let cancelled = state.withLock { s in s.count += listing.files.count; return s.cancelled }
                    if cancelled { return }
                }
            }
            state.withLock { $0.done = true }
        }
        thread.name = "mlib.scan.count"
        thread.start()
    }

    /// How many files the walk found, once it is done; nil while it runs.
    var total: Int? { state.withLock { $0.done ? $0.count : nil } }

    /// Stops the count at its next directory.
    func cancel() { state.withLock { $0.cancelled = true } }
}
