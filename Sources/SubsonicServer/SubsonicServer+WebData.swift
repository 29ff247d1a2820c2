import Foundation
import Library
import MediaIndex

/// A song as the web app's JSON API gives it (WEBAPP-CONTRACT.md, "Songs in answers"): the ids are the
/// Subsonic API's, so the page goes on with `getAlbum`, `stream`, `getCoverArt` and `jukeboxControl`.
package struct WebSong: Encodable, Sendable, Equatable {
    package var id: String
    package var title: String
    package var artist: String
    package var album: String
    package var albumId: String
    package var track: Int?
    package var disc: Int?
    package var year: Int?
    package var duration: Double
    package var suffix: String
    package var coverArt: String
    /// The audio codec as the index names it (`alac`, `aac`, `flac`…), and the bits per sample when known.
    package var codec: String?
    package var bitDepth: Int?
}

/// The library's figures for the web app's status page.
package struct WebLibraryStatus: Sendable {
    package var scanning: Bool
    package var items: Int
    package var albums: Int
    package var artists: Int
}

// What the web app (the WebApp module) reads of the API server: songs from the catalog, so that the page
// and the Subsonic calls it makes agree on ids, titles and albums; the scan the API starts.
extension SubsonicServer {
    /// The songs of these library item ids, in that order; ids the view does not hold are left out.
    package func webSongs(ids: [Int64]) -> [WebSong] {
        let catalog = self.catalog
        return ids.compactMap { catalog.itemByID[$0] }.map { Self.webSong($0, catalog) }
    }

    private static func webSong(_ item: Int32, _ catalog: Catalog) -> WebSong {
        typealias S = Catalog.Slot
        let view = catalog.view
        let id = String(view.ids[Int(item)])
        let path = view.paths[Int(item)]
        let album = catalog.albums[Int(catalog.albumOfItem[Int(item)])]
        return WebSong(id: id, title: catalog.value(item, S.title) ?? path.lastComponent.string,
                       artist: catalog.value(item, S.artist) ?? Catalog.unknownArtist, album: album.name, albumId: album.id,
                       track: catalog.int(item, S.track), disc: catalog.int(item, S.disc), year: catalog.int(item, S.year),
                       duration: view.durations[Int(item)], suffix: path.fileExtension.lowercased(), coverArt: id,
                       codec: catalog.value(item, S.codec), bitDepth: catalog.int(item, S.bitDepth))
    }

    package var webLibraryStatus: WebLibraryStatus {
        let catalog = self.catalog
        return WebLibraryStatus(scanning: state.withLock { $0.scanning }, items: catalog.view.count,
                                albums: catalog.albums.count, artists: catalog.artists.count)
    }

    /// Starts a scan of the library's roots in the background (`startScan`'s); false when one runs already.
    @discardableResult
    package func startScan() -> Bool {
        let start = state.withLock { state -> Bool in
            guard !state.scanning else { return false }
            state.scanning = true
            state.scanCount = 0
            return true
        }
        guard start else { return false }
        Task.detached { [self] in
            var options = Library.ScanOptions()
            options.progress = { progress in self.state.withLock { $0.scanCount = progress.filesSeen } }
            _ = try? await library.scan([], options: options)
            await view.refreshed()
            state.withLock { $0.scanning = false }
        }
        return true
    }
}
