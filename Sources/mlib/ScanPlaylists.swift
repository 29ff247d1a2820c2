import Foundation
import MediaIndex
import MediaModel
import MediaScanner
import Playlists

/// Playlist files found under the roots become playlists in the library, mirrored on every scan: each is
/// read, its entries resolved to indexed items as `mlib playlist import` does, and the playlist tied to that
/// file rewritten only when its items changed. Playlists the user made are never touched (a name already
/// taken gets a suffix); entries outside the library are left out.
enum ScanPlaylists {
    /// Returns how many playlist files were mirrored; unreadable ones are one line each on standard error.
    /// Mirrors of playlist files that are gone from a root walked completely (`completeRoots`) are deleted.
    static func sync(_ files: [MediaPath], into index: any LibraryStore, completeRoots: [MediaPath] = []) -> (synced: Int, failed: Int) {
        var synced = 0, failed = 0
        for file in files {
            do {
                let document = try PlaylistReader.read(contentsOf: file, format: nil)
                let resolved = try PlaylistImporter.resolve(document, in: index)
                try index.syncPlaylist(mirroring: file, name: PlaylistImport.defaultName(file), itemIDs: resolved.itemIDs)
                synced += 1
            } catch {
                printError("\(file): playlist not imported (\(error))")
                failed += 1
            }
        }
        do {
            for name in try index.removeMirrors(under: completeRoots, except: Set(files)) {
                printError("playlist \"\(name)\" removed: its file is gone")
            }
        } catch {
            printError("\(error)")
            failed += 1
        }
        return (synced, failed)
    }
}
