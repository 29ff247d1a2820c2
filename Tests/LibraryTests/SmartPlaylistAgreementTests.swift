import Foundation
import Library
import MediaIndex
import MediaModel
import Testing

/// One smart-playlist evaluator: `mlib playlist show`, `mlib ls --group playlists` and a Swift program list
/// the same items, with `--limit` and no `--sort` too (the default order decides which items are in it).
struct SmartPlaylistAgreementTests {
    static let fixtures = ["flac-vorbis-cover.flac", "m4a-aac-cover.m4a", "aiff-id3.aiff", "opus.opus", "mp3-id3v24.mp3"]

    @Test func playlistShowAndLsGroupPlaylistsListTheSameItems() throws {
        let folder = try TemporaryLibrary("smart", copying: Self.fixtures)
        defer { folder.remove() }
        try folder.mlib(["scan", "--quiet", folder.music.path])
        // Four items by The Fixtures: the first two by title (AIFF Song, Compilation Track) are not the first
        // two in the default order (Compilation Track, Fixture Song: album order within the artist).
        try folder.mlib(["playlist", "smart", "Two", "artist:fixtures", "--limit", "2"])

        let shown = try JSONSerialization.jsonObject(with: folder.mlib(["playlist", "show", "Two", "--json"]).stdout) as? [[String: Any]]
        let shownPaths = try #require(shown).compactMap { $0["path"] as? String }
        #expect(shownPaths.map { URL(fileURLWithPath: $0).lastPathComponent } == ["m4a-aac-cover.m4a", "flac-vorbis-cover.flac"])

        let grouped = try JSONSerialization.jsonObject(with: folder.mlib(["ls", "--group", "playlists", "--json"]).stdout) as? [[String: Any]]
        let two = try #require(grouped?.first { $0["name"] as? String == "Two" })
        #expect(two["count"] as? Int == shownPaths.count)
        #expect((two["representativeItem"] as? [String: Any])?["path"] as? String == shownPaths.first)

        let library = try Library.open(.sqlite(path: folder.library))
        let items = try #require(try library.items(ofPlaylist: "Two"))
        #expect(items.map(\.path.string) == shownPaths)
        let collections = try library.playlistCollections(MediaQuery(grouping: .playlist))
        #expect(collections.first { $0.name == "Two" }?.items.map(\.path.string) == shownPaths)
    }

    /// A rule stored in the short form (as a Swift program or an older mlib may store it) is read as
    /// `mlib ls` reads its arguments, in the one default order.
    @Test func aRuleInTheShortFormIsReadAndOrderedAsTheFormatForm() throws {
        let short = try PlaylistContents.query(SmartPlaylistRule(predicate: "artist:fixtures year:2000..", limit: 3))
        let format = try PlaylistContents.query(SmartPlaylistRule(predicate: #"artist CONTAINS[cd] "fixtures" AND year >= 2000"#, limit: 3))
        #expect(short.filter == format.filter)
        #expect(short.sort == (try SortDescriptor.parseList(PlaylistContents.defaultSort)))
        #expect(short.limit == 3)
        #expect(try PlaylistContents.query(SmartPlaylistRule(predicate: " ")).filter == .all)
    }
}
