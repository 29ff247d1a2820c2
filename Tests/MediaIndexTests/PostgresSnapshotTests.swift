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
}
