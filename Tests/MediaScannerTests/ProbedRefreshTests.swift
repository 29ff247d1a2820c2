import Foundation
import MediaIndex
import MediaModel
import MediaProbe
import PostgresTestServer
@testable import MediaScanner
import Testing

/// `refresh(files:probed:)`: a file read moments ago (a tag write's check, issue 50) is not read again while
/// it still has the stamp it was read with; one changed since is read again. Both stores.
struct ProbedRefreshTests {
    @Test(arguments: Store.available) func aFreshReadIsUsedAndAStaleOneIsNot(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let kept = try box.put("a.mp3", at: "kept.mp3")
        let changed = try box.put("b.flac", at: "changed.flac")
        try await box.scan()
        let index = try box.store()
        // Each file read now as a scan reads it, then its read altered where only this test can see it:
        // the refresh shows which it used.
        func probed(_ path: MediaPath) throws -> ProbedFile {
            let file = try MediaFile(path)
            var result = try MediaProbe.probe(file, detail: .library)
            result.item[.title] = .text("From The Check")
            return ProbedFile(facts: file.facts, result: result)
        }
        let reads = [kept: try probed(kept), changed: try probed(changed)]
        try Templates.retag(changed, title: "Changed Since")      // a new inode, size and time: the read is stale

        var scanner = MediaScanner(index: index)
        let (summary, notRefreshed) = try await scanner.refresh(files: [kept, changed], probed: reads)
        #expect(summary.updated == 2 && notRefreshed.isEmpty, "\(summary)")
        #expect(try index.item(path: kept)?[.title] == .text("From The Check"))
        #expect(try index.item(path: changed)?[.title] == .text("Changed Since"))
        // Either way the stamp is the file's now: a scan finds nothing to read.
        let rescan = try await box.scan()
        #expect(rescan.unchanged == 2 && rescan.updated == 0 && rescan.reread == 0, "\(rescan)")
    }
}
