import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 40: the three fronts that play record into one listening history, through `Library` and its one
/// rule: `mlib play`, the MPD server's player (`mpc play`, `--record-plays`) and a Subsonic client's
/// `scrobble` (curl), each one row, with its front and user; the item's play count is the history's.
@Suite(.enabled(if: ChildProcess.exists("mpc") && ChildProcess.exists("curl"), "mpc or curl missing (scripts/install-deps.sh)"))
struct ListeningHistoryFrontsTests {
    @Test(arguments: Store.available)
    func threeFrontsRecordIntoOneHistory(_ store: Store) throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let id = try mlib(["ls", "-f", "$persistentID", "title:Opus", "--library", library.library]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Int64(id) != nil, "the Opus fixture's id: \(id)")
        func history() throws -> [[String: Any]] {
            let r = try mlib(["history", "--json", "--library", library.library])
            guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]] else {
                throw TestFailure("mlib history --json: \(r.status) \(r.stderr)")
            }
            return rows
        }

        let played = try mlib(["play", "--sink", "null:fast", "--record-plays", "title:Opus", "--library", library.library])
        try #require(played.status == 0, "mlib play: \(played.stderr)")
        #expect(try history().count == 1)

        let server = try BothServeProcess(library: library, extra: ["--record-plays"])
        defer { server.stop() }
        #expect(try server.mpc(["add", "opus.opus"]).status == 0)
        #expect(try server.mpc(["play"]).status == 0)
        // The 1 s item plays to its end; the play is written as it ends.
        #expect(try Poll.until(timeout: 10) { try history().count == 2 }, "the MPD player's play is not in the history")

        let scrobble = try ChildProcess.run("curl", ["-s", "-f", "\(server.base)/scrobble?id=\(id)&time=1700000000000&\(BothServeProcess.auth)&f=json"])
        #expect(scrobble.status == 0 && scrobble.out.contains("\"ok\""), "\(scrobble.out)")

        let rows = try history()
        #expect(rows.count == 3)
        #expect(rows.map { $0["itemID"] as? Int64 ?? ($0["itemID"] as? NSNumber)?.int64Value ?? -1 } == Array(repeating: Int64(id)!, count: 3))
        // Newest first: the scrobble says it was played in 2023, so it comes last.
        #expect(rows.map { $0["front"] as? String ?? "" } == ["mpd", "play", "subsonic"])
        #expect(rows.map { $0["user"] as? String ?? "-" } == ["-", "-", TestLibrary.user])
        #expect(rows.map { $0["kind"] as? String ?? "" } == ["play", "play", "play"])
        #expect(rows.last?["when"] as? String == "2023-11-14T22:13:20Z")
        #expect(rows.last?["heard"] is NSNull, "a scrobble does not say how long was heard")
        #expect((rows.first?["heard"] as? NSNumber)?.doubleValue ?? 0 > 0.5, "the player says how long was heard")
        #expect(rows.allSatisfy { $0["title"] as? String == "Opus Song" })
        let count = try mlib(["ls", "-f", "$playCount", "title:Opus", "--library", library.library]).out
        #expect(count == "3\n", "the counter is kept with the history")
    }
}
