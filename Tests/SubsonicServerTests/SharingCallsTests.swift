import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 42: internet radio stations, shares with their public links, and the index-based play queue
/// through the API, on both stores, driven by `Scripts/sharing_client.py` (every answer validated against
/// the OpenAPI description). Rights: only an admin edits stations (50 for bob); a user sees and edits their
/// own shares, an admin every one, another's is 70; a link opens its own songs only (any other song through
/// it is 404), an expired share is 410, a deleted one 404.
@Suite(.serialized, .enabled(if: pythonClientInstalled, "python3 with openapi-schema-validator missing (scripts/install-deps.sh)"))
struct SharingCallsTests {
    @Test(arguments: Store.available)
    func stationsSharesAndTheIndexedQueueKeepTheirRights(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        try #require(try mlib(["user", "add", "bob", "--password", "bobpass", "--library", library.library, "--key-file", library.keyFile]).status == 0)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        let run = try ChildProcess.run("python3", [Paths.repo.appendingPathComponent("Tests/SubsonicServerTests/Scripts/sharing_client.py").path,
                                                   String(server.port), TestLibrary.user, TestLibrary.password, Paths.openAPI.path])
        #expect(run.status == 0, "\(run.stderr)")
        guard run.status == 0 else { return }
        let summary = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        func code(_ key: String) -> Int? { summary[key] as? Int }
        func text(_ key: String) -> String? { summary[key] as? String }
        func flag(_ key: String) -> Bool? { summary[key] as? Bool }

        // Radio stations.
        for key in ["bobCreatesStation", "bobUpdates", "bobDeletes"] { #expect(code(key) == 50, "\(key): \(String(describing: summary[key]))") }
        for key in ["adminCreates", "adminCreatesSecond", "adminUpdates", "adminDeletes"] { #expect(text(key) == "ok", "\(key): \(String(describing: summary[key]))") }
        #expect(code("createWithoutName") == 10 && code("updateWithoutStream") == 10)
        #expect(code("createFileURL") == 0, "a file: URL is refused")
        #expect(code("updateUnknown") == 70 && code("deleteUnknown") == 70)
        let stations = summary["stations"] as? [[Any]]
        #expect(stations?.count == 2)
        #expect(stations?.first?.first as? String == "Allnews", "by name")
        #expect(stations?.last as? [String] == ["Jazz", "http://radio.example.org/jazz.aac", "http://radio.example.org/"])
        #expect(summary["stationsAfter"] as? [String] == ["Allnews"])

        // Shares and their links.
        #expect(flag("bobShareRole") == true)
        #expect(flag("bobShareEntries") == true && (code("bobShareSongs") ?? 0) >= 2, "\(String(describing: summary["bobShareSongs"]))")
        #expect(code("createUnknown") == 70 && code("createNothing") == 10)
        #expect(flag("bobSees") == true && flag("adminSees") == true)
        #expect(code("bobUpdatesAdmins") == 70 && code("bobDeletesAdmins") == 70, "another user's share is not told of")
        #expect(text("adminUpdatesBobs") == "ok" && text("bobDescription") == "Checked by the admin")
        #expect(flag("urlPath") == true)
        #expect(code("pageStatus") == 200 && code("pageLinks") == code("bobShareSongs"))
        #expect(flag("streamsWhole") == true)
        #expect(code("otherSongThroughShare") == 404 && code("otherSongsIDs") == 404 && code("unknownShare") == 404)
        #expect(code("visits") == 1, "the page counts one visit, its songs none")
        #expect(text("expire") == "ok" && code("expiredPage") == 410 && code("expiredSong") == 410)
        #expect(text("unexpire") == "ok" && code("reopenedPage") == 200)
        #expect(text("delete") == "ok" && code("deletedPage") == 404 && code("deletedSong") == 404 && code("deleteAgain") == 70)
        #expect(flag("pageEscapes") == true)

        // The index-based queue.
        #expect(summary["indexBasedQueue"] as? [Int] == [1])
        #expect(text("saveByIndex") == "ok")
        let byIndex = summary["byIndex"] as? [Any]
        #expect(byIndex?[0] as? Int == 2 && byIndex?[1] as? Int == 4500 && byIndex?[2] as? Bool == true && byIndex?[3] as? String == "sharing-test",
                "\(String(describing: byIndex))")
        #expect(flag("byIdCurrent") == true)
        #expect(text("saveById") == "ok" && code("byIndexAfterById") == 1)
        for key in ["indexOutside", "indexNegative", "indexMissing", "indexWithoutSongs"] { #expect(code(key) == 10, "\(key): \(String(describing: summary[key]))") }
        #expect(code("unchanged") == 1, "a refused save changes nothing")
        #expect(flag("adminQueueApart") == true)
        #expect(text("clear") == "ok" && code("cleared") == 0)
        #expect(server.stop() == 0)
    }
}
