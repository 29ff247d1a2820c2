@testable import DLNAServer
import Foundation
import Library
import MediaIndex
import TestSupport
import Testing

/// A Browse of one page makes that page's objects, not the whole container's: All Tracks of 41 items,
/// asked for 2 at a time, makes 2 item objects a call (made for every item at every page, a walk of a big
/// container in pages cost the container's size per page: most of a Browse's CPU at 20k). Counted by
/// `TreeChildren.made`, not timed; sorted pages still make every child (they must be sorted first).
@Suite(.serialized) struct BrowseWorkTests {
    @Test func aPageMakesItsOwnObjectsOnly() throws {
        let scratch = try ScratchLibrary("mlib-dlna")
        defer { scratch.remove() }
        try scratch.copyFixture("mp3-id3v24.mp3", as: "sub/deeper.mp3")
        for n in 1...40 { try scratch.copyFixture("mp3-id3v24.mp3", as: "track-\(n).mp3") }
        try scratch.scan(["-q"])
        let library = try Library.open(LibraryLocator(scratch.sqliteFile.path))
        let view = try LiveView(store: library.store, schema: .dlna)
        let tree = MediaTree(view.snapshot, base: 0, updateID: 1)
        let nodes = TreeNodes(tree: tree, playlists: { [] }, playlistItems: { _ in [] })
        let directory = ContentDirectory(nodes: nodes, writer: DIDLWriter(tree: tree, baseURL: "http://x", covers: library.covers)) { _ in [] }
        func browse(_ id: String, start: Int, count: Int, sort: String = "") throws -> (made: Int, returned: String?, total: String?) {
            let before = TreeChildren.made.load(ordering: .relaxed)
            let out = try directory.call(SOAPCall(action: "Browse", arguments: [
                "ObjectID": id, "BrowseFlag": "BrowseDirectChildren", "Filter": "*", "StartingIndex": String(start),
                "RequestedCount": String(count), "SortCriteria": sort]))
            let values = Dictionary(out.map { ($0.0, $0.1.read) }, uniquingKeysWith: { a, _ in a })
            return (TreeChildren.made.load(ordering: .relaxed) - before, values["NumberReturned"], values["TotalMatches"])
        }
        let first = try browse("1$all", start: 0, count: 2)
        #expect(first.returned == "2" && first.total == "41")
        #expect(first.made == 2, "a page of 2 made \(first.made) objects")
        let last = try browse("1$all", start: 39, count: 10)
        #expect(last.returned == "2" && last.made == 2, "\(last)")
        #expect(try browse("1$all", start: 41, count: 10).made == 0)
        // Sorted: every child is made to be sorted, and the page is the sorted one.
        let sorted = try browse("1$all", start: 0, count: 2, sort: "+dc:title")
        #expect(sorted.returned == "2" && sorted.made == 41, "\(sorted)")
        // A folder lists its subfolder, then its items (two parts): a page past the first part, and one across both.
        let roots = try directory.call(SOAPCall(action: "Browse", arguments: [
            "ObjectID": "3", "BrowseFlag": "BrowseDirectChildren", "Filter": "*", "StartingIndex": "0", "RequestedCount": "0", "SortCriteria": ""]))
        let didl = try #require(roots.first { $0.0 == "Result" }?.1.read)
        let folder = try #require(didl.firstMatch(of: /container id="(3\$[0-9a-f]+)"/)?.1).description
        let past = try browse(folder, start: 3, count: 3)
        #expect(past.returned == "3" && past.total == "41" && past.made == 3, "\(past)")
        let across = try browse(folder, start: 0, count: 2)
        #expect(across.returned == "2" && across.made == 2, "\(across)")
        // Metadata of one item: found in its listing without making the listing's objects.
        let item = try directory.call(SOAPCall(action: "Browse", arguments: [
            "ObjectID": "1$all$i\(tree.view.ids[0])", "BrowseFlag": "BrowseMetadata", "Filter": "*", "StartingIndex": "0",
            "RequestedCount": "0", "SortCriteria": ""]))
        #expect(item.first { $0.0 == "NumberReturned" }?.1.read == "1")
        #expect(throws: UPnPError.self) {
            try directory.call(SOAPCall(action: "Browse", arguments: [
                "ObjectID": "1$all$i0\(tree.view.ids[0])", "BrowseFlag": "BrowseMetadata", "Filter": "*", "StartingIndex": "0",
                "RequestedCount": "0", "SortCriteria": ""]))
        }
    }
}
