import Glibc
import MediaModel
import MediaProbe

/// The media files a scan would find under a directory, for commands that read files without indexing them
/// (`mlib info DIR`, as mediainfo descends into a folder). The scan's own walker, so the same files: hidden
/// entries, exclude files (.mlibignore, .mpdignore) and non-media names are left out quietly; symlinks are
/// followed and every file is listed once.
public struct MediaFileListing: Sendable {
    /// The media files in path byte order (the whole tree sorted, not directory by directory). A dangling
    /// link with a media name is listed too, as a scan records it: reading it says why it failed.
    public var files: [MediaPath] = []
    /// The directories that could not be read, in path order.
    public var unreadableDirectories: [ProbeError] = []

    public init(under directory: MediaPath) {
        let walker = TreeWalker()
        walker.start(directory)
        while let listing = walker.next() { files += listing.files.map(\.path) }
        files.sort()
        unreadableDirectories = walker.unreadable.sorted { $0.path < $1.path }.map { dir in
            dir.reason == String(cString: strerror(EACCES)) ? .permissionDenied(dir.path) : .io(dir.path, reason: dir.reason)
        }
    }
}
