import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 42's first defect: after one `setRating` or `scrobble` through the API, the item's rating and play
/// count were frozen in the API's answers until a restart (an overlay of the server's own writes laid over
/// the view, never cleared), so `mlib set` and the MPD front's plays were never seen. Now the server's write
/// is seen in the next answer (the view is brought up to date before the call returns) and a later write by
/// another program within the view's next look (< 1 s here). Both stores.
@Suite(.serialized) struct OwnerValuesFollowTheLibraryTests {
    @Test(arguments: Store.available) func aWriteByAnotherProgramAfterTheServersOwnShows(_ store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let owner = (TestLibrary.user, TestLibrary.password)
        let id = try mlib(["ls", "-f", "$persistentID", "title:Opus", "--library", library.library]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Int64(id) != nil)
        let server = try HTTPServeProcess(library: library)
        defer { server.stop() }
        func song() async throws -> (rating: Int?, plays: Int?) {
            let song = try #require(try await PerUserValuesTests.call(server, "getSong", "id=\(id)", as: owner)["song"] as? [String: Any])
            return (song["userRating"] as? Int, song["playCount"] as? Int)
        }
        _ = try await PerUserValuesTests.call(server, "setRating", "id=\(id)&rating=2", as: owner)
        _ = try await PerUserValuesTests.call(server, "scrobble", "id=\(id)", as: owner)
        let written = try await song()
        #expect(written.rating == 2 && written.plays == 1, "the server's own writes, in the next answer: \(written)")
        // Another program writes the same item: the API shows it once the view has looked (every 0.5 s).
        try #require(try mlib(["set", "rating=4", "plays=7", "title:Opus", "--library", library.library]).status == 0)
        var seen = try await song()
        for _ in 0..<40 where seen.rating != 4 || seen.plays != 7 {
            try await Task.sleep(for: .milliseconds(100))
            seen = try await song()
        }
        #expect(seen.rating == 4 && seen.plays == 7, "mlib set's values within 4 s: \(seen)")
    }
}
