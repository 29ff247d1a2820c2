import Foundation
@testable import MediaIndex
@testable import PostgresStore
import Library
import MediaModel
import PostgresTestServer
import TestSupport
import Testing

/// Issue 38, "few round trips": over a 200 ms link an unchanged rescan of 300 files took 3.78 s — two
/// connections (the scan's reader had its own) and 16 statements (the mounts asked twice, the hidden items,
/// whether the host has items, what an older reader read, the indexed directories, a three-statement
/// transaction for the playlist mirrors, the lock's release waited for). Now one connection, and what the
/// scan asks of its roots is one statement.
@Suite(.enabled(if: PostgresTestServer.isInstalled, "PostgreSQL is not installed"))
struct PostgresRescanRoundTripTests {
    @Test func anUnchangedRescanIsOneConnectionAndAFewStatements() async throws {
        let locator = try #require(PostgresTestServer.shared).makeDatabase()
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("mlib-rescan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: top) }
        for (directory, file) in [("a", "opus.opus"), ("a", "ogg-vorbis.ogg"), ("b/c", "flac-vorbis-cover.flac")] {
            let folder = top.appendingPathComponent(directory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ChildProcess.repo.appendingPathComponent("Fixtures/\(file)"), to: folder.appendingPathComponent(file))
        }
        let root = MediaPath(top.resolvingSymlinksInPath().path)
        let index = try PostgresIndex(try PostgresLocation(url: locator), identity: HostIdentity(id: "h", name: "h"))
        let library = Library(store: index, locator: .postgres(url: locator))
        #expect(try await library.scan([root]).summary.added == 3)

        let reader = try #require(try index.readingConnection() as? PostgresIndex)
        #expect(reader.session === index.session, "the scan's reader has a connection of its own")
        let before = index.session.statementsSent
        let again = try await library.scan([root])
        #expect(again.summary.unchanged == 3 && again.summary.added == 0 && again.summary.removed == 0)
        let sent = index.session.statementsSent - before
        // What the scan asks of this host's roots, the root's lock, the directories' states, the newest
        // generation, the lyrics sidecars recorded under the root (issue 41: one statement per scan target,
        // so that a sidecar removed beside an unchanged file is seen; it could join the roots' statement),
        // the playlist mirrors, the lock's release.
        #expect(sent <= 7, "an unchanged rescan sent \(sent) statements")
    }
}
