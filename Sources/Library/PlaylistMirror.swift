import MediaIndex
import MediaModel
import Playlists

/// Playlist files found under the roots become playlists in the library, mirrored after every scan
/// (`mlib scan`, `mlib watch`, and `update` in `mlib serve`): each is read, its entries resolved to
/// indexed items as `mlib playlist import` does, and the playlist tied to that file rewritten only when
/// its items changed. Playlists the user made are never touched (a name already taken gets a suffix);
/// entries outside the library are left out.
public enum PlaylistMirror {
    public struct Report: Sendable {
        /// Playlist files mirrored.
        public var synced = 0
        /// Of those, the mirrors created or whose entries changed (what a scan's summary line mentions).
        public var changed = 0
        /// Files that could not be read or stored, with why; and a failure to remove old mirrors (no path).
        public var failures: [(file: MediaPath?, message: String)] = []
        /// Mirrors deleted because their file is gone.
        public var removed: [String] = []
    }

    /// Mirrors `files` (a scan's `playlistFiles`). Mirrors of playlist files that are gone from a root
    /// walked completely (`completeRoots`) are deleted.
    public static func sync(_ files: [MediaPath], into store: any LibraryStore, completeRoots: [MediaPath] = []) -> Report {
        var report = Report()
        for file in files {
            do {
                let document = try PlaylistReader.read(contentsOf: file, format: nil)
                let resolved = try PlaylistImporter.resolve(document, in: store)
                if try store.syncPlaylist(mirroring: file, name: PlaylistImporter.defaultName(file), itemIDs: resolved.itemIDs).changed {
                    report.changed += 1
                }
                report.synced += 1
            } catch {
                report.failures.append((file, "\(error)"))
            }
        }
        do {
            report.removed = try store.removeMirrors(under: completeRoots, except: Set(files))
        } catch {
            report.failures.append((nil, "\(error)"))
        }
        return report
    }
}
