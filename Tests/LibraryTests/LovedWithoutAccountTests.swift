import Foundation
import Library
import MediaIndex
import MediaModel
import PostgresTestServer
import Testing
import TestSupport

/// Issue 40: a loved mark becomes a song star, and a star is an account's. In a library without accounts
/// the owner has none, so `mlib import-userdata` cannot keep the owner's loved marks: the report says how
/// many (its `lovedWithoutAccount`, and a "not kept" line), in a dry run too, rather than dropping them
/// silently; once an account exists (the first is the owner) the same file adds just the stars. Both stores.
struct LovedWithoutAccountTests {
    @Test(arguments: Store.available) func lovedMarksTheOwnerCannotKeepAreReported(_ store: Store) async throws {
        let folder = try TemporaryLibrary("loved", copying: ["opus.opus", "ogg-vorbis.ogg"])
        defer { folder.remove() }
        let locator = try store.newLocator(sqlitePath: folder.library)
        let library = try Library.open(LibraryLocator(locator), mode: .create)
        _ = try await library.scan([MediaPath(folder.music.path)])
        func location(_ name: String) -> String {
            "file://" + folder.music.appendingPathComponent(name).path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
        }
        let tracks = [("opus.opus", "<key>Loved</key><true/>"), ("ogg-vorbis.ogg", "<key>Play Count</key><integer>3</integer>")]
            .enumerated().map { n, track in
                "<key>\(n + 1)</key><dict><key>Track ID</key><integer>\(n + 1)</integer><key>Location</key><string>\(location(track.0))</string>\(track.1)</dict>"
            }.joined(separator: "\n")
        let file = folder.directory.appendingPathComponent("Library.xml").path
        try UserDataImportTests.libraryXML(tracks).write(toFile: file, atomically: true, encoding: .utf8)

        let dry = try library.importUserData(.itunes, file: file, options: UserDataImportOptions(dryRun: true))
        #expect(dry.matched == 2 && dry.lovedWithoutAccount == 1, "\(dry)")
        let cli = try ChildProcess.run(ChildProcess.mlib.path, ["import-userdata", "itunes", file, "--dry-run", "--library", locator])
        #expect(cli.status == 0 && cli.out.contains("not kept: 1 loved mark: a star needs an account"), "\(cli.out) \(cli.stderr)")

        let first = try library.importUserData(.itunes, file: file)
        #expect(first.itemsChanged == 1 && first.starsAdded == 0 && first.lovedWithoutAccount == 1, "\(first)")

        // An account now: the first is the owner's, and the same file adds the star, nothing else.
        let users = try library.users(keyFile: folder.directory.appendingPathComponent("users-key").path, createKey: true)
        _ = try users.add(name: "alice", password: "a")
        let second = try library.importUserData(.itunes, file: file)
        #expect(second.itemsChanged == 0 && second.starsAdded == 1 && second.lovedWithoutAccount == 0, "\(second)")
        let opus = try #require(try library.store.item(path: MediaPath(folder.music.appendingPathComponent("opus.opus").path)))
        #expect(try library.store.stars(of: "alice").map(\.key) == [String(opus.id)])
    }
}
