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
        // Each file read now as a scan reads it, then its read and its identity altered where only this test
        // can see them: the refresh shows which it used.
        func probed(_ path: MediaPath) throws -> ProbedFile {
            let file = try MediaFile(path)
            var result = try MediaProbe.probe(file, detail: .library)
            result.item[.title] = .text("From The Check")
            var identity = ContentIdentity(file)
            identity.fingerprint = 4242
            return ProbedFile(facts: file.facts, result: result, identity: identity)
        }
        let reads = [kept: try probed(kept), changed: try probed(changed)]
        try Templates.retag(changed, title: "Changed Since")      // a new inode, size and time: the read is stale

        var scanner = MediaScanner(index: index)
        let (summary, notRefreshed) = try await scanner.refresh(files: [kept, changed], probed: reads)
        #expect(summary.updated == 2 && notRefreshed.isEmpty, "\(summary)")
        #expect(try index.item(path: kept)?[.title] == .text("From The Check"))
        #expect(try index.item(path: changed)?[.title] == .text("Changed Since"))
        // The handed identity is stored with the handed read (the file not opened for it); a stale one is not.
        let stored = try index.directoryState(kept.directory).items
        #expect(stored[kept]?.fingerprint == 4242)
        #expect(stored[changed]?.fingerprint == Fingerprint.of(changed))
        // Either way the stamp is the file's now: a scan finds nothing to read.
        let rescan = try await box.scan()
        #expect(rescan.unchanged == 2 && rescan.updated == 0 && rescan.reread == 0, "\(rescan)")
    }

    /// A refresh of most of a folder lists the folder for lyrics sidecars once, as a scan does: the sidecars
    /// it records are the ones the next scan sees (a `.Lrc` too, which six names stat'ed a file missed), so
    /// that scan reads nothing again.
    @Test(arguments: Store.available) func aFolderRefreshedWholeFindsItsSidecarsAsAScanDoes(_ store: Store) async throws {
        let box = try Sandbox(store: store)
        let files = try (0..<10).map { try box.put($0 % 2 == 0 ? "a.mp3" : "b.flac", at: "album/\($0).\($0 % 2 == 0 ? "mp3" : "flac")") }
        try await box.scan()
        let album = box.music.appendingPathComponent("album")
        try Data("[00:01.00]one\n".utf8).write(to: album.appendingPathComponent("1.Lrc"))
        try Data("plain words\n".utf8).write(to: album.appendingPathComponent("2.TXT"))
        let index = try box.store()
        let (summary, _) = try await MediaScanner(index: index).refresh(files: files)
        #expect(summary.updated == 10, "\(summary)")
        func texts(_ name: String) throws -> [String] {
            let id = try #require(try index.item(path: MediaPath(album.appendingPathComponent(name).path))).persistentID
            return try index.lyrics(ofItem: id).map { "\($0.source):\($0.text)" }
        }
        #expect(try texts("1.flac") == ["lrc:one"])
        #expect(try texts("2.mp3") == ["txt:plain words\n"])
        #expect(try texts("3.flac").isEmpty)
        let rescan = try await box.scan()
        #expect(rescan.unchanged == 10 && rescan.reread == 0 && rescan.updated == 0, "\(rescan)")
    }
}
