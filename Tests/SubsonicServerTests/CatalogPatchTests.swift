import Foundation
@testable import Library
import MediaModel
@testable import SubsonicServer
import Testing

/// The API's catalog over a patched view (issue 44): kept from the previous catalog when no grouping field
/// changed (a rating, a play, a title, a track number), with only the changed songs' search texts and their
/// albums' order redone, and in every case equal to the catalog derived whole from the same view.
struct CatalogPatchTests {
    static func item(_ n: Int, album: String, track: Int) -> MediaItem {
        var item = MediaItem(path: MediaPath("/m/\(album)/\(n).flac"))
        item.persistentID = Int64(n + 1)
        item.title = "Song \(n)"
        item.artist = "Artist \(n % 3)"
        item.albumArtist = "Band"
        item.albumTitle = album
        item.genre = n % 2 == 0 ? "Rock" : "Jazz; Soul"
        item[.albumTrackNumber] = .integer(Int64(track))
        item[.year] = .integer(1990)
        item[.playbackDuration] = .real(100)
        return item
    }

    static func snapshot(_ items: [MediaItem]) -> LibrarySnapshot {
        LibrarySnapshot(schema: .subsonic, version: nil, roots: [MediaPath("/m")]) { body in items.forEach(body) }
    }

    /// Everything the API lists from a catalog, compared with a catalog derived whole.
    static func expectSame(_ a: Catalog, _ b: Catalog, _ context: String) {
        #expect(a.albums.map { [$0.id, $0.name, $0.artist, "\($0.items)", "\($0.year ?? 0)", $0.genre ?? ""] }
                == b.albums.map { [$0.id, $0.name, $0.artist, "\($0.items)", "\($0.year ?? 0)", $0.genre ?? ""] }, "\(context)")
        #expect(a.albumOfItem == b.albumOfItem, "\(context)")
        #expect(a.artists.map { "\($0.id) \($0.albums)" } == b.artists.map { "\($0.id) \($0.albums)" }, "\(context)")
        #expect(a.genres.map { "\($0.name) \($0.items) \($0.albumCount)" } == b.genres.map { "\($0.name) \($0.items) \($0.albumCount)" }, "\(context)")
        #expect(a.songSearchText == b.songSearchText && a.albumSearchText == b.albumSearchText, "\(context)")
        #expect(a.artistSearchText == b.artistSearchText, "\(context)")
    }

    @Test func ratingsTitlesAndTrackNumbersKeepTheCatalogAndAlbumsDoNot() throws {
        let items = (0..<9).map { Self.item($0, album: $0 < 5 ? "Alpha" : "Beta", track: $0 % 5 + 1) }
        let old = Self.snapshot(items)
        let first = Catalog(old)
        #expect(!first.reused)
        var rated = items[2]; rated[.rating] = .integer(5)
        var retitled = items[6]; retitled.title = "Zebra Crossing"; retitled.artist = "Someone Else"
        var renumbered = items[0]; renumbered[.albumTrackNumber] = .integer(9)
        var moved = items[3]; moved.albumTitle = "Gamma"
        for (name, written, kept) in [("rating", rated, true), ("title and artist", retitled, true),
                                      ("track number", renumbered, true), ("album", moved, false)] {
            let new = old.applying(ViewChanges(upserted: [written], removed: []), version: nil)
            try #require(new.lineage != nil, "\(name): the view is patched")
            let catalog = Catalog(new, following: first)
            #expect(catalog.reused == kept, "\(name)")
            Self.expectSame(catalog, Catalog(new), name)
        }
        // The kept catalog finds the new title; the old text is gone.
        let new = old.applying(ViewChanges(upserted: [retitled], removed: []), version: nil)
        let catalog = Catalog(new, following: first)
        #expect(catalog.songSearchText[6].contains("zebra crossing"))
    }
}
