import Foundation
@testable import Library
@testable import MediaIndex
import MediaModel
import PostgresTestServer
import TestSupport
import Testing

/// The live view follows what other processes do to the library, on both stores: each change is in the
/// view after one refresh, applied from the store's change log (only the changed items are read).
struct LiveViewRefreshTests {
    static let schema = ViewSchema(slots: [
        .init("Title", multiValued: false) { $0.title },
        .init("Artist", multiValued: true) { $0.artist },
        .init("Rating", multiValued: false) { $0[.rating].map { "\($0)" } },
    ], properties: [.rating, .artist])

    private func mlib(_ arguments: [String], _ locator: String) throws {
        let result = try ChildProcess.run(ChildProcess.mlib.path, arguments + ["--library", locator])
        guard result.status == 0 else { throw TestFailure("mlib \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    private func paths(_ snapshot: LibrarySnapshot) -> [String] { snapshot.paths.map { $0.lastComponent.string } }

    @Test(arguments: Store.available) func aRatingARenameAndADeletionByAnotherProcessShowAfterOneRefresh(_ store: Store) throws {
        let temp = try TemporaryLibrary("live-view", copying: ["flac-vorbis-cover.flac", "mp3-id3v24.mp3", "ogg-vorbis.ogg"])
        defer { temp.remove() }
        let locator = try store.newLocator(sqlitePath: temp.library)
        try mlib(["scan", "-q", temp.music.path], locator)
        let library = try Library.open(LibraryLocator(locator))
        let view = try LiveView(store: library.store, schema: Self.schema)
        #expect(paths(view.snapshot) == ["flac-vorbis-cover.flac", "mp3-id3v24.mp3", "ogg-vorbis.ogg"])
        let rating = try #require(Self.schema.slotIndex(named: "Rating"))
        let ogg = try #require(view.snapshot.item(path: MediaPath(temp.music.appendingPathComponent("ogg-vorbis.ogg").path)))
        let oggID = view.snapshot.ids[Int(ogg)]
        #expect(!view.refresh(), "nothing changed")

        try mlib(["rate", #"path CONTAINS "ogg-vorbis""#, "4"], locator)
        #expect(view.refresh())
        let rated = try #require(view.snapshot.item(path: MediaPath(temp.music.appendingPathComponent("ogg-vorbis.ogg").path)))
        #expect(view.snapshot.value(rated, slot: rating) == "4")
        #expect(view.lastRefresh?.incremental == true && view.lastRefresh?.items == 1, "\(String(describing: view.lastRefresh))")

        // A rename: the item keeps its id and rating, under its new name, and no total moved.
        try FileManager.default.moveItem(at: temp.music.appendingPathComponent("ogg-vorbis.ogg"),
                                         to: temp.music.appendingPathComponent("renamed.ogg"))
        try mlib(["scan", "-q"], locator)
        #expect(view.refresh())
        #expect(paths(view.snapshot) == ["flac-vorbis-cover.flac", "mp3-id3v24.mp3", "renamed.ogg"])
        let renamed = try #require(view.snapshot.item(path: MediaPath(temp.music.appendingPathComponent("renamed.ogg").path)))
        #expect(view.snapshot.ids[Int(renamed)] == oggID && view.snapshot.value(renamed, slot: rating) == "4")
        #expect(view.snapshot.directories[Int(view.snapshot.rootDirectories[0])].items.count == 3)
        #expect(view.lastRefresh?.incremental == true)

        // A deletion, refreshed as the MPD server does after its `update` (forced): still only the change.
        try FileManager.default.removeItem(at: temp.music.appendingPathComponent("mp3-id3v24.mp3"))
        try mlib(["scan", "-q"], locator)
        #expect(view.refresh(force: true))
        #expect(paths(view.snapshot) == ["flac-vorbis-cover.flac", "renamed.ogg"])
        #expect(view.snapshot.count == 2 && view.snapshot.directories[Int(view.snapshot.rootDirectories[0])].items.count == 2)
        #expect(view.lastRefresh?.incremental == true)

        // The refreshed view is the view a new build makes.
        let rebuilt = try LibrarySnapshot.build(from: library.store, schema: Self.schema, version: nil)
        #expect(rebuilt.ids == view.snapshot.ids && rebuilt.paths == view.snapshot.paths)
        for i in 0..<Int32(rebuilt.count) {
            for s in Self.schema.slots.indices { #expect(rebuilt.value(i, slot: s) == view.snapshot.value(i, slot: s)) }
        }
        #expect(Self.schema.slots.indices.allSatisfy { rebuilt.distinct(slot: $0) == view.snapshot.distinct(slot: $0) })
        #expect(rebuilt.walkOrder == view.snapshot.walkOrder)
    }

    /// A write that leaves every value the view holds as it was (the same rating again; on PostgreSQL, rows
    /// the change token hands out once more because another transaction held the snapshot's xmin back) is
    /// no change: `refresh` says false and no watcher is woken (an MPD client would reload its library).
    @Test(arguments: Store.available) func aWriteThatChangesNothingTheViewHoldsIsNoChange(_ store: Store) throws {
        let temp = try TemporaryLibrary("live-view-same", copying: ["flac-vorbis-cover.flac", "ogg-vorbis.ogg"])
        defer { temp.remove() }
        let locator = try store.newLocator(sqlitePath: temp.library)
        try mlib(["scan", "-q", temp.music.path], locator)
        try mlib(["rate", #"path CONTAINS "ogg-vorbis""#, "4"], locator)
        let library = try Library.open(LibraryLocator(locator))
        let view = try LiveView(store: library.store, schema: Self.schema)
        let settled = view.refresh()
        #expect(!settled, "the view was built after every write: \(String(describing: view.lastRefresh))")
        let before = view.snapshot

        try mlib(["rate", #"path CONTAINS "ogg-vorbis""#, "4"], locator)
        #expect(!view.refresh(), "the same rating again: \(String(describing: view.lastRefresh))")
        #expect(view.snapshot === before)

        try mlib(["rate", #"path CONTAINS "ogg-vorbis""#, "5"], locator)
        #expect(view.refresh(), "another rating is a change")
        #expect(view.lastRefresh?.incremental == true && view.lastRefresh?.items == 1)
    }

    /// Database order read off the directory tree is the order of sorting every path by components (a file
    /// before a directory at each level), with names that sort differently as bytes and as components
    /// ("a b" against "a/…", "a.mp3" against "a/"), two roots, and roots that nest (the sort is used then).
    @Test func walkOrderFromTheTreeIsTheSortedOrder() throws {
        let names = ["/m/a/x.mp3", "/m/a b/y.mp3", "/m/a.mp3", "/m/a/b/z.mp3", "/m/z.mp3", "/m/a/0.mp3", "/n/q/1.mp3", "/n/0.mp3"]
        func item(_ path: String, _ id: Int64) -> MediaItem {
            var item = MediaItem(path: MediaPath(path), tags: [:])
            item.persistentID = id
            return item
        }
        for roots in [[MediaPath("/n"), MediaPath("/m")], [MediaPath("/m"), MediaPath("/m/a")]] {
            let snapshot = LibrarySnapshot(schema: Self.schema, version: nil, roots: roots) { body in
                for (i, name) in names.enumerated() { body(item(name, Int64(i + 1))) }
            }
            #expect(snapshot.walkOrder == LibrarySnapshot.walkOrder(sorting: snapshot.paths), "\(roots)")
            #expect(snapshot.walkOrder.count == names.count)
        }
    }

    /// PostgreSQL: while a transaction of another connection stays open, the token (the oldest running
    /// transaction) does not move, yet a change made meanwhile shows after one refresh (before this, the
    /// view took the unmoved token for "nothing changed").
    @Test(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
    func aChangeShowsWhileAnOlderTransactionHoldsTheTokenStill() throws {
        let temp = try TemporaryLibrary("live-view-xmin", copying: ["flac-vorbis-cover.flac", "ogg-vorbis.ogg"])
        defer { temp.remove() }
        let locator = try Store.postgres.newLocator(sqlitePath: temp.library)
        try mlib(["scan", "-q", temp.music.path], locator)
        let library = try Library.open(LibraryLocator(locator))
        let view = try LiveView(store: library.store, schema: Self.schema)
        let blocker = try #require(try LibraryLocator(locator).open() as? SQLStore)
        let started = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            _ = try? blocker.write { x in
                try x.execute("UPDATE scan_state SET value = value WHERE key = 'generation'")   // takes a transaction id
                started.signal()
                proceed.wait()
            }
            done.signal()
        }.start()
        started.wait()
        defer { proceed.signal(); done.wait() }
        _ = view.refresh()
        let rating = try #require(Self.schema.slotIndex(named: "Rating"))
        let path = MediaPath(temp.music.appendingPathComponent("ogg-vorbis.ogg").path)
        for stars in ["2", "5"] {
            try mlib(["rate", #"path CONTAINS "ogg-vorbis""#, stars], locator)
            #expect(view.refresh(), "rated \(stars)")
            #expect(view.snapshot.value(try #require(view.snapshot.item(path: path)), slot: rating) == stars)
        }
        #expect(!view.refresh(), "the same writes are not applied again")
    }
}
