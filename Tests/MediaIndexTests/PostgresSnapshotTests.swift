import Foundation
@testable import MediaIndex
@testable import PostgresStore
import MediaModel
import PostgresTestServer
import Synchronization
import Testing

/// Issue 38: `mlib stats` during another host's scan mixed states (3 of 13 answers): its totals and its
/// counts were separate statements, each seeing the latest commit. Now one snapshot.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresSnapshotTests {
    @Test func statisticsAgreeWithThemselvesWhileAnotherHostWrites() throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase()
        let reader = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "reader", name: "reader"))
        let writer = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "writer", name: "writer"))
        try writer.addRoot(MediaPath("/music"))
        let stop = Atomic(false)
        let written = Atomic(0)
        let thread = Thread {
            var n = 0
            while !stop.load(ordering: .relaxed) {
                n += 1
                try? writer.apply([.add(sampleItem("/music/\(n).mp3", title: "T\(n)"), stamp(Int64(n)), fingerprint: Int64(n))], generation: 1)
                written.store(n, ordering: .relaxed)
            }
        }
        thread.start()
        defer { stop.store(true, ordering: .relaxed) }
        var mixed = 0
        for _ in 0..<60 {
            let stats = try reader.statistics()
            let byType = stats.byMediaType.reduce(0) { $0 + $1.count }
            let byContainer = stats.byContainer.reduce(0) { $0 + $1.count }
            if stats.items != byType || stats.items != byContainer { mixed += 1 }
        }
        stop.store(true, ordering: .relaxed)
        #expect(written.load(ordering: .relaxed) > 10, "the writer wrote while stats ran")
        #expect(mixed == 0, "\(mixed) of 60 answers mixed two states")
    }

    /// A reader and another host's writer on one library, with three items and the playlists `full` (holding
    /// them) and `empty`.
    static func playlistLibrary(full: String, empty: String) throws -> (reader: PostgresIndex, writer: PostgresIndex) {
        let locator = try #require(PostgresTestServer.shared).makeDatabase()
        let reader = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "reader", name: "reader"))
        let writer = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "writer", name: "writer"))
        try writer.addRoot(MediaPath("/music"))
        try writer.apply((1...3).map { .add(sampleItem("/music/\($0).mp3", title: "T\($0)"), stamp(Int64($0)), fingerprint: Int64($0)) },
                         generation: 1)
        try writer.createPlaylist(name: full)
        try writer.appendToPlaylist(name: full, itemIDs: try writer.itemIDs(MediaQuery()))
        try writer.createPlaylist(name: empty)
        return (reader, writer)
    }

    /// How many of `reads` answers of `read` are false (a mixed state), while `writer` commits `write` again and again.
    static func mixedAnswers(_ reads: Int, _ read: () throws -> Bool, writer: PostgresIndex, _ write: @escaping @Sendable (any SQLExecutor) throws -> Void) throws -> Int {
        let stop = Atomic(false)
        let commits = Atomic(0)
        let thread = Thread {
            while !stop.load(ordering: .relaxed) {
                if (try? writer.write(write)) != nil { _ = commits.add(1, ordering: .relaxed) }
            }
        }
        thread.start()
        defer { stop.store(true, ordering: .relaxed) }
        var mixed = 0
        for _ in 0..<reads {
            if try !read() { mixed += 1 }
        }
        stop.store(true, ordering: .relaxed)
        #expect(commits.load(ordering: .relaxed) > 10, "the writer wrote while the reader read")
        return mixed
    }

    /// Issue 38: a playlist's items were read in two statements (its id, then its entries), each on the latest
    /// commit: a playlist whose entries another host moved to another playlist between them read as empty.
    /// Here every commit of the writer swaps two playlists' names and moves the entries along: in every
    /// state "mix" holds the three items and "spare" none.
    @Test func playlistItemsAreOneStateWhileAnotherHostSwapsThePlaylists() throws {
        let (reader, writer) = try Self.playlistLibrary(full: "mix", empty: "spare")
        let mixed = try Self.mixedAnswers(200, { try reader.playlistItems(name: "mix").count == 3 }, writer: writer) { x in
            try x.execute("""
                UPDATE playlist_entries SET playlist_id = (SELECT id FROM playlists WHERE name = 'spare')
                WHERE playlist_id = (SELECT id FROM playlists WHERE name = 'mix')
                """)
            try x.execute("UPDATE playlists SET name = 'swapping' WHERE name = 'mix'")
            try x.execute("UPDATE playlists SET name = 'mix' WHERE name = 'spare'")
            try x.execute("UPDATE playlists SET name = 'spare' WHERE name = 'swapping'")
        }
        #expect(mixed == 0, "\(mixed) of 200 answers mixed two states")
    }

    /// Issue 38: the `.playlist` grouping listed the playlists, then read each one, each statement on the
    /// latest commit. Here every commit of the writer moves the three entries between "a" and "b": in every
    /// state the playlists hold three entries in all.
    @Test func thePlaylistGroupingIsOneStateWhileAnotherHostMovesEntries() throws {
        let (reader, writer) = try Self.playlistLibrary(full: "a", empty: "b")
        var grouping = MediaQuery()
        grouping.grouping = .playlist
        let mixed = try Self.mixedAnswers(100, { try reader.collections(grouping).reduce(0, { $0 + $1.items.count }) == 3 }, writer: writer) { x in
            try x.execute("""
                UPDATE playlist_entries SET playlist_id = (SELECT id FROM playlists WHERE name = CASE
                    WHEN playlist_id = (SELECT id FROM playlists WHERE name = 'a') THEN 'b' ELSE 'a' END)
                """)
        }
        #expect(mixed == 0, "\(mixed) of 100 answers mixed two states")
    }
}
