@testable import DLNAServer
import Foundation
import Library
import MediaIndex
import TestSupport
import Testing

/// A small unsorted Browse is answered on the event loop from the tree in memory (`DLNAServer.answerOnLoop`),
/// so it must never read the disk or the store there: a folder whose cover was not looked up yet, a video's
/// subtitles and the playlists throw `NeedsDisk` (the pool then answers), and once the pool has looked a
/// folder up, the answer made in memory is the pool's, byte for byte.
@Suite struct BrowseOnLoopTests {
    private func browse(_ id: String, count: Int = 50, sort: String = "") -> SOAPCall {
        SOAPCall(action: "Browse", arguments: ["ObjectID": id, "BrowseFlag": "BrowseDirectChildren", "Filter": "*",
                                               "StartingIndex": "0", "RequestedCount": String(count), "SortCriteria": sort])
    }

    @Test func aBrowseInMemoryReadsNothingAndEqualsThePoolsAnswer() throws {
        let scratch = try ScratchLibrary("mlib-dlna-loop")
        defer { scratch.remove() }
        try scratch.copyFixture("mp3-id3v24.mp3", as: "covered/one.mp3")
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: scratch.media.appendingPathComponent("covered/cover.jpg"))
        try scratch.copyFixture("mp3-id3v23.mp3", as: "bare/two.mp3")
        try scratch.copyFixture("video-h264-aac.mp4", as: "films/film.mp4")
        try scratch.scan(["-q"])
        let library = try Library.open(LibraryLocator(scratch.sqliteFile.path))
        let view = try LiveView(store: library.store, schema: .dlna)
        let tree = MediaTree(view.snapshot, base: 0, updateID: 1)
        var storeReads = 0
        let pool = ContentDirectory(nodes: TreeNodes(tree: tree, playlists: { storeReads += 1; return [] }, playlistItems: { _ in [] }),
                                    writer: DIDLWriter(tree: tree, baseURL: "http://x", covers: library.covers)) { _ in [] }
        let memory = ContentDirectory(nodes: TreeNodes(tree: tree, playlists: { throw NeedsDisk() }, playlistItems: { _ in throw NeedsDisk() }),
                                      writer: DIDLWriter(tree: tree, baseURL: "http://x", covers: nil)) { _ in [] }

        // The songs' folders were never looked up for a cover: in memory, no answer.
        #expect(throws: NeedsDisk.self) { try memory.call(browse("1$all")) }
        let fromPool = try pool.call(browse("1$all"))
        #expect(try #require(fromPool.first?.1.read).contains("/art/"), "the covered folder's song offers art")
        // Looked up by the pool's answer: now the same bytes from memory.
        let fromMemory = try memory.call(browse("1$all"))
        #expect(fromMemory.map(\.1) == fromPool.map(\.1))
        // A video's subtitles are looked for on disk; the playlists are in the store.
        #expect(throws: NeedsDisk.self) { try memory.call(browse("2$all")) }
        #expect(throws: NeedsDisk.self) { try memory.call(browse("1")) }
        _ = try pool.call(browse("1"))
        #expect(storeReads == 1)
        // The containers of the root need neither.
        #expect(try memory.call(browse("0")).map(\.1) == pool.call(browse("0")).map(\.1))
    }

    @Test func onlySmallUnsortedBrowsesAreAnsweredOnTheLoop() {
        #expect(DLNAServer.mayAnswerOnLoop(browse("1$all", count: 50)))
        #expect(DLNAServer.mayAnswerOnLoop(browse("1$all", count: DLNAServer.largestPageOnLoop)))
        #expect(!DLNAServer.mayAnswerOnLoop(browse("1$all", count: DLNAServer.largestPageOnLoop + 1)))
        #expect(!DLNAServer.mayAnswerOnLoop(browse("1$all", count: 0)), "0 asks for every child")
        #expect(!DLNAServer.mayAnswerOnLoop(browse("1$all", sort: "+dc:title")), "a sorted page sorts every child")
        #expect(!DLNAServer.mayAnswerOnLoop(SOAPCall(action: "Search", arguments: ["ContainerID": "0", "RequestedCount": "10"])))
    }
}
