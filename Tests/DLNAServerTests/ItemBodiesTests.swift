@testable import DLNAServer
import Foundation
import Library
import MediaIndex
import TestSupport
import Testing

/// An audio item's DIDL-Lite body is written once per tree, base URL and renderer (`ItemBodies`) and then
/// copied into every page that lists the item, under that page's ids: the same bytes as writing it afresh.
@Suite struct ItemBodiesTests {
    private func browse(_ id: String) -> SOAPCall {
        SOAPCall(action: "Browse", arguments: ["ObjectID": id, "BrowseFlag": "BrowseDirectChildren", "Filter": "*",
                                               "StartingIndex": "0", "RequestedCount": "50", "SortCriteria": ""])
    }

    @Test func aKeptBodyIsTheBodyWrittenAfresh() throws {
        let scratch = try ScratchLibrary("mlib-dlna-bodies")
        defer { scratch.remove() }
        try scratch.copyFixture("mp3-id3v24.mp3", as: "a/one.mp3")
        try scratch.copyFixture("flac-vorbis-cover.flac", as: "a/two.flac")
        try scratch.copyFixture("video-h264-aac.mp4", as: "films/film.mp4")
        try scratch.scan(["-q"])
        let library = try Library.open(LibraryLocator(scratch.sqliteFile.path))
        let view = try LiveView(store: library.store, schema: .dlna)
        func directory(_ tree: MediaTree, renderer: RendererProfile = .standard) -> ContentDirectory {
            ContentDirectory(nodes: TreeNodes(tree: tree, playlists: { [] }, playlistItems: { _ in [] }),
                             writer: DIDLWriter(tree: tree, baseURL: "http://x", covers: library.covers, renderer: renderer)) { _ in [] }
        }
        let tree = MediaTree(view.snapshot, base: 0, updateID: 1)
        let first = try directory(tree).call(browse("1$all"))
        let standard = tree.itemBodies.store(for: ItemBodies.Variant(baseURL: "http://x", renderer: .standard))
        #expect(standard.count == 2, "both songs' bodies kept")
        // The same page again, and the songs under other containers (other ids, the same bodies), equal what a
        // tree with nothing kept writes.
        #expect(try directory(tree).call(browse("1$all")).map(\.1) == first.map(\.1))
        for id in ["1$all", "0", "2$all"] {
            let fresh = MediaTree(view.snapshot, base: 0, updateID: 1)
            #expect(try directory(tree).call(browse(id)).map(\.1) == directory(fresh).call(browse(id)).map(\.1), "\(id)")
        }
        // A video's body names sidecar subtitles looked up on disk: never kept.
        _ = try directory(tree).call(browse("2$all"))
        #expect(standard.count == 2)
        // Another renderer's bodies (its transcodes) are its own.
        let ps3 = try #require(RendererProfile.table.first { $0.name == "PlayStation 3" })
        let forPS3 = try directory(tree, renderer: ps3).call(browse("1$all"))
        let fresh = MediaTree(view.snapshot, base: 0, updateID: 1)
        #expect(forPS3.map(\.1) == (try directory(fresh, renderer: ps3).call(browse("1$all"))).map(\.1))
        #expect(forPS3.map(\.1) != first.map(\.1))
    }
}
