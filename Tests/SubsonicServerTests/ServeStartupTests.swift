import Foundation
import PostgresTestServer
import TestSupport
import Testing

/// Issue 44: `mlib serve --http` beside the MPD port listens before the view both share is built (and the
/// API's catalog derived from it). While it builds, the API answers `ping`, the license and the scan status
/// (scanning) at once, and a `getArtists` asked meanwhile waits in its handler (never on an event loop) and
/// comes whole once the view is in; MPD's `status` says the database is updating. The build is made slow by
/// the test-only `MLIB_TEST_VIEW_BUILD_DELAY_MS` (LiveView), which production never sets.
@Suite(.serialized, .enabled(if: ChildProcess.exists("ffmpeg") && ChildProcess.exists("mpc"), "ffmpeg or mpc missing (scripts/install-deps.sh)"))
struct ServeStartupTests {
    static let delay = 5.0

    @Test(arguments: Store.available)
    func apiAnswersPingAtOnceAndTheLibraryOnceTheViewIsIn(store: Store) async throws {
        let library = try TestLibrary(on: store)
        defer { library.remove() }
        let launched = Date()
        let server = try BothServeProcess(library: library, environment: ["MLIB_TEST_VIEW_BUILD_DELAY_MS": String(Int(Self.delay * 1_000))])
        defer { server.stop() }
        let listening = Date().timeIntervalSince(launched)
        #expect(listening < Self.delay - 1.5, "both ports listened \(listening) s after the start; the build takes more than \(Self.delay) s")

        func json(_ method: String) async throws -> [String: Any] {
            let answer = try await http("\(server.base)/\(method)?\(BothServeProcess.auth)&f=json")
            #expect(answer.status == 200)
            let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return try #require(object?["subsonic-response"] as? [String: Any])
        }
        // Asked first, answered last: it waits for the view in its handler.
        async let artists = json("getArtists")
        let asked = Date()
        #expect(try await json("ping")["status"] as? String == "ok")
        #expect(try await json("getLicense")["status"] as? String == "ok")
        let pinged = Date().timeIntervalSince(asked)
        #expect(pinged < 1.5, "ping and getLicense took \(pinged) s while the view builds")
        #expect(try server.mpc(["status"]).out.contains("Updating DB"), "MPD's status while the view builds")
        // A phone asking whether the server scans is told at once that it does (as MPD says it updates),
        // rather than waiting for the library.
        let statusAsked = Date()
        let loading = try await json("getScanStatus")["scanStatus"] as? [String: Any]
        #expect(Date().timeIntervalSince(statusAsked) < 1.5, "getScanStatus waited while the view builds")
        #expect(loading?["scanning"] as? Bool == true, "getScanStatus while the view builds: \(String(describing: loading))")

        let answer = try await artists
        let loaded = Date().timeIntervalSince(launched)
        #expect(loaded >= Self.delay - 0.5, "getArtists answered \(loaded) s after the start: before the view was in?")
        let index = (answer["artists"] as? [String: Any])?["index"] as? [[String: Any]] ?? []
        let names = index.flatMap { ($0["artist"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
        #expect(!names.isEmpty, "\(answer)")
        // Whole: the same as once the view is in.
        let again = ((try await json("getArtists"))["artists"] as? [String: Any])?["index"] as? [[String: Any]] ?? []
        #expect(names == again.flatMap { ($0["artist"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } })
        #expect(!(try server.mpc(["status"]).out.contains("Updating DB")))
        let afterLoad = try await json("getScanStatus")["scanStatus"] as? [String: Any]
        #expect(afterLoad?["scanning"] as? Bool == false && (afterLoad?["count"] as? Int ?? 0) > 0, "\(String(describing: afterLoad))")
    }
}
